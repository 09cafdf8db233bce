#include "cupti/BufferPool.h"

#include <new>

namespace ovs::cupti {
namespace {

constexpr std::align_val_t kBufferAlignment{8}; // CUPTI's ACTIVITY_RECORD_ALIGNMENT
// As many records as fit (0). Buffers capped at 64 records stopped arriving
// after the first on the H200.
constexpr std::size_t kRecordsPerBuffer = 0;
// Spares kept for reuse: more than CUPTI's steady state needs (a buffer
// filling, a few being read), and at most 32 MiB of the traced program's memory.
constexpr std::size_t kSpareBuffers = 32;

} // namespace

BufferPool::~BufferPool()
{
    for (std::uint8_t* buffer : m_spare)
        ::operator delete(buffer, kBufferAlignment);
}

std::uint8_t* BufferPool::lend(std::size_t* bytes, std::size_t* maxRecords)
{
    std::uint8_t* buffer = nullptr;
    {
        std::lock_guard lock(m_mutex);
        if (!m_spare.empty()) {
            buffer = m_spare.back();
            m_spare.pop_back();
        }
    }
    if (!buffer)
        buffer = static_cast<std::uint8_t*>(::operator new(kBufferBytes, kBufferAlignment, std::nothrow));
    *bytes = buffer ? kBufferBytes : 0;
    *maxRecords = kRecordsPerBuffer;
    return buffer;
}

void BufferPool::giveBack(std::uint8_t* buffer)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_spare.size() < kSpareBuffers) {
            m_spare.push_back(buffer);
            return;
        }
    }
    ::operator delete(buffer, kBufferAlignment);
}

} // namespace ovs::cupti
