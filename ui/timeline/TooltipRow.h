#pragma once

#include <QString>

namespace ovs::ui {

// One row of a tooltip's table: the label greyed, then the value.
inline QString tooltipRow(const QString& label, const QString& value)
{
    return QStringLiteral("<tr><td style='color:gray; padding-right:8px'>%1</td><td>%2</td></tr>").arg(label, value);
}

} // namespace ovs::ui
