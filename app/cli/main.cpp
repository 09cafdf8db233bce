// overlapscope-cli: records copy/compute overlap on a CUDA GPU or the
// simulated device, without Qt, for headless GPU servers. This file reads the
// command word and turns what the commands throw into exit statuses; each
// command lives in its own file (Commands.h).

#include "CliCommon.h"
#include "Commands.h"
#include "ExitStatus.h"
#include "ProfileCommand.h"

#include "base/Printable.h"
#include "device/Device.h"

#include <csignal>
#include <cstdio>
#include <new>
#include <string>
#include <vector>

using namespace ovs;
using namespace ovs::cli;

namespace {

// The first Ctrl-C cancels the job in flight: it drains the device, and what
// was recorded is reported and written. A second one ends the program at once.
CancelFlag* g_cancel = nullptr;
extern "C" void onInterrupt(int)
{
    if (g_cancel)
        g_cancel->cancel();
    std::signal(SIGINT, SIG_DFL);
}

} // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> rest(argv + 1, argv + argc);
    if (rest.empty()) {
        std::fputs(usage().c_str(), stderr);
        return cli::kExitUsage;
    }
    const std::string command = rest.front();
    if (command == "--help" || command == "-h" || command == "help") {
        std::fputs(usage().c_str(), stdout);
        return cli::kExitOk;
    }
    if (command == "--version") {
        std::printf("overlapscope-cli %s\n", OVERLAPSCOPE_VERSION);
        return 0;
    }
    rest.erase(rest.begin());
    if (command == "profile") // its own arguments: everything after the program is the program's
        return cli::commandProfile(rest);

    CancelFlag cancel;
    g_cancel = &cancel;
    std::signal(SIGINT, onInterrupt);
    try {
        if (command == "diff")
            return commandDiff(rest, cancel);
        const CliArgs args(rest, kValueOptions, kFlagOptions);
        if (args.has("--help") || args.has("-h")) {
            std::fputs(usage().c_str(), stdout);
            return cli::kExitOk;
        }
        if (command != "convert" && command != "analyze" && command != "lesson" && !args.positionals().empty())
            throw UsageError("unexpected argument '" + echoed(args.positionals().front()) + "'");
        if (command == "devices")
            return commandDevices();
        if (command == "device-classes")
            return commandDeviceClasses();
        if (command == "bench")
            return commandBench(args, cancel);
        if (command == "pipeline")
            return commandPipeline(args, cancel);
        if (command == "record")
            return commandRecord(args, cancel);
        if (command == "convert")
            return commandConvert(args, cancel);
        if (command == "analyze")
            return commandAnalyze(args, cancel);
        if (command == "lesson")
            return commandLesson(args, cancel);
        throw UsageError("unknown command '" + echoed(command) + "'");
    } catch (const UsageError& e) {
        printError(e.what());
        std::fputs("Run 'overlapscope-cli --help' for usage.\n", stderr);
        return cli::kExitUsage;
    } catch (const ReadInterrupted& e) {
        printError(e.what());
        return cli::kExitCancelled;
    } catch (const BadInput& e) {
        printError(e.what());
        return cli::kExitBadInput;
    } catch (const NoDevice& e) {
        printError(e.what());
        return cli::kExitNoDevice;
    } catch (const DeviceError& e) {
        printError(std::string("device error: ") + e.what());
        return cli::kExitFailed;
    } catch (const std::bad_alloc&) {
        printError("out of host memory");
        return cli::kExitFailed;
    }
}
