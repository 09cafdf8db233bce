// libFuzzer target: an Nsight Systems report (SQLite export) read as the
// product reads one, through loadTrace and so the one SqliteDatabase every
// path opens reports with: the bytes are written to a file, which is
// loaded. Every input must give a trace or a one-line message, within the
// fuzzer's time and memory limits (a report is data: nothing in it may run
// without end or grow without bound); a trace must save as a native trace
// that loads. Built and run by scripts/fuzz.sh, on the seeds that
// scripts/make-nsight-fuzz-corpus.py makes.
#include "formats/TraceJson.h"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

// One file per fuzzing process, rewritten for each input: SQLite reads a
// database from a file, as the product does.
const std::string& reportPath()
{
    static const std::string path = [] {
        std::string name = "/tmp/fuzz_nsight_report-XXXXXX";
        const int fd = mkstemp(name.data());
        if (fd < 0)
            std::abort();
        close(fd);
        return name;
    }();
    return path;
}

void removeReport()
{
    unlink(reportPath().c_str());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const bool removedAtExit = std::atexit(removeReport) == 0;
    (void)removedAtExit;
    const std::string& path = reportPath();
    FILE* file = std::fopen(path.c_str(), "wb");
    if (!file || std::fwrite(data, 1, size, file) != size || std::fclose(file) != 0)
        std::abort();
    const ovs::TraceLoadResult loaded = ovs::loadTrace(path);
    if (loaded.trace.has_value() == !loaded.error.empty())
        std::abort(); // exactly one of a trace and an error
    if (!loaded.error.empty() && (loaded.error.find('\n') != std::string::npos || loaded.error.size() > 1200))
        std::abort(); // one line (300 characters, at most 4 bytes each)
    if (loaded.trace && !ovs::traceFromJson(ovs::traceToJson(*loaded.trace)).trace)
        std::abort(); // an import is a valid native trace
    return 0;
}
