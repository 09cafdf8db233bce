#pragma once

#include "analysis/RunAnalysis.h"
#include "bench/PeerBench.h"

#include "trace/BandwidthSweep.h"
#include "trace/Run.h"
#include "trace/Trace.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace ovs::cli {

// The tables the CLI prints, in the seed's layout.
// `whyNoEngineTiming`: why a live device gives event times only ("libcupti not found: ...").
void printDeviceLine(std::FILE* out, const DeviceInfo& device, const std::string& timing,
                     const std::string& whyNoEngineTiming = {});
void printBandwidthTable(std::FILE* out, const BandwidthSweep& sweep);
void printPipelineTable(std::FILE* out, const std::vector<Run>& runs);
// Per run: how many ops of each kind were recorded, and on how many lanes.
void printOpCounts(std::FILE* out, const std::vector<Run>& runs);
// `analyze`: per run, the rates it is judged by, its metrics, its bounds and
// the diagnosis.
void printAnalysis(std::FILE* out, const Trace& trace);
// After every pipeline run: one compact row per run and its diagnosis line.
void printAnalysisSummary(std::FILE* out, const Trace& trace);
// Both from analyses made already (analyzeTrace with the user's options).
void printAnalysis(std::FILE* out, const Trace& trace, const std::vector<RunAnalysis>& analyses);
void printAnalysisSummary(std::FILE* out, const Trace& trace, const std::vector<RunAnalysis>& analyses);
// Runs spread over several GPUs: per device and for the host as a whole, the
// upload rate together against alone, and what bounds them (HostShare).
void printHostShares(std::FILE* out, const Trace& trace);
// The peer-to-peer matrix as nvbandwidth prints it: GB/s, rows the source
// GPU, columns the destination; one table with peer access on, one off.
void printPeerMatrix(std::FILE* out, const PeerMatrix& matrix, int devices);
// Runs of programs we did not build (profiled, imported): name, source,
// wall time, GPU ops and status; their analysis is the findings.
void printProgramRunTable(std::FILE* out, const std::vector<Run>& runs);
// Any trace (pipelines, profiled programs, PyTorch traces): per run and
// device, busy time of each copy direction and of compute, overlap and GPU
// idle time; then the findings (findings/Findings.h), largest cost first,
// each with its cost in ms and % of wall time, its op count and its fix.
// Text from the trace is escaped (printable) here, so a caller need not.
void printFindings(std::FILE* out, const Trace& trace);
// The same from analyses made already (analyzeTrace with the user's options).
void printFindings(std::FILE* out, const Trace& trace, const std::vector<RunAnalysis>& analyses);

} // namespace ovs::cli
