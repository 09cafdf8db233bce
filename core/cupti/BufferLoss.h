#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ovs::cupti {

// What the activity buffer loop lost, counted: the one error policy of both
// CUPTI users (the CUDA device's engine records and a profile's record
// stream). Nothing lost is ever silent, and a loss never fails the run: the
// ops keep what else was recorded (event times, the other records) and the
// run's message says what is missing and why.
//
// Plain values, no CUPTI headers: a profile's reader rebuilds the tally from
// the stream (LossRecord, BufferErrorRecord) where no toolkit is.
struct BufferLoss {
    // Records CUPTI dropped for want of buffer space
    // (cuptiActivityGetNumDroppedRecords): a buffer request we could not
    // serve (out of host memory) or buffers that filled faster than read.
    std::uint64_t dropped = 0;
    // Buffers whose reading stopped at an error (cuptiActivityGetNextRecord
    // answered something other than "no more records"): the records after it
    // are lost, uncounted since CUPTI cannot say how many.
    std::uint64_t unreadBuffers = 0;
    // CUPTI's words for the first such error.
    std::string firstReadError;

    bool empty() const { return dropped == 0 && unreadBuffers == 0; }
};

// The loss in the words the user sees, one phrase per kind of loss:
// "CUPTI dropped 12 records (out of activity buffers)", "2 CUPTI activity
// buffers could not be read to the end (...): their later records are lost".
// Empty when nothing was lost.
std::vector<std::string> lossWords(const BufferLoss& loss);

} // namespace ovs::cupti
