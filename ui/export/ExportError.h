#pragma once

#include <QString>

namespace ovs::ui {

// An export's failure: `message` into *error where the caller asked for it;
// false, for `return exportFailed(error, ...)`.
inline bool exportFailed(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return false;
}

} // namespace ovs::ui
