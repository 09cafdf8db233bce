#pragma once

#include "io/JsonReader.h"
#include "trace/Trace.h"

#include <optional>
#include <string_view>

namespace ovs {

// Reads the native format (docs/trace-format.md, versions 1 to 9) from a
// document straight into a Trace, checking everything the format promises;
// ops come back sorted (Run::sortOps). Throws JsonReadError with one line
// that names the place ("run 2 ('x'), op 17: end 500 is before start 900").
Trace readNativeTrace(JsonReader& json);

// What a stream lane without "streamKind" is: traces from before the field
// named the legacy default stream in the lane's name ("default stream
// (legacy)" from the profiler, "(legacy default)" from the Kineto importer),
// and say nothing of the other streams' kinds.
StreamKind streamKindWithout(std::string_view laneName);

// What a unified-memory op of a trace before format 9 counts: those said it
// only in the op's name, as the profiler named it ("HtoD migration
// (fault)", "GPU page faults": unifiedMemoryName). The reader's rule for
// those files alone; nullopt for a name the profiler never gave.
std::optional<UnifiedMemoryOp> unifiedMemoryOpNamed(std::string_view name);

} // namespace ovs
