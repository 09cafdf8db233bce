#pragma once

#include <QFile>
#include <QString>

#include <string>

namespace ovs::ui {

// A path as the core's readers open it: the file system's bytes (QFile's
// encoding), not the QString's UTF-16.
inline std::string nativePath(const QString& path)
{
    return QFile::encodeName(path).toStdString();
}

} // namespace ovs::ui
