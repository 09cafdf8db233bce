#include "document/RunDevices.h"

#include <QStringList>

namespace ovs::ui {

QString runDevicesLabel(const Run& run)
{
    if (run.deviceCount() == 1)
        return QString::fromStdString(run.device.label());
    QStringList labels;
    for (int i = 0; i < run.deviceCount(); ++i)
        labels << QString::fromStdString(run.deviceAt(i).label());
    labels.removeDuplicates();
    if (labels.size() == 1)
        return QStringLiteral("%1 \u00d7 %2").arg(run.deviceCount()).arg(labels.front());
    return QStringLiteral("%1 GPUs: %2").arg(run.deviceCount()).arg(labels.join(QStringLiteral(", ")));
}

} // namespace ovs::ui
