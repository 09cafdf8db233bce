#include "workers/ProfileController.h"

#include "document/TraceDocument.h"
#include "style/TimeFormat.h"
#include "workers/LiveProfileSink.h"
#include "style/DisplayText.h"

#include <QStringList>

#include <thread>

namespace ovs::ui {
namespace {

// How a profile ended, for the status bar (first line) and the message box.
QString closingMessage(const profile::ProfileOutcome& outcome, const QString& commandLine, bool* ok)
{
    using profile::ProfileFailure;
    *ok = false;
    if (!outcome.ran()) {
        QString text = QString::fromStdString(outcome.problem);
        if (outcome.failure == ProfileFailure::NoInjection)
            text += QObject::tr(".\nSet OVERLAPSCOPE_INJECT_LIBRARY to its path, or build OverlapScope where the "
                                "CUDA toolkit's CUPTI headers are (docs/profiling.md).");
        return QObject::tr("Could not profile %1: %2").arg(commandLine, text);
    }
    std::uint64_t gpuOps = 0;
    QStringList problems;
    for (const Run& run : outcome.runs) {
        for (const Op& op : run.ops)
            gpuOps += isGpuOp(op.kind) ? 1 : 0;
        if (!run.error.empty())
            problems << QObject::tr("%1: %2").arg(displayText(run.name), displayText(run.error));
    }
    QString text = outcome.cancelled ? QObject::tr("cancelled; kept what was recorded: ") : QString();
    const QString runs = outcome.runs.size() == 1 ? QObject::tr("1 run")
                                                  : QObject::tr("%1 runs").arg(outcome.runs.size());
    text += QObject::tr("%1 ended with %2 after %3; %4, %5 GPU ops")
                .arg(commandLine, QString::fromStdString(outcome.status.text()),
                     TimeFormat::duration(static_cast<double>(outcome.endedNs), 3), runs)
                .arg(gpuOps);
    if (!problems.isEmpty())
        text += QStringLiteral("\n") + problems.join(QStringLiteral("\n"));
    *ok = !outcome.cancelled && problems.isEmpty();
    return text;
}

} // namespace

ProfileController::ProfileController(TraceDocument* document, QObject* parent)
    : QObject(parent), m_document(document)
{
    if (document)
        connect(document, &TraceDocument::reset, this, &ProfileController::onDocumentReset);
}

ProfileController::~ProfileController()
{
    // Blocks the GUI thread, but only here (the window cancels and waits for
    // finished() before it closes): the program is stopped as Cancel would,
    // then killed, and its runs' results addressed to us are dropped with us.
    if (m_running) {
        m_stop.request(); // SIGINT
        const auto deadline = std::chrono::steady_clock::now() + m_stopGrace;
        while (m_inProfile.load() && std::chrono::steady_clock::now() < deadline)
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        m_stop.request(); // SIGTERM
        m_stop.request(); // SIGKILL
    }
    m_worker.waitForJobs();
}

bool ProfileController::start(const ProfileRequest& request)
{
    if (m_running) {
        emit refused(tr("a program is already being profiled"));
        return false;
    }
    if (const QString problem = request.problem(); !problem.isEmpty()) {
        emit refused(problem);
        return false;
    }
    m_stop.reset();
    m_running = true;
    m_runs.clear();
    m_dropped = false;
    const QString commandLine = request.commandLine();
    m_tool = std::string("overlapscope ") + OVERLAPSCOPE_VERSION + " profile -- " + commandLine.toStdString();
    profile::ProfileRequest core = request.toCore();
    core.stopGrace = m_stopGrace;
    m_inProfile.store(true); // from here: the job may not have begun when the destructor runs
    emit started();
    m_worker.post([this, core, commandLine]() -> BackgroundWorker::Delivery {
        LiveProfileSink sink;
        connect(&sink, &LiveProfileSink::runBegan, this, &ProfileController::onRunBegan, Qt::QueuedConnection);
        connect(&sink, &LiveProfileSink::laneArrived, this, &ProfileController::onLaneArrived, Qt::QueuedConnection);
        connect(&sink, &LiveProfileSink::opsArrived, this, &ProfileController::onOpsArrived, Qt::QueuedConnection);
        connect(&sink, &LiveProfileSink::runEnded, this, &ProfileController::onRunEnded, Qt::QueuedConnection);
        connect(&sink, &LiveProfileSink::progressed, this, &ProfileController::progress, Qt::QueuedConnection);
        connect(&sink, &LiveProfileSink::noticed, this, &ProfileController::progress, Qt::QueuedConnection);
        connect(&sink, &LiveProfileSink::workDone, this, &ProfileController::onWorkDone, Qt::QueuedConnection);
        // Nothing may escape this thread: every way out ends in workDone.
        bool ok = false;
        bool cancelled = false;
        QString message;
        try {
            const profile::ProfileOutcome outcome = profile::runProfile(core, &sink, m_stop, &sink);
            cancelled = outcome.cancelled;
            message = closingMessage(outcome, commandLine, &ok);
        } catch (const std::bad_alloc&) {
            message = tr("the profile stopped: out of host memory");
        } catch (const std::exception& e) {
            message = tr("the profile stopped on an unexpected error: %1").arg(QString::fromStdString(e.what()));
        } catch (...) {
            message = tr("the profile stopped on an unexpected error");
        }
        m_inProfile.store(false);
        sink.finish(ok, cancelled, message);
        return {};
    });
    return true;
}

void ProfileController::cancel()
{
    if (m_running)
        m_stop.request();
}

void ProfileController::onRunBegan(int run, const Run& header)
{
    if (!m_document || m_dropped)
        return;
    m_runs[run] = m_document->beginRun(header, m_tool);
}

void ProfileController::onLaneArrived(int run, const Lane& lane, int laneIndex)
{
    if (const auto it = m_runs.find(run); m_document && it != m_runs.end())
        m_document->addLane(it->second, lane, laneIndex);
}

void ProfileController::onOpsArrived(int run, const std::vector<Op>& ops, const std::vector<std::string>& newNames)
{
    if (const auto it = m_runs.find(run); m_document && it != m_runs.end()) {
        m_document->addNames(it->second, newNames);
        m_document->addOps(it->second, ops);
    }
}

void ProfileController::onRunEnded(int run, const Run& finished)
{
    if (!m_document || m_dropped)
        return;
    auto it = m_runs.find(run);
    if (it == m_runs.end())
        it = m_runs.emplace(run, m_document->beginRun(finished, m_tool)).first;
    m_document->finishRun(it->second, finished);
}

void ProfileController::onWorkDone(bool ok, bool cancelled, const QString& message)
{
    (void)cancelled;
    m_running = false;
    m_runs.clear();
    emit finished(ok, message);
}

void ProfileController::onDocumentReset()
{
    // The runs recorded so far went with the document; the rest of this
    // profile has no place in the new one.
    if (m_running) {
        m_dropped = true;
        m_runs.clear();
    }
}

} // namespace ovs::ui
