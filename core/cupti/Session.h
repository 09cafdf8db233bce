#pragma once

#include "cupti/ActivityKinds.h"
#include "cupti/BufferLoss.h"
#include "cupti/BufferPool.h"
#include "cupti/ClockPair.h"
#include "cupti/Library.h"
#include "cupti/LossTally.h"
#include "cupti/RecordCursor.h"

#include <atomic>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace ovs::cupti {

// The process's CUPTI activity session, the one layer both users of CUPTI
// stand on: the CUDA device's engine records (core/cuda) and the injection
// library's record stream (inject/). CUPTI's activity API is process-wide
// (one pair of buffer callbacks, one set of kinds), so a process has one
// session serving one client at a time. It holds
// - the kinds: the client's rows of ActivityKinds.h, on with rollback;
// - the buffer loop: buffers lent from a BufferPool, each completed buffer's
//   records handed to the client's Reader through a RecordCursor, with the
//   one error policy: records CUPTI dropped and buffers that could not be
//   read to the end are counted (loss()), never silently lost and never a
//   failure of the run; the client says lossWords() where its user sees them;
// - the clock: readClocks() pairs CUPTI's clock with the host's, for the
//   client's ClockMap (or the stream's reader's).
// What each client does with a record (join it to an op, encode it into a
// stream) stays the client's.
//
// Never destroyed: CUPTI's worker thread may deliver a buffer while the
// process exits, after static destructors would have run.
class Session {
public:
    // A client's side of the buffer loop.
    class Reader {
    public:
        // One completed buffer's records, on a thread of CUPTI's (or the one
        // calling flush or stop). A client that reads none (it stopped
        // wanting them) loses nothing it would report.
        virtual void read(RecordCursor& records) = 0;

    protected:
        ~Reader() = default;
    };

    static Session& instance();

    // Starts collecting for `client`, whose records go to `reader`:
    // registers the buffer callbacks (once per process) and turns the
    // client's kinds on (EnabledKinds::enable: `requested`, `skipVariable`,
    // `warnings`), and starts a fresh loss tally. False, with CUPTI's words
    // in `whyNot` and nothing left on, when CUPTI refuses. The library must
    // be loaded (Library::loaded).
    bool start(Client client, Reader& reader, const std::vector<std::string_view>& requested,
               const char* skipVariable, std::string* whyNot, std::vector<std::string>* warnings);
    // Turns the kinds off (in reverse) and takes CUPTI's buffers back (a
    // forced flush); their records still reach the reader, then no more do.
    void stop();

    // Hands completed buffers to the reader. Unforced, only full buffers
    // whose records are all complete; forced, part-filled ones too, with the
    // records of work still running untimed (Timing.h). May deliver on the
    // calling thread: call it holding no lock the reader takes.
    CUptiResult flush(bool forced);
    // A clock pair read now (ClockPair.h).
    CUptiResult readClocks(ClockPair* pair) const;
    // Everything lost since start(): the dropped records CUPTI counts up to
    // now, and the buffers that could not be read to the end.
    BufferLoss loss();

    const Library& library() const { return m_library; }

    // CUPTI's buffer callbacks (any thread).
    std::uint8_t* lendBuffer(std::size_t* bytes, std::size_t* maxRecords);
    void bufferCompleted(std::uint8_t* buffer, std::size_t validBytes);

private:
    Session();
    // CUPTI counts records it dropped since it was last asked (process-wide
    // with no context named); each count joins the tally once.
    void countDropped();

    const Library& m_library;
    // Serialises start and stop.
    std::mutex m_startMutex;
    bool m_callbacksRegistered = false;
    EnabledKinds m_kinds;
    std::atomic<Reader*> m_reader{nullptr};
    LossTally m_loss;   // locks itself
    BufferPool m_buffers; // locks itself
};

} // namespace ovs::cupti
