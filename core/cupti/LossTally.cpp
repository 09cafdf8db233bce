#include "cupti/LossTally.h"

namespace ovs::cupti {

void LossTally::addDropped(std::uint64_t records)
{
    if (records == 0)
        return;
    std::lock_guard lock(m_mutex);
    m_loss.dropped += records;
}

void LossTally::addUnreadBuffer(const std::string& words)
{
    std::lock_guard lock(m_mutex);
    if (m_loss.unreadBuffers++ == 0)
        m_loss.firstReadError = words;
}

BufferLoss LossTally::total() const
{
    std::lock_guard lock(m_mutex);
    return m_loss;
}

void LossTally::reset()
{
    std::lock_guard lock(m_mutex);
    m_loss = {};
}

} // namespace ovs::cupti
