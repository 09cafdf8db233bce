// overlapscope-reader-bench: how fast the Chrome / PyTorch (Kineto) reader
// reads a large trace and what memory it takes; then, as `analyze` does,
// the analysis (findings and what-if replay) of what it read. Prints a
// table row per file (docs/timeline-performance.md). No Qt.
//
//   overlapscope-reader-bench [--whole] [--window-mib N] [--no-analyze] FILE...
//
// Peak memory is the process's (VmHWM): give one file per run for a peak
// of its own.

#include "analysis/RunAnalysis.h"
#ifdef OVERLAPSCOPE_JEMALLOC_LINKED
#include "HugePages.h"
#endif
#include "formats/ChromeTraceImport.h"
#include "formats/TraceFile.h"
#include "io/JsonReader.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <sys/stat.h>

using namespace ovs;

namespace {

// A /proc/self/status field in kB ("VmHWM", "VmRSS").
long statusKb(const char* field)
{
    std::ifstream status("/proc/self/status");
    std::string line;
    const std::string prefix = std::string(field) + ":";
    while (std::getline(status, line))
        if (line.rfind(prefix, 0) == 0)
            return std::atol(line.c_str() + prefix.size());
    return 0;
}

double cpuSeconds()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
           + static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

struct Clock {
    std::chrono::steady_clock::time_point wall = std::chrono::steady_clock::now();
    double cpu = cpuSeconds();
    double wallSince() const
    {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count();
    }
    double cpuSince() const { return cpuSeconds() - cpu; }
};

// The reader as before windows: the whole text, then its index, at once.
std::optional<ChromeTraceImport> readWhole(const std::string& path)
{
    TraceFile file = TraceFile::read(path, kMaxTraceBytesCeiling);
    if (!file.text) {
        std::fprintf(stderr, "%s: %s\n", path.c_str(), file.error.c_str());
        return std::nullopt;
    }
    try {
        JsonReader json(std::string_view(file.text->data(), file.text->size()));
        return ChromeTraceImport::read(json);
    } catch (const JsonReadError& e) {
        std::fprintf(stderr, "%s: %s\n", path.c_str(), e.message.c_str());
        return std::nullopt;
    }
}

} // namespace

int main(int argc, char** argv)
{
    bool whole = false;
    bool analyze = true;
    std::size_t window = ChromeTraceImport::kWindowBytes;
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--whole")
            whole = true;
        else if (arg == "--no-analyze")
            analyze = false;
        else if (arg == "--window-mib" && i + 1 < argc)
            window = std::size_t(std::strtoul(argv[++i], nullptr, 10)) << 20;
        else if (arg.rfind("--", 0) == 0) {
            std::fprintf(stderr, "usage: overlapscope-reader-bench [--whole] [--window-mib N] [--no-analyze] FILE...\n");
            return 2;
        } else
            files.push_back(arg);
    }
    if (files.empty()) {
        std::fprintf(stderr, "usage: overlapscope-reader-bench [--whole] [--window-mib N] [--no-analyze] FILE...\n");
        return 2;
    }
#ifdef OVERLAPSCOPE_JEMALLOC_LINKED
    std::printf("allocator: jemalloc, %s, %s (app/allocator/MallocConf.cpp)\n\n", OVERLAPSCOPE_MALLOC_CONF,
                ovs::hugePagesInWords());
#else
    std::printf("allocator: the system's malloc\n\n");
#endif
    std::printf("| file MB | reader | events | ops | regions | read s (CPU s) | MB/s (per CPU s) | peak RSS MB | peak bytes/event "
                "| analyze s (CPU s) |\n|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const std::string& path : files) {
        struct stat info {};
        if (stat(path.c_str(), &info) != 0) {
            std::fprintf(stderr, "%s: cannot open\n", path.c_str());
            return 1;
        }
        const double mb = static_cast<double>(info.st_size) / 1e6;
        const long before = statusKb("VmRSS");
        const Clock read;
        std::optional<ChromeTraceImport> imported =
            whole ? readWhole(path) : ChromeTraceImport::readFile(path, kMaxTraceBytesCeiling, window);
        const double readWall = read.wallSince(), readCpu = read.cpuSince();
        if (!imported) {
            std::fprintf(stderr, "%s: not read%s\n", path.c_str(),
                         whole ? "" : " in windows (not a Chrome trace, an error, or it fits one window)");
            return 1;
        }
        const long peak = statusKb("VmHWM");
        std::size_t ops = 0, regions = 0;
        for (const Run& run : imported->trace.runs) {
            ops += run.ops.size();
            regions += run.regions.size();
        }
        std::string analyzed = "-";
        if (analyze) {
            const Clock clock;
            const std::vector<RunAnalysis> all = analyzeTrace(imported->trace);
            char text[64];
            std::snprintf(text, sizeof text, "%.2f (%.2f)", clock.wallSince(), clock.cpuSince());
            analyzed = text;
        }
        const double events = static_cast<double>(std::max<std::size_t>(imported->events, 1));
        std::printf("| %.1f | %s | %zu | %zu | %zu | %.2f (%.2f) | %.0f (%.0f) | %.0f | %.0f | %s |\n", mb,
                    whole ? "whole" : "windows", imported->events, ops, regions, readWall, readCpu, mb / readWall,
                    mb / std::max(readCpu, 1e-9),
                    static_cast<double>(peak) / 1024.0, static_cast<double>(peak - before) * 1024.0 / events,
                    analyzed.c_str());
        std::fflush(stdout);
    }
    return 0;
}
