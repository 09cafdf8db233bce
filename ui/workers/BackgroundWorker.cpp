#include "workers/BackgroundWorker.h"

#include <QtGlobal>

#include <exception>
#include <utility>

namespace ovs::ui {

BackgroundWorker::BackgroundWorker(QObject* parent) : QObject(parent)
{
    m_pool.setMaxThreadCount(1);
    // Long runs hold the thread for minutes; never expire it mid-queue.
    m_pool.setExpiryTimeout(-1);
}

BackgroundWorker::~BackgroundWorker()
{
    m_pool.clear();
    m_pool.waitForDone();
}

void BackgroundWorker::post(Job job)
{
    {
        std::lock_guard lock(m_mutex);
        m_jobs.push_back(std::move(job));
    }
    ++m_pending;
    // One task per job; with one pool thread they run in the order posted,
    // and each takes the oldest job, so jobs and tasks stay paired.
    m_pool.start([this] { runNextJob(); });
}

void BackgroundWorker::runNextJob()
{
    Job job;
    {
        std::lock_guard lock(m_mutex);
        if (m_jobs.empty())
            return;
        job = std::move(m_jobs.front());
        m_jobs.pop_front();
    }
    Delivery deliver;
    try {
        deliver = job();
    } catch (const std::exception& e) {
        qWarning("overlapscope: a background job failed: %s", e.what());
    } catch (...) {
        qWarning("overlapscope: a background job failed");
    }
    // The job's captures go here, on the thread that used them.
    job = nullptr;
    {
        std::lock_guard lock(m_mutex);
        m_deliveries.push_back(std::move(deliver));
    }
    QMetaObject::invokeMethod(this, "deliverNext", Qt::QueuedConnection);
}

void BackgroundWorker::deliverNext()
{
    Delivery deliver;
    {
        std::lock_guard lock(m_mutex);
        if (m_deliveries.empty())
            return;
        deliver = std::move(m_deliveries.front());
        m_deliveries.pop_front();
    }
    --m_pending;
    if (deliver)
        deliver();
}

void BackgroundWorker::waitForJobs()
{
    m_pool.waitForDone();
}

} // namespace ovs::ui
