#pragma once

namespace ovs {

// What one SM holds at once, by compute capability: the limits that decide
// how many blocks of a launch shape an SM can hold (the replay's occupancy
// estimate, core/replay/Contention.cpp). 0: not known.
struct SmLimits {
    int maxThreads = 0;
    int maxBlocks = 0;
    int registers = 0;         // 32-bit registers
    int sharedMemoryBytes = 0; // usable by blocks

    bool known() const { return maxThreads > 0 && maxBlocks > 0; }
};

// The limits of a compute capability (major * 10 + minor: 90 for sm_90),
// from the CUDA C++ Programming Guide's table of technical specifications
// per compute capability; unknown (all 0) for one the table lacks.
SmLimits smLimitsOf(int computeCapability);

} // namespace ovs
