#pragma once

#include "base/CancelFlag.h"

#include <cstdint>
#include <functional>

namespace ovs {

// What a long trace read reports and what stops it, so that the window can
// show a progress bar and a Cancel button while a big file loads. Both parts
// are optional; the reader calls them from its own thread between pieces of
// the file (a window of a Chrome or Kineto trace, a block of a whole read).
struct ReadProgress {
    // Bytes of the file read so far, of its total.
    std::function<void(std::uint64_t done, std::uint64_t total)> onProgress;
    // Raised: the read ends with RunCancelled at its next piece, and
    // loadTrace answers "cancelled" with no trace.
    const CancelFlag* cancel = nullptr;

    void report(std::uint64_t done, std::uint64_t total) const
    {
        if (onProgress)
            onProgress(done, total);
    }
    void throwIfCancelled() const
    {
        if (cancel)
            cancel->throwIfCancelled();
    }
};

} // namespace ovs
