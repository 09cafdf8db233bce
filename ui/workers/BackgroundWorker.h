#pragma once

#include <QObject>
#include <QThreadPool>

#include <deque>
#include <functional>
#include <mutex>

namespace ovs::ui {

// The one way the window runs work off the GUI thread (parsing, writing,
// exporting, device listing, runs): jobs run one at a time, in the order
// posted, on a thread of the worker's own; what a job returns is then called
// on the thread that owns the worker (the GUI thread), through its event
// loop. So the GUI thread never waits for the work, and results arrive in order.
//
// Jobs and their deliveries cross threads through queues under a std::mutex,
// not inside Qt's posted events: Qt is not built with ThreadSanitizer, so a
// hand-off made only through Qt's (futex) locks is invisible to it and reads
// as a race, while this one it can check. Qt only wakes the two sides.
//
// Destroying the worker waits for the job in progress (callers that must
// stop a long job first ask it to, e.g. through a CancelFlag); jobs not yet
// started are dropped, and so are results not yet delivered.
class BackgroundWorker : public QObject {
    Q_OBJECT

public:
    using Delivery = std::function<void()>;
    using Job = std::function<Delivery()>;

    explicit BackgroundWorker(QObject* parent = nullptr);
    ~BackgroundWorker() override;

    // Runs `job` after the jobs posted before it. A job must not throw: one
    // that does is reported with qWarning and delivers nothing.
    void post(Job job);
    // True from post() until the job's delivery has run (or was dropped).
    bool isBusy() const { return m_pending > 0; }
    // Blocks until every job posted so far has run; deliveries still come
    // through the event loop. For destructors and tests.
    void waitForJobs();

private:
    // On the pool's thread: takes the oldest posted job and runs it.
    void runNextJob();
    // On the owner's thread, once per finished job, through the event loop
    // (invoked by name so that the wake-up carries no data of ours).
    Q_INVOKABLE void deliverNext();

    QThreadPool m_pool;
    std::mutex m_mutex; // guards the two queues
    std::deque<Job> m_jobs;             // posted, not started
    std::deque<Delivery> m_deliveries;  // finished, not delivered yet
    int m_pending = 0;                  // owner's thread only
};

} // namespace ovs::ui
