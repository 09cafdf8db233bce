#include "cupti/Session.h"

namespace ovs::cupti {
namespace {

void CUPTIAPI onBufferRequested(std::uint8_t** buffer, std::size_t* size, std::size_t* maxNumRecords)
{
    *buffer = Session::instance().lendBuffer(size, maxNumRecords);
}

void CUPTIAPI onBufferCompleted(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t, std::size_t validSize)
{
    Session::instance().bufferCompleted(buffer, validSize);
}

} // namespace

Session& Session::instance()
{
    // Leaked on purpose: see the class comment.
    static Session* session = new Session;
    return *session;
}

Session::Session() : m_library(Library::instance()) {}

bool Session::start(Client client, Reader& reader, const std::vector<std::string_view>& requested,
                    const char* skipVariable, std::string* whyNot, std::vector<std::string>* warnings)
{
    std::lock_guard lock(m_startMutex);
    if (!m_callbacksRegistered) {
        // Once per process: CUPTI keeps the callbacks across disable and enable.
        const CUptiResult result = m_library.api().activityRegisterCallbacks(onBufferRequested, onBufferCompleted);
        if (result != CUPTI_SUCCESS) {
            if (whyNot)
                *whyNot = m_library.describe(result, "cuptiActivityRegisterCallbacks");
            return false;
        }
        m_callbacksRegistered = true;
    }
    // A fresh tally, with what CUPTI counted before this client forgotten.
    countDropped();
    m_loss.reset();
    // Before any kind is on, so no buffer of this client's finds no reader.
    m_reader = &reader;
    if (!m_kinds.enable(m_library.api(), client, requested, skipVariable, whyNot, warnings)) {
        m_reader = nullptr;
        return false;
    }
    return true;
}

void Session::stop()
{
    std::lock_guard lock(m_startMutex);
    m_kinds.disable(m_library.api());
    static_cast<void>(flush(true));
    m_reader = nullptr;
}

CUptiResult Session::flush(bool forced)
{
    return m_library.api().activityFlushAll(forced ? CUPTI_ACTIVITY_FLAG_FLUSH_FORCED : 0);
}

CUptiResult Session::readClocks(ClockPair* pair) const
{
    return readClockPair(m_library.api(), pair);
}

BufferLoss Session::loss()
{
    countDropped();
    return m_loss.total();
}

void Session::countDropped()
{
    std::size_t dropped = 0;
    if (m_library.api().activityGetNumDroppedRecords(nullptr, 0, &dropped) == CUPTI_SUCCESS)
        m_loss.addDropped(dropped);
}

std::uint8_t* Session::lendBuffer(std::size_t* bytes, std::size_t* maxRecords)
{
    // Null when host memory ran out: CUPTI then drops the records it has no
    // room for and counts them, and the count reaches the tally.
    return m_buffers.lend(bytes, maxRecords);
}

void Session::bufferCompleted(std::uint8_t* buffer, std::size_t validBytes)
{
    if (!buffer)
        return;
    countDropped();
    if (Reader* reader = m_reader.load()) {
        RecordCursor records(m_library.api(), buffer, validBytes, m_loss);
        reader->read(records);
    }
    m_buffers.giveBack(buffer);
}

} // namespace ovs::cupti
