#pragma once

#include <QByteArray>
#include <QString>

namespace ovs::ui {

// Every file the window and the headless export write goes through here:
// a temporary file beside the target, then a rename, so a failure (disk
// full, no permission) leaves an existing file as it was. It forwards to
// core's one atomic writer, so errors read in words ("No space left on
// device", "Permission denied") and a better writer lands in one place.
bool writeFileAtomically(const QString& path, const QByteArray& data, QString* error);

} // namespace ovs::ui
