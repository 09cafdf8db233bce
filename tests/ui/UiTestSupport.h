#pragma once

// What the window's tests share: a settings store of their own, the GUI
// binary run as a user runs it, a window shown and active, ops for
// hand-built timelines. Header-only, like tests/TestOps.h.
#include "../TestOps.h"

#include "trace/Run.h"

#include <QCoreApplication>
#include <QProcess>
#include <QSettings>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>
#include <QWidget>

namespace ovs::test {

// Settings in `dir` (an INI file), under a test's own application name, so
// a test never reads or writes the user's.
inline bool useTemporarySettings(const QTemporaryDir& dir, const char* application)
{
    if (!dir.isValid())
        return false;
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.path());
    QCoreApplication::setOrganizationName(QStringLiteral("OverlapScopeTest"));
    QCoreApplication::setApplicationName(QString::fromLatin1(application));
    return true;
}

// Shows `window` and waits until it is exposed and active (keys go to it).
inline bool showActive(QWidget& window)
{
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        return false;
    window.activateWindow();
    return QTest::qWaitForWindowActive(&window);
}

// Runs this thread's event loop until every event posted to it before the
// call has been delivered: Qt delivers posted events in the order posted, so
// a marker posted now arrives after all of them. A test that must show that
// nothing more arrives (after a worker was joined, say) waits for this
// instead of waiting a while. False when the marker did not arrive in time.
inline bool deliverPostedEvents(int timeoutMs)
{
    bool delivered = false;
    QObject marker;
    QMetaObject::invokeMethod(&marker, [&delivered] { delivered = true; }, Qt::QueuedConnection);
    return QTest::qWaitFor([&delivered] { return delivered; }, timeoutMs);
}

// An op of chunk `chunk` on lane `lane`; copies move 1 MiB.
inline Op chunkOp(std::uint16_t lane, std::int64_t start, std::int64_t end, OpKind kind, int chunk)
{
    return makeOp(kind, lane, chunk, start, end, kind == OpKind::Kernel ? 0 : 1u << 20);
}

// A profiled run with regions, as issue 19's PyTorch loop has them: setup
// (a long cudaHostAlloc) from 0 to 100 us, a capture range over the loop
// (no thread), two profiler steps on the host thread with an "h2d"
// annotation nested in the first, kernels on a stream under each step, and
// teardown to 500 us. Regions, by index: 0 capture, 1 ProfilerStep#0,
// 2 h2d, 3 ProfilerStep#1.
inline Run regionsRun()
{
    Run run;
    run.name = "profiled loop";
    run.pipeline = "profile";
    run.timing = "cupti";
    run.device.name = "Test GPU";
    run.verification.message = "not verified: a profiled program checks its own results";
    run.lanes = {Lane{"host thread", LaneKind::HostThread}, Lane{"stream 7", LaneKind::Stream}};
    run.ops = {makeOp(OpKind::ApiCall, 0, -1, 0, 100'000, 0), makeOp(OpKind::Kernel, 1, 0, 220'000, 280'000, 0),
               makeOp(OpKind::Kernel, 1, 1, 320'000, 380'000, 0), makeOp(OpKind::Free, 0, -1, 450'000, 500'000, 0)};
    run.regions = {{"capture", 150'000, 420'000, Region::kNoLane, 0, RegionSource::ProfilerRange},
                   {"ProfilerStep#0", 200'000, 300'000, 0, 0, RegionSource::ProfilerStep},
                   {"h2d", 210'000, 240'000, 0, 1, RegionSource::Annotation},
                   {"ProfilerStep#1", 300'000, 400'000, 0, 0, RegionSource::ProfilerStep}};
    run.timedBeginNs = 0;
    run.timedEndNs = 500'000;
    run.sortOps();
    return run;
}

#ifdef OVERLAPSCOPE_GUI_PATH
// The GUI binary as a user on a server runs it: no display and no platform
// chosen, so `export` must pick offscreen by itself. exitCode is -1 when it
// crashed or did not finish within `timeoutMs`.
struct GuiResult {
    int exitCode = -1;
    QString out;
    QString err;
};

inline GuiResult runGui(const QStringList& args, int timeoutMs)
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    env.remove(QStringLiteral("DISPLAY"));
    process.setProcessEnvironment(env);
    process.start(QStringLiteral(OVERLAPSCOPE_GUI_PATH), args);
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        return {};
    }
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
            QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError())};
}
#endif

} // namespace ovs::test
