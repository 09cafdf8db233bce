// overlapscope._overlapscope: the core's documented entry points for Python.
// Each call reads and judges through the same functions as the CLI
// (loadTrace, analyzeTrace, diffTraces, the rank summaries) and hands back
// the same JSON documents the CLI prints (analysisJson, traceDiffJson,
// ranksJson, rankSummaryJson), which the pure-Python package
// (overlapscope/*.py) parses into objects: nothing is judged twice, and
// Analysis.to_dict() is `analyze --json` by construction.
//
// The GIL is released while the core reads and judges, so other Python
// threads run meanwhile. Errors come back as Python exceptions: OSError
// (FileNotFoundError, ...) where a file cannot be opened, TraceError with
// loadTrace's line where it opens but is no trace, ValueError for a bad
// option; C++ exceptions never cross into the interpreter unhandled.

#include "json/AnalysisJson.h"
#include "analysis/RunAnalysis.h"
#include "analysis/TraceDiff.h"
#include "json/TraceDiffJson.h"
#include "judgement/TransferRates.h"
#include "formats/TraceJson.h"
#include "ranks/RankFolder.h"
#include "ranks/RankSummaryJson.h"
#include "ranks/RanksJson.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace py = pybind11;
using namespace ovs;

namespace {

// A file that is there but is no trace (or a broken one): TraceError.
class TraceFailure : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A file that cannot be opened: OSError with its errno, which Python turns
// into FileNotFoundError, PermissionError, IsADirectoryError, ...
struct FileFailure {
    int error = 0;
    std::string path;
};

// Where the CLI would say "cannot open", Python programs expect OSError:
// the path is checked as open(2) would see it before the core reads it.
void checkOpenable(const std::string& path, bool folder = false)
{
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0)
        throw FileFailure{errno, path};
    if (!folder && S_ISDIR(info.st_mode))
        throw FileFailure{EISDIR, path};
    if (folder && !S_ISDIR(info.st_mode))
        throw FileFailure{ENOTDIR, path};
    if (::access(path.c_str(), R_OK) != 0)
        throw FileFailure{errno, path};
}

std::uint64_t maxBytes(long long maxTraceMib)
{
    if (maxTraceMib < 1 || static_cast<std::uint64_t>(maxTraceMib) > (kMaxTraceBytesCeiling >> 20))
        throw std::invalid_argument("max_trace_mib must be from 1 to "
                                    + std::to_string(kMaxTraceBytesCeiling >> 20));
    return static_cast<std::uint64_t>(maxTraceMib) << 20;
}

// region and pinned_rate as the CLI's --region and --pinned-rate take them.
AnalysisOptions analysisOptions(const std::string& region, const std::string& pinnedRate)
{
    AnalysisOptions options;
    options.region = region;
    if (!pinnedRate.empty()) {
        std::string error;
        const auto given = parsePinnedRates(pinnedRate, &error);
        if (!given)
            throw std::invalid_argument("pinned_rate '" + pinnedRate + "': " + error);
        options.pinnedRates = *given;
    }
    return options;
}

Trace readTrace(const std::string& path, std::uint64_t limit, std::vector<std::string>* notes)
{
    checkOpenable(path);
    TraceLoadResult loaded = loadTrace(path, limit);
    if (!loaded.trace)
        throw TraceFailure(loaded.error); // it names the file once, as the CLI prints it
    if (notes && !loaded.note.empty())
        notes->push_back(std::move(loaded.note));
    return std::move(*loaded.trace);
}

// `analyze --json PATH`: the document, and what the import and the
// analysis noted (the CLI's stderr lines).
py::tuple analyzeJson(const std::string& path, const std::string& region, const std::string& pinnedRate,
                      long long maxTraceMib)
{
    std::string json;
    std::vector<std::string> notes;
    {
        py::gil_scoped_release release;
        const AnalysisOptions options = analysisOptions(region, pinnedRate);
        const Trace trace = readTrace(path, maxBytes(maxTraceMib), &notes);
        json = analysisJson(trace, analyzeTrace(trace, options, &notes));
    }
    return py::make_tuple(py::bytes(json), notes);
}

// `diff --json BEFORE AFTER`, its runs paired by name, or the two runs
// chosen as `--run A --run B` chooses them (a name, or a position from 1).
py::bytes diffJson(const std::string& before, const std::string& after, const std::string& region,
                   const std::string& pinnedRate, long long maxTraceMib, const std::string& beforeRun,
                   const std::string& afterRun)
{
    std::string json;
    {
        py::gil_scoped_release release;
        const AnalysisOptions options = analysisOptions(region, pinnedRate);
        if (beforeRun.empty() != afterRun.empty())
            throw std::invalid_argument("runs: give both runs (before's, after's) or neither");
        const Trace beforeTrace = readTrace(before, maxBytes(maxTraceMib), nullptr);
        const Trace afterTrace = readTrace(after, maxBytes(maxTraceMib), nullptr);
        RunMatching matching;
        if (!beforeRun.empty()) {
            std::string why;
            const auto b = selectRun(beforeTrace, beforeRun, &why);
            if (!b)
                throw std::invalid_argument("run '" + beforeRun + "' of " + before + ": " + why);
            const auto a = selectRun(afterTrace, afterRun, &why);
            if (!a)
                throw std::invalid_argument("run '" + afterRun + "' of " + after + ": " + why);
            matching.pairs.push_back({*b, *a, "chosen"});
        } else {
            matching = matchRuns(beforeTrace, afterTrace);
        }
        if (matching.pairs.empty())
            throw std::invalid_argument("no run of the two traces pairs by name (" + before + ": "
                                        + std::to_string(beforeTrace.runs.size()) + " runs; " + after + ": "
                                        + std::to_string(afterTrace.runs.size()) + " runs)");
        json = traceDiffJson(diffTraces(beforeTrace, afterTrace, matching, options), before, after);
    }
    return py::bytes(json);
}

// One file's rank summary, as `analyze --rank-summary` writes it. A file
// that cannot be read is not an exception here: its summary says why, and
// the merge lists it as skipped, as `analyze DIR` does.
py::bytes rankSummaryJsonOf(const std::string& path, const std::string& region, const std::string& pinnedRate,
                            long long maxTraceMib)
{
    std::string json;
    {
        py::gil_scoped_release release;
        RankReadOptions options;
        options.maxBytes = maxBytes(maxTraceMib);
        options.analysis = analysisOptions(region, pinnedRate);
        json = rankSummaryJson(summarizeRankFile(path, options));
    }
    return py::bytes(json);
}

RankFolder checkedFolder(RankFolder folder)
{
    if (folder.ranks.empty())
        throw TraceFailure("none of the " + std::to_string(folder.files.size())
                           + " files could be read as a trace");
    return folder;
}

// Summaries (rankSummaryJsonOf's texts) merged into `analyze --json DIR`'s
// document.
py::bytes mergeSummaries(const std::vector<std::string>& summaries)
{
    std::string json;
    {
        py::gil_scoped_release release;
        std::vector<RankFileSummary> files;
        files.reserve(summaries.size());
        for (std::size_t i = 0; i < summaries.size(); ++i) {
            std::string error;
            auto summary = rankSummaryFromJson(summaries[i], &error);
            if (!summary)
                throw TraceFailure("rank summary " + std::to_string(i + 1) + ": " + error);
            files.push_back(std::move(*summary));
        }
        json = ranksJson(checkedFolder(ovs::mergeRankSummaries(std::move(files))));
    }
    return py::bytes(json);
}

// `analyze --json DIR` (or several files) in this process, on `threads`
// threads: the core's own folder read.
py::bytes ranksJsonOf(const std::vector<std::string>& paths, unsigned threads, const std::string& region,
                      const std::string& pinnedRate, long long maxTraceMib)
{
    std::string json;
    {
        py::gil_scoped_release release;
        RankReadOptions options;
        options.maxBytes = maxBytes(maxTraceMib);
        options.analysis = analysisOptions(region, pinnedRate);
        options.threads = threads;
        json = ranksJson(checkedFolder(readRanks(paths, options)));
    }
    return py::bytes(json);
}

// The files of a folder that `analyze DIR` reads, in its order.
std::vector<std::string> filesOfFolder(const std::string& folder)
{
    checkOpenable(folder, true);
    std::string error;
    std::vector<std::string> paths = ovs::rankFilesIn(folder, &error);
    if (paths.empty())
        throw TraceFailure(error);
    return paths;
}

} // namespace

PYBIND11_MODULE(_overlapscope, m)
{
    m.doc() = "OverlapScope's core (C++): trace reading, analysis, rank summaries. Use the overlapscope package.";
    m.attr("__version__") = OVERLAPSCOPE_VERSION;
    m.attr("DEFAULT_MAX_TRACE_MIB") = static_cast<long long>(kDefaultMaxTraceBytes >> 20);
    // ValueError's kind: the file's content is wrong, not the system.
    py::register_exception<TraceFailure>(m, "TraceError", PyExc_ValueError);
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p)
                std::rethrow_exception(p);
        } catch (const FileFailure& e) {
            // OSError(errno, strerror, filename) becomes the errno's subclass.
            py::object error = py::module_::import("builtins").attr("OSError")(e.error, std::strerror(e.error), e.path);
            PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(error.ptr())), error.ptr());
        }
    });

    m.def("analyze_json", &analyzeJson, py::arg("path"), py::arg("region") = "", py::arg("pinned_rate") = "",
          py::arg("max_trace_mib") = static_cast<long long>(kDefaultMaxTraceBytes >> 20),
          "`analyze --json PATH`: (document as UTF-8 bytes, notes)");
    m.def("diff_json", &diffJson, py::arg("before"), py::arg("after"), py::arg("region") = "",
          py::arg("pinned_rate") = "", py::arg("max_trace_mib") = static_cast<long long>(kDefaultMaxTraceBytes >> 20),
          py::arg("before_run") = "", py::arg("after_run") = "",
          "`diff --json BEFORE AFTER [--run A --run B]`: the document as UTF-8 bytes");
    m.def("rank_summary_json", &rankSummaryJsonOf, py::arg("path"), py::arg("region") = "",
          py::arg("pinned_rate") = "", py::arg("max_trace_mib") = static_cast<long long>(kDefaultMaxTraceBytes >> 20),
          "`analyze --rank-summary PATH`: one file's rank summary as UTF-8 bytes");
    m.def("merge_rank_summaries", &mergeSummaries, py::arg("summaries"),
          "rank summaries merged: `analyze --json DIR`'s document as UTF-8 bytes");
    m.def("ranks_json", &ranksJsonOf, py::arg("paths"), py::arg("threads") = 2u, py::arg("region") = "",
          py::arg("pinned_rate") = "", py::arg("max_trace_mib") = static_cast<long long>(kDefaultMaxTraceBytes >> 20),
          "`analyze --json A B ...` in this process: the ranks document as UTF-8 bytes");
    m.def("rank_files_in", &filesOfFolder, py::arg("folder"), "the files `analyze DIR` reads, in its order");
}
