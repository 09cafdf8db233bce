#include "workers/RunController.h"

#include "document/TraceDocument.h"
#include "workers/LiveRunSink.h"

#include "devicefactory/DeviceFactory.h"
#include "jobs/JobRunner.h"
#include "lessons/Lesson.h"

#include <QStringList>

#include <memory>

namespace ovs::ui {

RunController::RunController(TraceDocument* document, QObject* parent) : QObject(parent), m_document(document)
{
    if (document)
        connect(document, &TraceDocument::reset, this, &RunController::onDocumentReset);
}

RunController::~RunController()
{
    // Blocks the GUI thread, but only here: the device must drain before its
    // buffers go, and the queued results addressed to this object are
    // discarded with it.
    m_cancel.cancel();
    m_runner.waitForJobs();
    m_lister.waitForJobs();
}

bool RunController::start(const RunRequest& request)
{
    if (m_running) {
        emit refused(tr("a run is already in progress"));
        return false;
    }
    if (const QString problem = request.problem(); !problem.isEmpty()) {
        emit refused(problem);
        return false;
    }
    begin();
    m_runner.post([this, request]() -> BackgroundWorker::Delivery {
        work(request); // ends with workDone, queued to onWorkDone
        return {};
    });
    return true;
}

bool RunController::startLesson(const LessonRequest& request)
{
    if (m_running) {
        emit refused(tr("a run is already in progress"));
        return false;
    }
    if (!findLesson(request.lessonId)) {
        emit refused(tr("no lesson named %1").arg(QString::fromStdString(request.lessonId)));
        return false;
    }
    begin();
    m_runner.post([this, request]() -> BackgroundWorker::Delivery {
        workLesson(request);
        return {};
    });
    return true;
}

void RunController::begin()
{
    m_cancel.reset();
    m_running = true;
    m_run = -1;
    m_sweep = -1;
    m_dropRun = false;
    m_dropSweep = false;
    emit started();
}

void RunController::cancel()
{
    if (m_running)
        m_cancel.cancel();
}

void RunController::queryDevices()
{
    if (isListingDevices())
        return;
    m_lister.post([this]() -> BackgroundWorker::Delivery {
        QList<DeviceListing> devices;
        try {
            for (const auto& device : listDevices())
                devices.append(device);
            // Several GPUs of one host: cuda:all and the simulated two-GPU hosts.
            for (const auto& device : multiDeviceListings())
                devices.append(device);
        } catch (const std::exception& e) {
            // The simulated presets need nothing from the machine: offer them
            // and say why the GPU could not be asked.
            devices.clear();
            devices.append({"cuda", "CUDA GPU", false, e.what()});
            for (const auto& device : simDeviceListings())
                devices.append(device);
            for (const auto& device : multiDeviceListings())
                if (device.available)
                    devices.append(device);
        }
        return [this, devices] { emit devicesListed(devices); };
    });
}

namespace {

QString closingMessage(const JobOutcome& outcome, const QString& deviceLabel)
{
    if (outcome.cancelled) {
        QString message = QObject::tr("cancelled; kept what was recorded");
        if (outcome.runsRequested > 0)
            message += QObject::tr(" (%1 of %2 runs completed)").arg(outcome.runsCompleted).arg(outcome.runsRequested);
        return message;
    }
    if (!outcome.problems.empty()) {
        QStringList problems;
        for (const auto& problem : outcome.problems)
            problems << QString::fromStdString(problem);
        return problems.join(QStringLiteral("; "));
    }
    QStringList parts;
    if (outcome.runsRequested > 0)
        parts << (outcome.runsVerified == 1 ? QObject::tr("1 run verified")
                                            : QObject::tr("%1 runs verified").arg(outcome.runsVerified));
    if (outcome.sweepCells >= 0)
        parts << QObject::tr("bandwidth sweep of %1 cells measured").arg(outcome.sweepCells);
    return QObject::tr("%1 on %2").arg(parts.join(QObject::tr(" and ")), deviceLabel);
}

} // namespace

void RunController::work(const RunRequest& request)
{
    const int jobs = static_cast<int>(request.pipelines.size()) + (request.runBench ? 1 : 0);
    LiveRunSink sink(jobs);
    connectSink(sink);

    // Nothing may escape this thread: every way out ends in workDone, sent
    // after the device (created in the inner scope) has been destroyed here.
    bool ok = false;
    QString message;
    try {
        JobOutcome outcome;
        QString deviceLabel;
        {
            // One device or several of one host (cuda:all, sim:h200x2): a
            // pipeline then spreads over them (runPipelineOnDevices).
            DeviceSet devices;
            try {
                sink.beginJob(0, tr("opening %1").arg(request.deviceSpec));
                devices = createDevices(request.deviceSpec.toStdString());
            } catch (const DeviceError& e) {
                sink.finish(false, QString::fromStdString(e.what()));
                return;
            }
            deviceLabel = QString::fromStdString(devices.at(0).info().label());
            if (devices.size() > 1)
                deviceLabel = tr("%1 GPUs (%2, ...)").arg(devices.size()).arg(deviceLabel);
            JobList jobs;
            jobs.pipelines = request.pipelines;
            if (request.runBench)
                jobs.sweep = request.bench;
            outcome = runJobs(devices, jobs, sink, m_cancel, [&sink](int index, const std::string& title) {
                sink.beginJob(index, QString::fromStdString(title));
            });
        }
        ok = outcome.ok();
        message = closingMessage(outcome, deviceLabel);
    } catch (const std::bad_alloc&) {
        message = tr("out of host memory");
    } catch (const std::exception& e) {
        message = tr("the run stopped on an unexpected error: %1").arg(QString::fromStdString(e.what()));
    } catch (...) {
        message = tr("the run stopped on an unexpected error");
    }
    sink.finish(ok, message);
}

void RunController::connectSink(LiveRunSink& sink)
{
    connect(&sink, &LiveRunSink::runBegan, this, &RunController::onRunBegan, Qt::QueuedConnection);
    connect(&sink, &LiveRunSink::laneArrived, this, &RunController::onLaneArrived, Qt::QueuedConnection);
    connect(&sink, &LiveRunSink::opsArrived, this, &RunController::onOpsArrived, Qt::QueuedConnection);
    connect(&sink, &LiveRunSink::runEnded, this, &RunController::onRunEnded, Qt::QueuedConnection);
    connect(&sink, &LiveRunSink::sweepBegan, this, &RunController::onSweepBegan, Qt::QueuedConnection);
    connect(&sink, &LiveRunSink::pointArrived, this, &RunController::onPointArrived, Qt::QueuedConnection);
    connect(&sink, &LiveRunSink::sweepEnded, this, &RunController::onSweepEnded, Qt::QueuedConnection);
    connect(&sink, &LiveRunSink::progressed, this, &RunController::progress, Qt::QueuedConnection);
    connect(&sink, &LiveRunSink::workDone, this, &RunController::onWorkDone, Qt::QueuedConnection);
    connect(&sink, &LiveRunSink::lessonArrived, this, &RunController::lessonFinished, Qt::QueuedConnection);
}

void RunController::workLesson(const LessonRequest& request)
{
    LiveRunSink sink(1);
    connectSink(sink);
    // The device is made and destroyed inside runLessonLive, before the
    // result and workDone are queued; both reach the GUI thread after every
    // run the sink sent, the result first.
    const LessonRunOutcome outcome = runLessonLive(request, sink, m_cancel);
    sink.lessonJudged(outcome.result);
    sink.finish(outcome.ok, outcome.message);
}

void RunController::onRunBegan(const Run& header)
{
    m_dropRun = false;
    m_run = m_document ? m_document->beginRun(header) : -1;
}

void RunController::onLaneArrived(const Lane& lane, int laneIndex)
{
    if (m_document && m_run >= 0)
        m_document->addLane(m_run, lane, laneIndex);
}

void RunController::onOpsArrived(const std::vector<Op>& ops)
{
    if (m_document && m_run >= 0)
        m_document->addOps(m_run, ops);
}

void RunController::onRunEnded(const Run& run)
{
    // A run refused before it began (no runBegan) still belongs in the
    // document, so the user sees why.
    if (m_document && !m_dropRun) {
        if (m_run < 0)
            m_run = m_document->beginRun(run);
        m_document->finishRun(m_run, run);
    }
    m_run = -1;
    m_dropRun = false;
}

void RunController::onSweepBegan(const BandwidthSweep& header)
{
    m_dropSweep = false;
    m_sweep = m_document ? m_document->beginSweep(header) : -1;
}

void RunController::onPointArrived(const BandwidthPoint& point)
{
    if (m_document && m_sweep >= 0)
        m_document->addBandwidthPoint(m_sweep, point);
}

void RunController::onSweepEnded(const BandwidthSweep& sweep)
{
    if (m_document && m_sweep >= 0 && !m_dropSweep)
        m_document->finishSweep(m_sweep, sweep);
    m_sweep = -1;
    m_dropSweep = false;
}

void RunController::onWorkDone(bool ok, const QString& message)
{
    m_running = false;
    m_run = -1;
    m_sweep = -1;
    emit finished(ok, message);
}

void RunController::onDocumentReset()
{
    if (!m_running)
        return;
    m_dropRun = m_run >= 0;
    m_dropSweep = m_sweep >= 0;
    m_run = -1;
    m_sweep = -1;
}

} // namespace ovs::ui
