#pragma once

#include "trace/Trace.h"

#include <string>

namespace ovs {

// One row per op of every run, for spreadsheets and pandas. Columns:
// run,run_name,device,simulated,lane,lane_kind,kind,chunk,start_ns,end_ns,
// duration_ns,bytes,memory,gbps,exec_start_ns,exec_end_ns
// Fields are quoted as RFC 4180 says where they hold a comma, quote or line
// break; lines end in "\n". gbps is empty for ops that move no bytes or take
// no time; the exec columns are empty where the engine times are unknown.
std::string traceToCsv(const Trace& trace);

// Writes traceToCsv() through a temporary file and a rename.
bool exportCsv(const Trace& trace, const std::string& path, std::string* error);

} // namespace ovs
