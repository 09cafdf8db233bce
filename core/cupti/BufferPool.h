#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace ovs::cupti {

// The activity buffers a collector lends CUPTI: handed out from CUPTI's
// buffer-requested callback, given back from buffer-completed once its
// records are read, and kept for reuse (a few; the rest are freed). Safe from
// any thread: CUPTI asks and returns on threads of its own.
class BufferPool {
public:
    // The size CUPTI's own samples use: fewer, larger buffers cost less per
    // record, and a flush hands over part-filled ones.
    static constexpr std::size_t kBufferBytes = 1024 * 1024;

    BufferPool() = default;
    BufferPool(const BufferPool&) = delete;
    BufferPool& operator=(const BufferPool&) = delete;
    ~BufferPool();

    // For the buffer-requested callback's out-parameters: a buffer, its size
    // and the record cap, or null and 0 when host memory ran out (CUPTI then
    // drops the records it had no room for, and counts them).
    std::uint8_t* lend(std::size_t* bytes, std::size_t* maxRecords);
    // A buffer lend() made, back once CUPTI and the reader are done with it.
    void giveBack(std::uint8_t* buffer);

private:
    std::mutex m_mutex;
    std::vector<std::uint8_t*> m_spare;
};

} // namespace ovs::cupti
