// libFuzzer target: the Chrome / PyTorch profiler (Kineto) trace importer,
// called directly so every input reaches it whatever its root holds. Every
// input must give a trace or a one-line message; an imported trace must
// save as a native trace that loads. Built and run by scripts/fuzz.sh.
#include "formats/ChromeTraceImport.h"
#include "io/JsonReader.h"
#include "formats/TraceJson.h"

#include <simdjson.h>

#include <cstdint>
#include <cstdlib>
#include <new>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const simdjson::padded_string text(reinterpret_cast<const char*>(data), size);
    try {
        ovs::JsonReader json(std::string_view(text.data(), text.size()));
        const ovs::ChromeTraceImport imported = ovs::ChromeTraceImport::read(json);
        if (!ovs::traceFromJson(ovs::traceToJson(imported.trace)).trace)
            std::abort(); // an import is a valid native trace
    } catch (const ovs::JsonReadError& e) {
        if (e.message.empty() || e.message.find('\n') != std::string::npos)
            std::abort();
    }
    return 0;
}
