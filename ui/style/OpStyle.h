#pragma once

#include "trace/Op.h"

#include <QColor>
#include <QString>

#include <array>

namespace ovs::ui {

// One colour per op kind, the same in every view and export (and legend).
QColor opColor(OpKind kind);
// "Upload (HtoD)", "Kernel", "Stage in (host memcpy)", ...
QString opKindLabel(OpKind kind);
// The order kinds appear in legends.
const std::array<OpKind, kOpKindCount>& legendOrder();

} // namespace ovs::ui
