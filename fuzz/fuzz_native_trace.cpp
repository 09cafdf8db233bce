// libFuzzer target: the native trace reader (docs/trace-format.md) on any
// bytes. Every input must give a trace or a one-line message of at most 300
// characters; a trace that loads must save and load again. Built and run by
// scripts/fuzz.sh.
#include "io/JsonReader.h"
#include "formats/NativeTraceReader.h"
#include "formats/TraceJson.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const ovs::TraceLoadResult loaded = ovs::traceFromJson(text);
    if (loaded.trace.has_value() == !loaded.error.empty())
        std::abort(); // exactly one of a trace and an error
    if (!loaded.error.empty() && (loaded.error.find('\n') != std::string::npos || loaded.error.size() > 1200))
        std::abort(); // one line (300 characters, at most 4 bytes each)
    if (loaded.trace && !ovs::traceFromJson(ovs::traceToJson(*loaded.trace)).trace)
        std::abort(); // what loads saves and loads again
    return 0;
}
