#include "profile/ProfileRun.h"

#include "profile/ProfileRecord.h"
#include "profile/ProfileSession.h"
#include "profile/RecordFolder.h"

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <thread>

namespace ovs::profile {
namespace {

constexpr const char* kInjectionName = "liboverlapscope-inject.so";

std::int64_t steadyNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

ProfileFailure failureOf(LaunchProblem problem)
{
    switch (problem) {
    case LaunchProblem::NotFound: return ProfileFailure::NotFound;
    case LaunchProblem::NotExecutable: return ProfileFailure::NotExecutable;
    default: return ProfileFailure::CannotStart;
    }
}

const char* signalName(int stopIndex)
{
    return stopIndex == 0 ? "SIGINT" : stopIndex == 1 ? "SIGTERM" : "SIGKILL";
}

// What the program's environment gets on top of ours: the injection
// library for CUDA and for NVTX, the folder it records into, and the
// user's entries. Theirs may not turn the recording off: ours replace them.
std::vector<std::string> programEnvironment(const std::string& injection, const std::string& folder,
                                            const std::vector<std::string>& given)
{
    // NVTX's own hook loads the same library for the program's NVTX ranges.
    std::vector<std::string> environment{"CUDA_INJECTION64_PATH=" + injection,
                                         std::string(kNvtxInjectionVariable) + "=" + injection,
                                         std::string(kOutputDirVariable) + "=" + folder};
    for (const std::string& entry : given) {
        const std::string name = entry.substr(0, entry.find('='));
        if (name != "CUDA_INJECTION64_PATH" && name != kNvtxInjectionVariable && name != kOutputDirVariable)
            environment.push_back(entry);
    }
    return environment;
}

} // namespace

std::string executableFolder()
{
    std::error_code ec;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string() : self.parent_path().string();
}

std::string joinCommandLine(const std::vector<std::string>& argv)
{
    std::string text;
    for (const std::string& a : argv)
        text += (text.empty() ? "" : " ") + a;
    return text;
}

std::string findInjectionLibrary(const std::string& given, const std::vector<std::string>& searchFolders,
                                 std::string* why)
{
    std::vector<std::string> candidates;
    if (!given.empty()) {
        candidates.push_back(given);
    } else if (const char* env = std::getenv("OVERLAPSCOPE_INJECT_LIBRARY"); env && *env) {
        candidates.push_back(env);
    } else {
        for (const std::string& folder : searchFolders)
            if (!folder.empty())
                candidates.push_back(folder + "/" + kInjectionName);
    }
    std::string tried;
    for (const std::string& c : candidates) {
        std::error_code ec;
        const auto path = std::filesystem::canonical(c, ec);
        if (!ec && std::filesystem::is_regular_file(path, ec))
            return path.string();
        tried += (tried.empty() ? "" : ", ") + c;
    }
    *why = "the injection library " + std::string(kInjectionName) + " was not found (looked at "
           + (tried.empty() ? std::string("nothing") : tried)
           + "); it is built with the CUDA toolkit's CUPTI headers";
    return {};
}

ProfileOutcome runProfile(const ProfileRequest& request, ProfileSink* sink, const ProfileStop& stop,
                          ProfileObserver* observer, const std::function<void(const std::string&)>& beforeLaunch)
{
    ProfileObserver quiet;
    ProfileObserver& observe = observer ? *observer : quiet;
    ProfileOutcome outcome;
    outcome.commandLine = joinCommandLine(request.program);
    const auto fail = [&](ProfileFailure failure, std::string why) {
        outcome.failure = failure;
        outcome.problem = std::move(why);
        return outcome;
    };

    if (request.program.empty() || request.program.front().empty())
        return fail(ProfileFailure::NotFound, "no program given");
    // Absolute, so that the program's path below means the same before and
    // after the launcher changes into it.
    std::string workingDirectory;
    if (!request.workingDirectory.empty()) {
        std::error_code ec;
        if (!std::filesystem::is_directory(request.workingDirectory, ec))
            return fail(ProfileFailure::CannotStart,
                        "the working folder " + request.workingDirectory + " does not exist or is not a folder");
        workingDirectory = std::filesystem::absolute(request.workingDirectory, ec).string();
        if (ec)
            return fail(ProfileFailure::CannotStart, "the working folder " + request.workingDirectory + ": "
                                                         + ec.message());
    }
    // A relative path to the program counts from the folder it runs in, as
    // after `cd FOLDER` in a shell (the launcher changes folder before exec).
    std::string typed = request.program.front();
    if (!workingDirectory.empty() && typed.find('/') != std::string::npos && typed.front() != '/')
        typed = (std::filesystem::path(workingDirectory) / typed).string();
    LaunchProblem problem = LaunchProblem::None;
    std::string why;
    outcome.program = ProgramLauncher::resolve(typed, &problem, &why);
    if (outcome.program.empty())
        return fail(failureOf(problem), why);
    if (beforeLaunch)
        beforeLaunch(outcome.program);
    const std::string injection =
        findInjectionLibrary(request.injectionLibrary, request.injectionSearchFolders, &why);
    if (injection.empty())
        return fail(ProfileFailure::NoInjection, why);
    for (const char* variable : {"CUDA_INJECTION64_PATH", kNvtxInjectionVariable})
        if (const char* other = std::getenv(variable); other && *other && injection != other)
            observe.notice("replacing " + std::string(variable) + "=" + std::string(other)
                           + " (another tool's) for the program");

    std::unique_ptr<RecordFolder> folder;
    try {
        folder = std::make_unique<RecordFolder>(request.recordsDirectory);
    } catch (const std::runtime_error& e) {
        return fail(ProfileFailure::CannotStart, e.what());
    }

    const std::int64_t zero = steadyNs();
    ProfileSession session(folder->path(), zero, sink);
    ProgramLauncher launcher;
    std::vector<std::string> argv = request.program;
    argv.front() = outcome.program;
    const std::vector<std::string> environment = programEnvironment(injection, folder->path(), request.environment);
    if (!launcher.start(argv, environment, &problem, &why, workingDirectory))
        return fail(failureOf(problem), why);
    observe.launched(launcher.pid());

    int handledStops = 0;
    while (!launcher.poll()) {
        for (const int stops = stop.requests(); handledStops < stops; ++handledStops) {
            launcher.requestStop(handledStops == 0 && stop.fromTerminal());
            observe.stopping(signalName(handledStops));
        }
        launcher.escalateAfter(request.stopGrace);
        session.poll();
        observe.progress({steadyNs() - zero, session.processes(), session.gpuOps(), session.apiCalls()});
        std::this_thread::sleep_for(request.pollPeriod);
    }

    outcome.status = launcher.status();
    observe.programEnded(outcome.status);
    ProgramEnding ending;
    ending.pid = static_cast<std::uint32_t>(launcher.pid());
    ending.exitStatus = outcome.status.text();
    ending.exitedCleanly = outcome.status.exited && outcome.status.code == 0;
    // A stop request that arrived as the program was ending (it got the
    // signal too) still makes the runs "cancelled".
    ending.cancelled = launcher.stopRequested() || stop.requests() > 0;
    ending.commandLine = outcome.commandLine;
    ending.endedNs = steadyNs() - zero;
    outcome.cancelled = ending.cancelled;
    outcome.endedNs = ending.endedNs;
    outcome.runs = session.finish(ending);
    return outcome;
}

} // namespace ovs::profile
