#include "workers/BackgroundWorker.h"

#include <QtGlobal>

#include <exception>

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
    ++m_pending;
    m_pool.start([this, job = std::move(job)] {
        Delivery deliver;
        try {
            deliver = job();
        } catch (const std::exception& e) {
            qWarning("overlapscope: a background job failed: %s", e.what());
        } catch (...) {
            qWarning("overlapscope: a background job failed");
        }
        QMetaObject::invokeMethod(
            this,
            [this, deliver = std::move(deliver)] {
                --m_pending;
                if (deliver)
                    deliver();
            },
            Qt::QueuedConnection);
    });
}

void BackgroundWorker::waitForJobs()
{
    m_pool.waitForDone();
}

} // namespace ovs::ui
