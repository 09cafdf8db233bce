#pragma once

#include "profile/ProcessRunBuilder.h"
#include "profile/ProfileSink.h"
#include "profile/ProfileStreamDecoder.h"
#include "trace/Run.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ovs::profile {

// How the profiled program ended, for the session's runs.
struct ProgramEnding {
    std::uint32_t pid = 0;          // the program profile launched
    std::string exitStatus;         // "exit status 0", "killed by signal 9 (Killed)"
    bool exitedCleanly = false;
    bool cancelled = false;
    std::string commandLine;        // for the run made when no process recorded anything
    std::int64_t endedNs = 0;       // on the profile's time base
};

// Reads the record streams of a profile's processes (one file each, in one
// directory, as the injection library writes them) while they grow, and
// turns each into a run. Qt-free; the CLI polls it while the program runs,
// the window can do the same on a worker thread.
class ProfileSession {
public:
    // `zeroNs`: steady_clock ns at the program's launch, time 0 of every run.
    ProfileSession(std::string directory, std::int64_t zeroNs, ProfileSink* sink = nullptr);
    ~ProfileSession();
    ProfileSession(const ProfileSession&) = delete;
    ProfileSession& operator=(const ProfileSession&) = delete;

    // Reads what the processes wrote since the last call, and hands new
    // runs, lanes and ops to the sink. Returns the bytes read.
    std::size_t poll();
    // After the program ended: reads the rest and finishes every run, in the
    // order the processes appeared. With no stream at all (the program never
    // initialized CUDA) it makes one run saying so.
    std::vector<Run> finish(const ProgramEnding& ending);

    int processes() const { return static_cast<int>(m_streams.size()); }
    std::uint64_t gpuOps() const;
    std::uint64_t apiCalls() const;

private:
    struct Stream;

    void discover();
    std::size_t read(Stream& stream);
    void forward(int index, Stream& stream);

    std::string m_directory;
    std::int64_t m_zeroNs;
    ProfileSink* m_sink;
    std::vector<std::unique_ptr<Stream>> m_streams;
};

} // namespace ovs::profile
