#pragma once

#include "words/ColumnHelp.h"

#include <vector>

class QTreeWidget;

namespace ovs::ui {

// Headers and their tooltips from one of core's tables of columns
// (words/ColumnHelp.h), in column order.
void applyColumnHelp(QTreeWidget* tree, const std::vector<ColumnHelp>& columns);

} // namespace ovs::ui
