#include "export/AtomicFile.h"

#include "formats/TraceJson.h"

#include <QFile>

#include <string>
#include <string_view>

namespace ovs::ui {

bool writeFileAtomically(const QString& path, const QByteArray& data, QString* error)
{
    std::string message;
    const bool ok = writeTextFileAtomically(QFile::encodeName(path).toStdString(),
                                            std::string_view(data.constData(), static_cast<std::size_t>(data.size())),
                                            &message);
    if (!ok && error)
        *error = QString::fromStdString(message);
    return ok;
}

} // namespace ovs::ui
