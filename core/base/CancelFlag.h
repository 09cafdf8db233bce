#pragma once

#include <atomic>
#include <stdexcept>

namespace ovs {

// Thrown inside a run (or a trace read) when its CancelFlag is raised; a
// run's RAII objects drain the device as the exception unwinds them.
class RunCancelled : public std::runtime_error {
public:
    RunCancelled() : std::runtime_error("cancelled by the user") {}
};

// Set from any thread (the GUI's Cancel button), checked by the work between
// steps.
class CancelFlag {
public:
    void cancel() { m_cancelled.store(true, std::memory_order_relaxed); }
    void reset() { m_cancelled.store(false, std::memory_order_relaxed); }
    bool isCancelled() const { return m_cancelled.load(std::memory_order_relaxed); }
    void throwIfCancelled() const
    {
        if (isCancelled())
            throw RunCancelled();
    }

private:
    std::atomic<bool> m_cancelled{false};
};

} // namespace ovs
