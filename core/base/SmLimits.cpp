#include "base/SmLimits.h"

namespace ovs {

SmLimits smLimitsOf(int computeCapability)
{
    constexpr int kKiB = 1024;
    // {threads, blocks, registers, shared memory per SM}; the CUDA C++
    // Programming Guide, "Features and Technical Specifications", table
    // "Technical Specifications per Compute Capability".
    switch (computeCapability) {
    case 50: case 53: return {2048, 32, 65536, 64 * kKiB};
    case 52: case 61: return {2048, 32, 65536, 96 * kKiB};
    case 60: case 62: return {2048, 32, 65536, 64 * kKiB};
    case 70: case 72: return {2048, 32, 65536, 96 * kKiB};
    case 75: return {1024, 16, 65536, 64 * kKiB};
    case 80: return {2048, 32, 65536, 164 * kKiB};
    case 86: return {1536, 16, 65536, 100 * kKiB};
    case 87: return {1536, 16, 65536, 164 * kKiB};
    case 89: return {1536, 24, 65536, 100 * kKiB};
    case 90: case 100: case 103: return {2048, 32, 65536, 228 * kKiB};
    case 120: case 121: return {1536, 32, 65536, 100 * kKiB};
    default: return {};
    }
}

} // namespace ovs
