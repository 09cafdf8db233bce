#pragma once

// What the CLI's commands share: their messages, the exit-status exceptions,
// opening devices, the output path, writing a trace and the job outcome.

#include "CliArgs.h"

#include "analysis/RunAnalysis.h"
#include "base/CancelFlag.h"
#include "device/Device.h"
#include "device/DeviceSet.h"
#include "jobs/JobOutcome.h"
#include "record/RecordSink.h"
#include "trace/Trace.h"

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

namespace ovs::cli {

// A device that cannot be opened here exits with its own status; a spec
// that names no device is a usage mistake.
class NoDevice : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// An input that cannot be read or is malformed: exit status 3.
class BadInput : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A trace read that Ctrl-C stopped: nothing was written, the exit status is
// kExitCancelled (main.cpp).
class ReadInterrupted : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Progress on stderr, one line per step, so stdout stays a clean table.
class ProgressPrinter : public RecordSink {
public:
    explicit ProgressPrinter(bool quiet) : m_quiet(quiet) {}
    void progress(double fraction, const std::string& what) override;

private:
    bool m_quiet;
};

// Every message of the CLI's own goes out through here: one line, names and
// quoted input escaped, at most kMessageLimit characters.
void printError(const std::string& message);
// A trace's names as the terminal will show them: shortened as the window
// shows them (a 200 MiB run name is printed as its first 255 characters),
// then control characters escaped, so a name cannot retitle or clear the
// terminal or break a table.
void makePrintable(Trace& trace);
// "2026-12-02T06:38:45Z": when a trace was made (record, lesson, profile).
std::string nowUtc();
// The device a spec names (lesson), or the devices, one or several
// (pipeline, record, bench): NoDevice where none answers, UsageError for a
// spec that names none.
std::unique_ptr<Device> openDevice(const CliArgs& args);
DeviceSet openDevices(const CliArgs& args);
// -o / --output, checked writable and of the format's `extension`
// (cli::whyWrongExtension) before any work; "" when absent and not required.
std::string outputPath(const CliArgs& args, bool required, const std::string& extension = "json");
// Writes the trace natively and says where on stderr. The exit status.
int writeTrace(const Trace& trace, const std::string& path);
// Says on stderr what did not go to plan and turns the outcome into the
// exit status. `leftAsItWas`: the output not written (cli::leavesOutputAsItWas).
int finish(const JobOutcome& outcome, const std::string& leftAsItWas = {});
// The size limit for reading a trace (core's default unless raised or
// lowered by --max-trace-mib), checked before the file is opened.
std::uint64_t maxTraceBytes(const CliArgs& args);
// The trace at `path`, read up to maxTraceBytes(args) with Ctrl-C heard
// (`cancel`): BadInput naming the file where it cannot be read,
// ReadInterrupted where Ctrl-C stopped the read. What an import read and
// skipped goes to `note`.
Trace readTrace(const std::string& path, const CliArgs& args, const CancelFlag& cancel, std::string* note = nullptr);
// What analyze and diff judge runs with: --region, and --pinned-rate H2D,D2H
// (a UsageError where it does not read).
AnalysisOptions analysisOptions(const CliArgs& args);

} // namespace ovs::cli
