#pragma once

#include "trace/JsonReader.h"
#include "trace/Trace.h"

namespace ovs {

// Reads the native format (docs/trace-format.md, versions 1 and 2) from a
// document straight into a Trace, checking everything the format promises;
// ops come back sorted (Run::sortOps). Throws JsonReadError with one line
// that names the place ("run 2 ('x'), op 17: end 500 is before start 900").
Trace readNativeTrace(JsonReader& json);

} // namespace ovs
