#include "panels/TableColumns.h"

#include <QStringList>
#include <QTreeWidget>

namespace ovs::ui {

const std::vector<ColumnHelp>& findingsPanelColumns()
{
    static const std::vector<ColumnHelp> columns = {
        {"Cost", "how much shorter the judged span would be without it (\u2248: estimated by its kind's rule, "
                 "else replayed with its fix)"},
        {"Saving", "the cost against the judged span: the longest bar is the biggest win; hatched where the cost is "
                   "an estimate"},
        {"Source", "replay: the run replayed with the fix against the run replayed as it was; estimate: the rule "
                   "of docs/profiling.md for its kind (no replayable fix, or the run could not be replayed)"},
        {"Finding", "what keeps copies and kernels from overlapping"},
        {"Ops", "the operations it concerns (the first 1,000 are outlined on the timeline)"},
        {"Cause", "what happened, with the numbers that say so; the whole text, the fix and the what-if are in "
                  "the details when it is chosen"},
    };
    return columns;
}

const std::vector<ColumnHelp>& stepsPanelColumns()
{
    static const std::vector<ColumnHelp> columns = {
        {"Step", "each judged instance of the repeated region (profiler step, NVTX range, --region), in order"},
        {"Duration", "the instance's span, from its begin to its end on the host"},
        {"Against the slowest", "the duration as a bar, the slowest the longest (in red); the tick marks the median"},
        {"Findings in it", "the findings of the whole judged span that hold in this step, with what their fixes "
                           "save in it: its share of the replayed saving (at least 2% of the step)"},
    };
    return columns;
}

void applyColumnHelp(QTreeWidget* tree, const std::vector<ColumnHelp>& columns)
{
    QStringList headers;
    for (const ColumnHelp& column : columns)
        headers << QString::fromUtf8(column.header.data(), static_cast<qsizetype>(column.header.size()));
    tree->setColumnCount(static_cast<int>(columns.size()));
    tree->setHeaderLabels(headers);
    for (int i = 0; i < static_cast<int>(columns.size()); ++i) {
        const std::string_view help = columns[static_cast<std::size_t>(i)].help;
        tree->headerItem()->setToolTip(i, QString::fromUtf8(help.data(), static_cast<qsizetype>(help.size())));
    }
}

} // namespace ovs::ui
