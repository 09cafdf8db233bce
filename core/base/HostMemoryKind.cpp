#include "base/HostMemoryKind.h"

namespace ovs {

const char* toString(HostMemoryKind kind)
{
    switch (kind) {
    case HostMemoryKind::None: return "none";
    case HostMemoryKind::Pageable: return "pageable";
    case HostMemoryKind::Pinned: return "pinned";
    case HostMemoryKind::Registered: return "registered";
    case HostMemoryKind::Managed: return "managed";
    case HostMemoryKind::Device: return "device";
    }
    return "unknown";
}

} // namespace ovs
