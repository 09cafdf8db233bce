#pragma once

#include <array>
#include <compare>
#include <cstdint>

namespace ovs {

// How a kernel was launched: its grid and block, and what each block takes
// of its SM where the source says (registers, shared memory). The replay
// reads it against the device's SMs (core/replay/Contention.cpp, the
// launch-shape basis of kernels beside kernels). Kept beside the ops
// (Run::kernelShapes), not in them: most ops are not kernels.
struct KernelShape {
    std::array<std::uint32_t, 3> grid{};
    std::array<std::uint32_t, 3> block{};
    // Per block, static + dynamic. 0 where the source does not say, which
    // the occupancy estimate reads as "binds nothing", like a kernel without.
    std::uint32_t sharedMemoryBytes = 0;
    std::uint16_t registersPerThread = 0; // 0: not known

    std::uint64_t blocks() const { return std::uint64_t{grid[0]} * grid[1] * grid[2]; }
    std::uint64_t threadsPerBlock() const { return std::uint64_t{block[0]} * block[1] * block[2]; }
    // A shape a launch can have: some blocks of some threads.
    bool valid() const { return blocks() > 0 && threadsPerBlock() > 0; }

    friend auto operator<=>(const KernelShape&, const KernelShape&) = default;
};

} // namespace ovs
