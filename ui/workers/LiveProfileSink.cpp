#include "workers/LiveProfileSink.h"

#include "style/TimeFormat.h"

namespace ovs::ui {

void LiveProfileSink::runStarted(int run, const Run& header)
{
    m_batches[run] = Batch{};
    m_batches[run].namesSent = header.names.size();
    m_lastFlush = {}; // a new run's first ops go out at once
    emit runBegan(run, header);
}

void LiveProfileSink::laneAdded(int run, const Lane& lane, int laneIndex)
{
    emit laneArrived(run, lane, laneIndex);
}

void LiveProfileSink::opsCompleted(int run, std::span<const Op> ops, const std::vector<std::string>& names)
{
    Batch& batch = m_batches[run];
    if (names.size() > batch.namesSent) {
        batch.newNames.insert(batch.newNames.end(), names.begin() + static_cast<std::ptrdiff_t>(batch.namesSent),
                              names.end());
        batch.namesSent = names.size();
    }
    batch.ops.insert(batch.ops.end(), ops.begin(), ops.end());
    flushIfDue();
}

void LiveProfileSink::runFinished(int run, const Run& finished)
{
    m_batches.erase(run);
    emit runEnded(run, finished);
}

void LiveProfileSink::notice(const std::string& text)
{
    emit noticed(QString::fromStdString(text));
}

void LiveProfileSink::launched(pid_t pid)
{
    emit progressed(tr("started the program (pid %1)").arg(pid));
}

void LiveProfileSink::progress(const profile::ProfileProgress& p)
{
    // Polls come every few tens of ms: batches that waited for more ops go
    // out here when the program has gone quiet.
    flushIfDue();
    const auto now = std::chrono::steady_clock::now();
    if (now - m_lastProgress < kProgressInterval)
        return;
    m_lastProgress = now;
    QString text = tr("profiling: %1, %2 process(es) with CUDA, %3 GPU ops, %4 API calls")
                       .arg(TimeFormat::duration(static_cast<double>(p.elapsedNs), 2))
                       .arg(p.processes)
                       .arg(p.gpuOps)
                       .arg(p.apiCalls);
    if (!m_stopping.isEmpty())
        text += QStringLiteral(" — ") + m_stopping;
    emit progressed(text);
}

void LiveProfileSink::stopping(const char* signalName)
{
    m_stopping = tr("stopping the program (%1); what was recorded is kept").arg(QLatin1String(signalName));
    emit progressed(m_stopping);
}

void LiveProfileSink::finish(bool ok, bool cancelled, const QString& message)
{
    emit workDone(ok, cancelled, message);
}

void LiveProfileSink::flushIfDue()
{
    if (std::chrono::steady_clock::now() - m_lastFlush < kFlushInterval)
        return;
    bool sent = false;
    for (auto& [run, batch] : m_batches) {
        if (batch.ops.empty())
            continue;
        emit opsArrived(run, batch.ops, batch.newNames);
        batch.ops.clear();
        batch.newNames.clear();
        sent = true;
    }
    if (sent)
        m_lastFlush = std::chrono::steady_clock::now();
}

} // namespace ovs::ui
