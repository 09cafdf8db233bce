#pragma once

#include "ranks/RankFolder.h"

#include <cstddef>
#include <vector>

namespace ovs::ui {

// A folder of ranks as the window shows it: every rank's summary row (the
// core's RankFolder, its files' traces dropped: a row is a few hundred
// bytes, a rank's ops hundreds of MB), and which of those rows the document
// holds as runs. The others open on demand from the ranks panel.
struct RankJob {
    RankFolder folder;
    // Per folder.ranks row: its document run, or -1 while its trace is not open.
    std::vector<int> runOfRow;
    // Per document run: its folder.ranks row.
    std::vector<std::size_t> rowOfRun;

    bool isOpen(std::size_t row) const { return row < runOfRow.size() && runOfRow[row] >= 0; }
};

} // namespace ovs::ui
