#pragma once

// The CLI's commands, one file each (ProfileCommand.h has profile, which
// parses its own arguments). Each takes the arguments after the command word
// and returns the exit status; usage mistakes and bad input are thrown
// (CliArgs.h's UsageError, CliCommon.h's BadInput and NoDevice) for main to
// turn into their statuses.

#include "CliArgs.h"

#include "base/CancelFlag.h"

#include <string>
#include <vector>

namespace ovs::cli {

// The --help text, and the options the commands other than profile take.
std::string usage();
extern const std::vector<std::string> kValueOptions;
extern const std::vector<std::string> kFlagOptions;

int commandDevices();                                       // DevicesCommand.cpp
int commandDeviceClasses();                                 // DeviceClassesCommand.cpp
int commandBench(const CliArgs& args, CancelFlag& cancel);    // BenchCommand.cpp
int commandPipeline(const CliArgs& args, CancelFlag& cancel); // PipelineCommand.cpp
int commandRecord(const CliArgs& args, CancelFlag& cancel);   // RecordCommand.cpp
int commandConvert(const CliArgs& args, const CancelFlag& cancel); // ConvertCommand.cpp
int commandAnalyze(const CliArgs& args, const CancelFlag& cancel); // AnalyzeCommand.cpp
// diff reads its own arguments: --run is given twice (the before run, then the after run).
int commandDiff(std::vector<std::string> args, const CancelFlag& cancel); // DiffCommand.cpp
int commandLesson(const CliArgs& args, CancelFlag& cancel);   // LessonCommand.cpp

} // namespace ovs::cli
