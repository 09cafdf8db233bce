#pragma once

#include <QObject>
#include <QThreadPool>

#include <functional>

namespace ovs::ui {

// The one way the window runs work off the GUI thread (parsing, writing,
// exporting, device listing, runs): jobs run one at a time, in the order
// posted, on a thread of the worker's own; what a job returns is then called
// on the thread that owns the worker (the GUI thread), through its event
// loop. So the GUI thread never waits for the work, and results arrive in order.
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
    QThreadPool m_pool;
    int m_pending = 0;
};

} // namespace ovs::ui
