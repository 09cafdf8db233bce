#pragma once

#include "cupti/Library.h"
#include "cupti/LossTally.h"

#include <cstddef>
#include <cstdint>

namespace ovs::cupti {

// The records of one completed activity buffer, in order, as a client reads
// them (Session::Reader), and the one rule for an error while reading: the
// reading stops there, and the buffer is counted in the session's loss with
// CUPTI's words. The end of the buffer (CUPTI_ERROR_MAX_LIMIT_REACHED) is no
// error.
class RecordCursor {
public:
    // `api`: its activityGetNextRecord and getResultString are used (tests
    // hand in their own).
    RecordCursor(const Library::Api& api, std::uint8_t* buffer, std::size_t validBytes, LossTally& loss);

    // The next record; null at the end of the buffer or at an error.
    const CUpti_Activity* next();
    // Records handed out so far.
    std::size_t count() const { return m_count; }

private:
    const Library::Api& m_api;
    std::uint8_t* m_buffer;
    std::size_t m_validBytes;
    LossTally& m_loss;
    CUpti_Activity* m_record = nullptr; // CUPTI's position in the buffer
    std::size_t m_count = 0;
    bool m_done = false;
};

} // namespace ovs::cupti
