#pragma once

#include "device/Event.h"

#include <memory>
#include <utility>

namespace ovs {

// Proof of an asynchronous copy in flight. The buffers it names must stay
// alive and untouched until wait() returns; [[nodiscard]] makes dropping it
// on the floor a compile warning, and a token destroyed unwaited drains its
// copy rather than let the buffers be freed under it.
//
// The completion event is shared so the recorder can read the same event for
// the op's end timestamp without recording a second one.
class [[nodiscard]] CopyToken {
public:
    CopyToken() = default;
    explicit CopyToken(std::shared_ptr<Event> completion) : m_completion(std::move(completion)) {}
    ~CopyToken() { drain(); }
    CopyToken(CopyToken&& other) noexcept : m_completion(std::move(other.m_completion)) {}
    CopyToken& operator=(CopyToken&& other) noexcept
    {
        if (this != &other) {
            drain();
            m_completion = std::move(other.m_completion);
        }
        return *this;
    }
    CopyToken(const CopyToken&) = delete;
    CopyToken& operator=(const CopyToken&) = delete;

    bool pending() const { return m_completion != nullptr; }
    bool isDone() const { return !m_completion || m_completion->isDone(); }
    // Blocks the host until the copy completed; afterwards the buffers are free to use.
    void wait()
    {
        if (m_completion) {
            m_completion->synchronize();
            m_completion.reset();
        }
    }
    const std::shared_ptr<Event>& completion() const { return m_completion; }

private:
    void drain() noexcept
    {
        try {
            wait();
        } catch (...) {
        }
    }

    std::shared_ptr<Event> m_completion;
};

} // namespace ovs
