#pragma once

#include "cupti/BufferLoss.h"

#include <mutex>

namespace ovs::cupti {

// The session's running BufferLoss, added to from CUPTI's threads (buffers
// complete on threads of CUPTI's own) and read by the client whenever it
// reports.
class LossTally {
public:
    void addDropped(std::uint64_t records);
    // One buffer whose reading stopped at an error; `words` are CUPTI's,
    // kept for the first.
    void addUnreadBuffer(const std::string& words);
    BufferLoss total() const;
    void reset();

private:
    mutable std::mutex m_mutex;
    BufferLoss m_loss;
};

} // namespace ovs::cupti
