#include "cupti/RecordCursor.h"

namespace ovs::cupti {

RecordCursor::RecordCursor(const Library::Api& api, std::uint8_t* buffer, std::size_t validBytes, LossTally& loss)
    : m_api(api), m_buffer(buffer), m_validBytes(validBytes), m_loss(loss)
{
}

const CUpti_Activity* RecordCursor::next()
{
    if (m_done)
        return nullptr;
    const CUptiResult result = m_api.activityGetNextRecord(m_buffer, m_validBytes, &m_record);
    if (result == CUPTI_SUCCESS) {
        ++m_count;
        return m_record;
    }
    m_done = true;
    // Past an error CUPTI's position in the buffer means nothing: the rest
    // of its records cannot be reached, so they are lost and said to be.
    if (result != CUPTI_ERROR_MAX_LIMIT_REACHED)
        m_loss.addUnreadBuffer(describeResult(m_api, result, "cuptiActivityGetNextRecord"));
    return nullptr;
}

} // namespace ovs::cupti
