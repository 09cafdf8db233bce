#include "ranks/RankFolder.h"

#include "io/PathParts.h"
#include "ranks/RankNames.h"
#include "ranks/RankSummaryJson.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <filesystem>
#include <map>
#include <mutex>
#include <new>
#include <thread>
#include <tuple>

namespace ovs {

std::vector<std::string> rankFilesIn(const std::string& folder, std::string* error)
{
    namespace fs = std::filesystem;
    std::vector<std::string> paths;
    std::error_code ec;
    fs::directory_iterator it(folder, ec);
    if (ec) {
        if (error)
            *error = folder + ": cannot list the folder: " + ec.message();
        return paths;
    }
    for (const fs::directory_entry& entry : it) {
        const std::string name = entry.path().filename().string();
        if (name.empty() || name.front() == '.')
            continue;
        std::error_code statError;
        if (entry.is_regular_file(statError)) // follows links
            paths.push_back(entry.path().string());
    }
    std::sort(paths.begin(), paths.end());
    if (paths.empty() && error)
        *error = folder + ": the folder holds no files to read as ranks";
    return paths;
}

namespace {

// Reads, analyses and summarises one trace; its ops go when it returns,
// unless the caller keeps the trace.
void readRank(std::size_t index, const RankReadOptions& options, RankFile& file, std::vector<RankSummary>& rows)
{
    TraceLoadResult loaded = loadTrace(file.path, options.maxBytes);
    if (!loaded.trace) {
        file.error = loaded.error;
        return;
    }
    if (!loaded.note.empty())
        file.notes.push_back(loaded.note);
    const Trace& trace = *loaded.trace;
    if (trace.runs.empty()) {
        file.error = file.path + ": holds no runs";
        return;
    }
    const std::vector<RunAnalysis> analyses = analyzeTrace(trace, options.analysis, &file.notes);
    for (std::size_t r = 0; r < trace.runs.size() && r < analyses.size(); ++r)
        rows.push_back(summarizeRank(trace.runs[r], analyses[r]));
    if (options.keep && options.keep(index))
        file.trace = std::move(loaded.trace);
}

// Labels every row: "rank N" from its trace or its file's name, else the
// file's name; a file of several runs adds the run's name.
void label(RankFolder& folder, const std::vector<std::size_t>& runsOfFile)
{
    for (RankSummary& row : folder.ranks) {
        const std::string name = nameOf(folder.files[row.file].path);
        if (row.rank < 0) {
            if (const auto rank = rankFromFileName(name)) {
                row.rank = *rank;
                row.rankSource = RankSource::FileName;
            }
        }
        row.label = row.rank >= 0 ? "rank " + std::to_string(row.rank) : name;
        if (runsOfFile[row.file] > 1)
            row.label += " \u00b7 " + row.runName;
    }
    // A rank two files claim: both are kept, each named with its file.
    std::map<int, std::vector<RankSummary*>> byRank;
    for (RankSummary& row : folder.ranks)
        if (row.rank >= 0)
            byRank[row.rank].push_back(&row);
    for (auto& [rank, rows] : byRank) {
        std::vector<std::size_t> files;
        for (const RankSummary* row : rows)
            if (std::find(files.begin(), files.end(), row->file) == files.end())
                files.push_back(row->file);
        if (files.size() < 2)
            continue;
        std::string names;
        for (std::size_t f : files)
            names += (names.empty() ? "" : ", ") + nameOf(folder.files[f].path);
        folder.notes.push_back("rank " + std::to_string(rank) + " is given by " + std::to_string(files.size())
                               + " files (" + names + "): each is shown, named with its file");
        for (RankSummary* row : rows)
            row->label += " (" + nameOf(folder.files[row->file].path) + ")";
    }
    std::stable_sort(folder.ranks.begin(), folder.ranks.end(), [](const RankSummary& x, const RankSummary& y) {
        return std::tuple(x.rank < 0, x.rank, x.label) < std::tuple(y.rank < 0, y.rank, y.label);
    });
}

} // namespace

RankFileSummary summarizeRankFile(const std::string& path, const RankReadOptions& options, std::size_t index)
{
    RankFileSummary summary;
    summary.file.path = path;
    try {
        if (isRankSummaryFile(path)) {
            std::string error;
            if (auto read = loadRankSummary(path, options.maxBytes, &error))
                summary = std::move(*read);
            else
                summary.file.error = error;
        } else {
            readRank(index, options, summary.file, summary.rows);
        }
    } catch (const std::bad_alloc&) {
        summary.rows.clear();
        summary.file.trace.reset();
        summary.file.error = path + ": not enough memory to read it";
    } catch (const std::exception& e) {
        summary.rows.clear();
        summary.file.trace.reset();
        summary.file.error = path + ": " + e.what();
    }
    return summary;
}

RankFolder mergeRankSummaries(std::vector<RankFileSummary> files)
{
    RankFolder folder;
    folder.files.reserve(files.size());
    std::vector<std::size_t> runsOfFile(files.size(), 0);
    for (std::size_t i = 0; i < files.size(); ++i) {
        runsOfFile[i] = files[i].rows.size();
        for (RankSummary& row : files[i].rows) {
            row.file = i;
            folder.ranks.push_back(std::move(row));
        }
        folder.files.push_back(std::move(files[i].file));
    }
    label(folder, runsOfFile);
    folder.alignment = alignRanks(folder.ranks);
    folder.straggler = findStraggler(folder.ranks);
    return folder;
}

RankFolder readRanks(const std::vector<std::string>& paths, const RankReadOptions& options)
{
    std::vector<RankFileSummary> summaries(paths.size());
    std::atomic<std::size_t> next{0};
    std::size_t done = 0;
    std::mutex progress;
    const auto work = [&] {
        for (std::size_t i = next++; i < paths.size(); i = next++) {
            if (options.cancelled && options.cancelled()) {
                summaries[i].file.path = paths[i];
                summaries[i].file.error = paths[i] + ": cancelled";
            } else {
                summaries[i] = summarizeRankFile(paths[i], options, i);
            }
            const std::lock_guard lock(progress);
            ++done;
            if (options.onRead)
                options.onRead(done, paths.size(), summaries[i].file);
        }
    };
    const unsigned threads = static_cast<unsigned>(std::min<std::size_t>(std::max(1u, options.threads), paths.size()));
    std::vector<std::thread> helpers;
    for (unsigned t = 1; t < threads; ++t)
        helpers.emplace_back(work);
    work();
    for (std::thread& t : helpers)
        t.join();
    return mergeRankSummaries(std::move(summaries));
}

std::optional<RankFolder> ranksOfTrace(const Trace& trace, const std::vector<RunAnalysis>& analyses,
                                       const std::string& path)
{
    RankFolder folder;
    folder.files.resize(1);
    folder.files[0].path = path;
    for (std::size_t r = 0; r < trace.runs.size() && r < analyses.size(); ++r)
        if (trace.runs[r].rank >= 0)
            folder.ranks.push_back(summarizeRank(trace.runs[r], analyses[r]));
    if (folder.ranks.size() < 2)
        return std::nullopt;
    // Each run is its own rank: labelled "rank N" alone, as a folder's are.
    label(folder, {1});
    folder.alignment = alignRanks(folder.ranks);
    folder.straggler = findStraggler(folder.ranks);
    return folder;
}

} // namespace ovs
