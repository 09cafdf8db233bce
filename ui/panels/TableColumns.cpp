#include "panels/TableColumns.h"

#include <QStringList>
#include <QTreeWidget>

namespace ovs::ui {

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
