#include "CancelledOutput.h"

#include <algorithm>

#include <sys/stat.h>

namespace ovs::cli {

bool leavesOutputAsItWas(const Trace& trace, bool cancelled, const std::string& path)
{
    if (!cancelled)
        return false;
    const auto finished = [](const auto& job) { return job.status != RunStatus::Cancelled; };
    if (std::any_of(trace.runs.begin(), trace.runs.end(), finished)
        || std::any_of(trace.sweeps.begin(), trace.sweeps.end(), finished))
        return false;
    // A terminal or a pipe (-o /dev/stdout) keeps nothing: it gets the trace.
    struct stat info {};
    return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

} // namespace ovs::cli
