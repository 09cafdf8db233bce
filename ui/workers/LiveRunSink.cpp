#include "workers/LiveRunSink.h"

#include <algorithm>

namespace ovs::ui {

LiveRunSink::LiveRunSink(int jobCount) : m_jobCount(std::max(1, jobCount)) {}

void LiveRunSink::beginJob(int index, const QString& title)
{
    m_job = index;
    m_jobTitle = title;
    emit progressed(static_cast<double>(index) / m_jobCount, title);
}

void LiveRunSink::setJobCount(int jobCount)
{
    m_jobCount = std::max(1, jobCount);
}

void LiveRunSink::finish(bool ok, const QString& message)
{
    emit workDone(ok, message);
}

void LiveRunSink::lessonJudged(std::shared_ptr<const LessonResult> result)
{
    emit lessonArrived(result);
}

void LiveRunSink::runStarted(const Run& header)
{
    m_batch.clear();
    // A new run's first ops go out at once, so its lanes fill without delay.
    m_lastFlush = {};
    emit runBegan(header);
}

void LiveRunSink::laneAdded(const Lane& lane, int laneIndex)
{
    emit laneArrived(lane, laneIndex);
}

void LiveRunSink::opsCompleted(std::span<const Op> ops)
{
    m_batch.insert(m_batch.end(), ops.begin(), ops.end());
    flushIfDue();
}

void LiveRunSink::runFinished(const Run& run)
{
    m_batch.clear();
    emit runEnded(run);
}

void LiveRunSink::sweepStarted(const BandwidthSweep& header)
{
    emit sweepBegan(header);
}

void LiveRunSink::bandwidthMeasured(const BandwidthPoint& point)
{
    emit pointArrived(point);
}

void LiveRunSink::sweepFinished(const BandwidthSweep& sweep)
{
    emit sweepEnded(sweep);
}

void LiveRunSink::progress(double fraction, const std::string& what)
{
    flushIfDue();
    const double overall = (m_job + std::clamp(fraction, 0.0, 1.0)) / m_jobCount;
    QString text = QString::fromStdString(what);
    if (!m_jobTitle.isEmpty() && !text.startsWith(m_jobTitle))
        text = m_jobTitle + QStringLiteral(": ") + text;
    emit progressed(overall, text);
}

void LiveRunSink::flushIfDue()
{
    if (!m_batch.empty() && std::chrono::steady_clock::now() - m_lastFlush >= kFlushInterval)
        flush();
}

void LiveRunSink::flush()
{
    emit opsArrived(m_batch);
    m_batch.clear();
    m_lastFlush = std::chrono::steady_clock::now();
}

} // namespace ovs::ui
