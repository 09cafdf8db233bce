#pragma once

#include <string_view>
#include <vector>

namespace ovs {

// One column of a table of analysed runs: its header and a one-line
// explanation (the CLI prints it as a legend under the table, the window
// shows it as the header's tooltip), so both say the same.
struct ColumnHelp {
    std::string_view header;
    std::string_view help;
};

// The CLI's analysis summary table, in column order.
const std::vector<ColumnHelp>& summaryTableColumns();
// The window's summary panel, in the order of SummaryPanel::Column.
const std::vector<ColumnHelp>& summaryPanelColumns();
// The window's findings panel and steps view, in the order of
// FindingsView::Column and StepsView::Column.
const std::vector<ColumnHelp>& findingsPanelColumns();
const std::vector<ColumnHelp>& stepsPanelColumns();

} // namespace ovs
