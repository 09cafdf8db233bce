#pragma once

#include "analysis/ColumnHelp.h"

#include <vector>

class QTreeWidget;

namespace ovs::ui {

// The findings panel's and the steps view's columns, in core's ColumnHelp
// form (a header and the one line its tooltip says). Core's table
// (analysis/ColumnHelp) has the summary's columns only; these are the
// window's own until core's table takes them, in the order of
// FindingsView::Column and StepsView::Column.
const std::vector<ColumnHelp>& findingsPanelColumns();
const std::vector<ColumnHelp>& stepsPanelColumns();

// Headers and their tooltips from a table of columns, in column order.
void applyColumnHelp(QTreeWidget* tree, const std::vector<ColumnHelp>& columns);

} // namespace ovs::ui
