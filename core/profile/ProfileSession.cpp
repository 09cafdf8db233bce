#include "profile/ProfileSession.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace ovs::profile {

struct ProfileSession::Stream {
    std::string name;
    int fd = -1;
    ProfileStreamDecoder decoder;
    ProcessRunBuilder builder;
    std::string readError;
    bool announced = false;

    Stream(std::string n, int f, std::int64_t zeroNs) : name(std::move(n)), fd(f), builder(zeroNs) {}
};

ProfileSession::ProfileSession(std::string directory, std::int64_t zeroNs, ProfileSink* sink)
    : m_directory(std::move(directory)), m_zeroNs(zeroNs), m_sink(sink)
{
}

ProfileSession::~ProfileSession()
{
    for (const auto& stream : m_streams)
        if (stream->fd >= 0)
            ::close(stream->fd);
}

void ProfileSession::discover()
{
    DIR* dir = ::opendir(m_directory.c_str());
    if (!dir)
        return;
    std::vector<std::string> found;
    while (const dirent* entry = ::readdir(dir)) {
        const std::string name = entry->d_name;
        if (!name.ends_with(kStreamSuffix))
            continue;
        const bool known = std::any_of(m_streams.begin(), m_streams.end(),
                                       [&](const auto& s) { return s->name == name; });
        if (!known)
            found.push_back(name);
    }
    ::closedir(dir);
    // Directory order is arbitrary; the runs of streams found in one poll
    // follow their names (pid first) instead.
    std::sort(found.begin(), found.end());
    for (const std::string& name : found) {
        const int fd = ::open((m_directory + "/" + name).c_str(), O_RDONLY | O_CLOEXEC);
        if (fd >= 0)
            m_streams.push_back(std::make_unique<Stream>(name, fd, m_zeroNs));
    }
}

std::size_t ProfileSession::read(Stream& stream)
{
    if (stream.fd < 0)
        return 0;
    std::size_t total = 0;
    char chunk[1 << 16];
    for (;;) {
        const ssize_t n = ::read(stream.fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            stream.readError = std::string("cannot read the record stream: ") + std::strerror(errno);
            ::close(stream.fd);
            stream.fd = -1;
            break;
        }
        if (n == 0) // the end of what was written so far
            break;
        stream.decoder.feed(chunk, static_cast<std::size_t>(n));
        total += static_cast<std::size_t>(n);
        DecodedRecord record;
        while (stream.decoder.next(record))
            stream.builder.add(record);
    }
    return total;
}

void ProfileSession::forward(int index, Stream& stream)
{
    if (!m_sink || !stream.builder.begun())
        return;
    if (!stream.announced) {
        Run header = stream.builder.live();
        header.lanes.clear();
        header.ops.clear();
        m_sink->runStarted(index, header);
        stream.announced = true;
    }
    for (const auto& [laneIndex, lane] : stream.builder.takeNewLanes())
        m_sink->laneAdded(index, lane, laneIndex);
    const std::vector<Op> ops = stream.builder.takeNewOps();
    if (!ops.empty())
        m_sink->opsCompleted(index, ops, stream.builder.live().names);
}

std::size_t ProfileSession::poll()
{
    discover();
    std::size_t total = 0;
    for (std::size_t i = 0; i < m_streams.size(); ++i) {
        total += read(*m_streams[i]);
        forward(static_cast<int>(i), *m_streams[i]);
    }
    return total;
}

std::vector<Run> ProfileSession::finish(const ProgramEnding& ending)
{
    poll();
    std::vector<Run> runs;
    for (std::size_t i = 0; i < m_streams.size(); ++i) {
        Stream& stream = *m_streams[i];
        std::string problem = stream.readError;
        if (!stream.decoder.error().empty())
            problem = stream.decoder.error();
        else if (stream.decoder.pendingBytes() > 0)
            problem = "the stream ends inside a record (" + std::to_string(stream.decoder.pendingBytes())
                      + " bytes cut off)";
        ProcessEnding processEnding;
        processEnding.cancelled = ending.cancelled;
        if (stream.builder.pid() == ending.pid) {
            processEnding.exitStatus = ending.exitStatus;
            processEnding.exitedCleanly = ending.exitedCleanly;
        }
        if (!stream.builder.begun())
            problem = problem.empty() ? "the stream has no begin record" : problem;
        runs.push_back(stream.builder.finish(processEnding, problem));
        // Every process of a session is timed from one zero on the host's
        // monotonic clock: the ranks of a job profiled together share it.
        runs.back().sharedClockOriginNs = m_zeroNs;
        if (m_sink)
            m_sink->runFinished(static_cast<int>(i), runs.back());
    }
    if (runs.empty()) {
        Run run;
        run.name = ending.commandLine;
        run.pipeline = "profile";
        run.timing = "cupti";
        run.status = ending.cancelled ? RunStatus::Cancelled : RunStatus::Completed;
        run.error = "no GPU ops: no process of the program initialized CUDA (or one replaced "
                    "CUDA_INJECTION64_PATH, as another profiler does)";
        if (!ending.exitStatus.empty() && !ending.exitedCleanly)
            run.error += "; " + ending.exitStatus;
        run.verification.message = "not verified: a profiled program checks its own results";
        run.timedEndNs = std::max<std::int64_t>(0, ending.endedNs);
        runs.push_back(run);
        if (m_sink) {
            m_sink->runStarted(0, run);
            m_sink->runFinished(0, run);
        }
    }
    return runs;
}

std::uint64_t ProfileSession::gpuOps() const
{
    std::uint64_t n = 0;
    for (const auto& s : m_streams)
        n += s->builder.gpuOps();
    return n;
}

std::uint64_t ProfileSession::apiCalls() const
{
    std::uint64_t n = 0;
    for (const auto& s : m_streams)
        n += s->builder.apiCalls();
    return n;
}

} // namespace ovs::profile
