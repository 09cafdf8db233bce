#include "replay/Fix.h"

namespace ovs {

Fix fixAt(int index)
{
    return static_cast<Fix>(1u << index);
}

const char* toString(Fix fix)
{
    switch (fix) {
    case Fix::PinHostMemory: return "pin host memory";
    case Fix::AsyncCopies: return "async copies";
    case Fix::RemoveHostSync: return "no host wait per chunk";
    case Fix::NonBlockingStreams: return "non-blocking streams";
    case Fix::StreamPerChunk: return "a stream per chunk";
    case Fix::HoistAllocations: return "allocations out of the loop";
    case Fix::PrefetchManaged: return "prefetch managed memory";
    }
    return "?";
}

std::string describeFixes(FixSet set)
{
    std::string text;
    for (int i = 0; i < kFixCount; ++i)
        if (has(set, fixAt(i)))
            text += (text.empty() ? "" : " + ") + std::string(toString(fixAt(i)));
    return text.empty() ? "no fix" : text;
}

} // namespace ovs
