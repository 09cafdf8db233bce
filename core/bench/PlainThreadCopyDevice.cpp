#include "bench/PlainThreadCopyDevice.h"

#include "device/HostCopyPool.h"

#include <chrono>
#include <cstring>
#include <system_error>
#include <thread>

namespace ovs {

namespace {
std::int64_t steadyNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}
} // namespace

std::vector<HostInterval> PlainThreadCopyDevice::hostCopyParallel(void* dst, const void* src, std::size_t bytes,
                                                                  int threads)
{
    if (threads < 1 || threads > HostCopyPool::kMaxThreads)
        throw DeviceError("host copy with " + std::to_string(threads) + " threads: use 1 to "
                          + std::to_string(HostCopyPool::kMaxThreads));
    // The same cut as the pool's, so the recorder's part sizes still hold.
    const auto parts = HostCopyPool::split(bytes, threads);
    std::vector<HostInterval> intervals(parts.size());
    std::vector<std::jthread> workers;
    workers.reserve(parts.size());
    try {
        for (std::size_t i = 0; i < parts.size(); ++i) {
            workers.emplace_back([&, i] {
                const std::int64_t start = steadyNs();
                if (parts[i].bytes != 0)
                    std::memcpy(static_cast<std::byte*>(dst) + parts[i].offset,
                                static_cast<const std::byte*>(src) + parts[i].offset, parts[i].bytes);
                intervals[i] = {start, steadyNs()};
            });
        }
    } catch (const std::system_error& e) {
        throw DeviceError("could not start host copy thread " + std::to_string(workers.size() + 1) + " of "
                          + std::to_string(threads) + ": " + e.what());
    }
    workers.clear(); // joins
    return intervals;
}

} // namespace ovs
