// The Lessons panel in the window, as a teacher uses it (headless,
// offscreen): pick a lesson from the menu, predict, run it on the
// simulator with small runs, step through what to look at to the verdict;
// cancel mid-lesson; step with the keys in presentation mode.
// OVS_LESSON_DEVICE=cuda runs the same on a GPU.
#include "../TestTimeouts.h"
#include "UiTestSupport.h"

#include "charts/LessonSweepChart.h"
#include "document/LessonSession.h"
#include "document/TraceDocument.h"
#include "document/ViewState.h"
#include "export/LessonSlides.h"
#include "panels/LessonPanel.h"
#include "timeline/LessonCallouts.h"
#include "timeline/TimelinePlot.h"
#include "window/AppSetup.h"
#include "window/LessonController.h"
#include "window/MainWindow.h"
#include "window/PresentationMode.h"
#include "window/ReplayController.h"
#include "workers/RunController.h"

#include <QAction>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

using namespace ovs;
using namespace ovs::ui;

namespace {

QPushButton* button(MainWindow& window, const char* name)
{
    return window.lessons()->panel()->findChild<QPushButton*>(QString::fromLatin1(name));
}

// The simulated H200 unless OVS_LESSON_DEVICE names another (cuda, on a GPU).
QString device()
{
    return qEnvironmentVariable("OVS_LESSON_DEVICE", QStringLiteral("sim:h200"));
}

bool simulated()
{
    return device().startsWith("sim");
}

// Small runs, as tst_lessons runs them: the simulator moves the data for real.
LessonOptions small()
{
    LessonOptions options;
    options.chunkBytes = 2ull << 20;
    return options;
}

} // namespace

class TestLessonWindow : public QObject {
    Q_OBJECT

    QTemporaryDir m_settingsDir;

    void show(MainWindow& window)
    {
        window.setInteractive(false);
        window.resize(1600, 1000);
        QVERIFY(ovs::test::showActive(window));
        window.lessons()->setDeviceSpec(device().toStdString());
    }

    // Opens a lesson from the Lessons menu, picks `choice` and presses Run.
    void openAndRun(MainWindow& window, const QString& id, const QString& choice)
    {
        QAction* open = window.findChild<QAction*>("lesson_" + id);
        QVERIFY(open);
        open->trigger();
        LessonSession* session = window.lessons()->session();
        QCOMPARE(session->stage(), LessonStage::Intro);
        QVERIFY(window.lessons()->dock()->isVisible());
        QVERIFY(!button(window, "lessonRun")->isVisible()); // the question first
        QTest::mouseClick(button(window, "lessonNext"), Qt::LeftButton);
        QCOMPARE(session->stage(), LessonStage::Predict);
        QVERIFY(!button(window, "lessonRun")->isEnabled()); // nothing picked yet
        auto* radio = window.lessons()->panel()->findChild<QRadioButton*>("lessonChoice_" + choice);
        QVERIFY(radio);
        QVERIFY(radio->isVisible());
        QVERIFY(radio->isEnabled());
        // On its indicator: a radio button takes clicks on its box and text only.
        QTest::mouseClick(radio, Qt::LeftButton, {}, QPoint(8, radio->height() / 2));
        QCOMPARE(QString::fromStdString(session->choice()), choice);
        QVERIFY(button(window, "lessonRun")->isEnabled());
        if (const QString dir = qEnvironmentVariable("OVS_LESSON_SHOTS"); !dir.isEmpty()) {
            QCoreApplication::processEvents();
            QVERIFY(window.grab().save(dir + "/lesson-predict-" + id + ".png"));
        }
        QTest::mouseClick(button(window, "lessonRun"), Qt::LeftButton);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(ovs::test::useTemporarySettings(m_settingsDir, "tst_lesson_window"));
        setUpApplicationFont();
    }

    void menuListsTheLessonsInCourseOrder()
    {
        MainWindow window;
        QMenu* menu = window.findChild<QMenu*>("lessonsMenu");
        QVERIFY(menu);
        QVERIFY(window.menuBar()->actions().contains(menu->menuAction()));
        QStringList ids;
        for (QAction* a : menu->actions())
            if (a->objectName().startsWith("lesson_"))
                ids << a->objectName().mid(7);
        QStringList expected;
        for (const Lesson& lesson : lessons())
            expected << QString::fromStdString(lesson.id);
        QCOMPARE(ids, expected);
        QVERIFY(ids.size() >= 10);
        QVERIFY(!window.lessons()->dock()->isVisible()); // until a lesson is picked
    }

    void runsALessonToItsVerdict()
    {
        MainWindow window;
        show(window);
        window.lessons()->setOptions(small());
        // The GUI thread's event loop, seen from a timer: it must keep
        // turning while the lesson runs (the run is on the worker).
        int ticksWhileRunning = 0;
        qint64 longestGapMs = 0; // printed, not judged: timings vary with the machine
        QElapsedTimer sinceTick;
        sinceTick.start();
        QTimer beat;
        connect(&beat, &QTimer::timeout, [&] {
            if (window.lessons()->session()->stage() == LessonStage::Running) {
                ++ticksWhileRunning;
                longestGapMs = std::max(longestGapMs, sinceTick.elapsed());
            }
            sinceTick.restart();
        });
        beat.start(5);
        bool sawLiveRun = false;
        connect(window.document(), &TraceDocument::runChanged, [&](int run) {
            sawLiveRun = sawLiveRun || window.document()->run(run).isLive();
        });

        openAndRun(window, "one-vs-several-streams", "b");
        LessonSession* session = window.lessons()->session();
        // Run returned at once: the lesson is running on the worker.
        QCOMPARE(session->stage(), LessonStage::Running);
        QVERIFY(window.runController()->isRunning());
        QVERIFY(button(window, "lessonCancel")->isVisible());
        QTRY_COMPARE_WITH_TIMEOUT(session->stage(), LessonStage::Focus, ovsTestTimeoutMs(60000));
        QVERIFY(sawLiveRun);       // the timeline filled while it ran
        QVERIFY(ticksWhileRunning > 0);
        qInfo("GUI event loop while the lesson ran: %d ticks of 5 ms, longest gap %lld ms", ticksWhileRunning,
              longestGapMs);
        QTRY_VERIFY_WITH_TIMEOUT(!window.runController()->isRunning(), ovsTestTimeoutMs(5000));

        const LessonResult* result = session->result();
        QVERIFY(result);
        QVERIFY(result->judged);
        QCOMPARE(result->device.simulated, simulated());
        // The document is the lesson's runs, in order, captioned; no calibration run.
        QCOMPARE(window.document()->runCount(), static_cast<int>(result->measured.runs.size()));
        QVERIFY(result->calibration.size() == 1);
        for (int i = 0; i < window.document()->runCount(); ++i)
            QCOMPARE(window.document()->run(i).run().name, result->measured.runs[static_cast<std::size_t>(i)].caption);
        QVERIFY(window.lessons()->documentHoldsResult());
        const QString deviceLine = window.lessons()->panel()->findChild<QLabel*>("lessonDevice")->text();
        QVERIFY(deviceLine.contains(QString::fromStdString(result->device.label())));
        QCOMPARE(deviceLine.contains("not from a measurement"), simulated());
        QCOMPARE(deviceLine.contains("(measured)"), !simulated());

        // Each focus: its callout in the panel, its ops outlined, the view on them.
        QVERIFY(!session->focusSteps().empty());
        for (std::size_t step = 0; step < session->focusSteps().size(); ++step) {
            QCOMPARE(session->stage(), LessonStage::Focus);
            const ResolvedFocus& focus = result->focus[static_cast<std::size_t>(session->currentFocus())];
            QVERIFY(window.lessons()->panel()->bodyText().contains(QString::fromStdString(focus.callout)));
            const auto& outlined = window.viewState()->highlight();
            QCOMPARE(outlined.size(), focus.ops.size());
            for (const OpRef& ref : outlined) {
                QCOMPARE(ref.run, focus.runIndex);
                const Op& op = window.document()->run(ref.run).laneOps(ref.lane)[static_cast<std::size_t>(ref.index)];
                QVERIFY(op.startNs >= focus.startNs && op.endNs <= focus.endNs);
            }
            // The view is in axis time: the lesson aligns its runs at their timed regions.
            QVERIFY(window.document()->alignTimedRegions());
            const std::int64_t offset = window.document()->displayOffsetNs(focus.runIndex);
            QVERIFY(window.viewState()->visibleStartNs() <= focus.startNs + offset);
            QVERIFY(window.viewState()->visibleEndNs() >= focus.endNs + offset);
            QVERIFY(window.viewState()->visibleEndNs() - window.viewState()->visibleStartNs() <
                    window.viewState()->extentNs()); // zoomed in
            // Framed as its slide frames it (TimeFrame, one policy for both).
            const AxisSpan slide = LessonSlides::timelineView(*window.document(), *result, session->currentFocus());
            ViewState asOnTheSlide;
            asOnTheSlide.setExtent(window.viewState()->extentNs());
            asOnTheSlide.setVisibleRange(slide.startNs, slide.endNs);
            QCOMPARE(window.viewState()->visibleStartNs(), asOnTheSlide.visibleStartNs());
            QCOMPARE(window.viewState()->visibleEndNs(), asOnTheSlide.visibleEndNs());
            QCOMPARE(window.lessons()->shownFocus(), std::vector<int>{session->currentFocus()});
            // Drawn: the band over the focus on its run and its callout.
            const LessonCallouts* callouts = LessonCallouts::of(*window.timeline());
            QVERIFY(callouts);
            QCOMPARE(callouts->callouts().size(), std::size_t(1));
            QCOMPARE(callouts->callouts().front().run, focus.runIndex);
            QCOMPARE(callouts->callouts().front().text, QString::fromStdString(focus.callout));
            QCOMPARE(callouts->callouts().front().startNs, focus.startNs);
            QCOMPARE(callouts->callouts().front().endNs, focus.endNs);
            window.timeline()->replot();
            QVERIFY(!callouts->boxes().front().isEmpty()); // on screen
            QTest::mouseClick(button(window, "lessonNext"), Qt::LeftButton);
        }

        // The verdict: the prediction against the answer, why, the checks
        // with their measured values, the takeaway with numbers in it.
        QCOMPARE(session->stage(), LessonStage::Results);
        const QString text = window.lessons()->panel()->bodyText();
        QVERIFY2(text.contains("You predicted b) about 1.5x"), qPrintable(text));
        QVERIFY(text.contains("the answer is " + session->choiceText(result->verdict.answer)) ||
                text.contains("right, that is the answer"));
        QVERIFY(text.contains(QString::fromStdString(result->verdict.why)));
        for (const LessonCheck& check : result->verdict.checks)
            QVERIFY(text.contains(QString::fromStdString(check.measured)));
        QVERIFY(!result->takeaway.empty());
        QVERIFY(result->takeaway.find('{') == std::string::npos); // every number filled in
        QVERIFY(text.contains(QString::fromStdString(result->takeaway)));
        QCOMPARE(window.lessons()->shownFocus(), session->focusSteps());
        QCOMPARE(LessonCallouts::of(*window.timeline())->callouts().size(), session->focusSteps().size());
        QVERIFY(!window.viewState()->highlight().empty());

        // A click on a focus in the list zooms back to it.
        const std::int64_t wideSpan = window.viewState()->visibleEndNs() - window.viewState()->visibleStartNs();
        emit window.lessons()->panel()->focusPicked(0);
        QCOMPARE(session->stage(), LessonStage::Focus);
        QVERIFY(window.viewState()->visibleEndNs() - window.viewState()->visibleStartNs() < wideSpan);

        // Replay (F6) plays the lesson's runs.
        QTest::keyClick(&window, Qt::Key_F6);
        QVERIFY(window.replay()->isActive());
        QVERIFY(window.replay()->state().extentNs() > 0);
        QTest::keyClick(&window, Qt::Key_F6);

        // OVS_LESSON_SHOTS=DIR keeps pictures of the window, to look at.
        if (const QString dir = qEnvironmentVariable("OVS_LESSON_SHOTS"); !dir.isEmpty()) {
            QTest::mouseClick(button(window, "lessonNext"), Qt::LeftButton);
            QTest::mouseClick(button(window, "lessonNext"), Qt::LeftButton);
            QCoreApplication::processEvents();
            QVERIFY(window.grab().save(dir + "/lesson-results.png"));
            emit window.lessons()->panel()->focusPicked(0);
            QCoreApplication::processEvents();
            QVERIFY(window.grab().save(dir + "/lesson-focus.png"));
            QTest::keyClick(&window, Qt::Key_F5);
            QCoreApplication::processEvents();
            QTest::qWait(50); // the dock is resized once full screen
            QVERIFY(window.grab().save(dir + "/lesson-presentation.png"));
        }
    }

    // Every lesson, as the panel runs it: judged, its runs the document
    // (focus placed on the right ops), each focus drawn at the results.
    void everyLessonRunsInTheWindow_data()
    {
        QTest::addColumn<QString>("id");
        for (const Lesson& lesson : lessons())
            QTest::newRow(lesson.id.c_str()) << QString::fromStdString(lesson.id);
    }

    void everyLessonRunsInTheWindow()
    {
        QFETCH(QString, id);
        MainWindow window;
        show(window);
        window.lessons()->setOptions(small());
        QVERIFY(window.lessons()->openLesson(id));
        LessonSession* session = window.lessons()->session();
        QVERIFY(session->skipPrediction());
        QVERIFY(session->next()); // to the question
        QVERIFY(session->requestRun());
        QCOMPARE(session->stage(), LessonStage::Running);
        QTRY_VERIFY_WITH_TIMEOUT(session->stage() != LessonStage::Running, ovsTestTimeoutMs(120000));
        const LessonResult* result = session->result();
        QVERIFY(result);
        QVERIFY2(result->judged, result->notJudged.c_str());
        QVERIFY(window.lessons()->documentHoldsResult());
        QCOMPARE(window.document()->runCount(), static_cast<int>(result->measured.runs.size()));
        QCOMPARE(window.document()->sweeps().size(), result->measured.sweeps.size());
        for (std::size_t step = 0; step < session->focusSteps().size(); ++step) {
            const ResolvedFocus& focus = result->focus[static_cast<std::size_t>(session->currentFocus())];
            QCOMPARE(window.viewState()->highlight().size(), std::min<std::size_t>(focus.ops.size(), 1000));
            QVERIFY(session->next());
        }
        QCOMPARE(session->stage(), LessonStage::Results);
        const LessonCallouts* callouts = LessonCallouts::of(*window.timeline());
        QCOMPARE(callouts ? callouts->callouts().size() : 0, session->focusSteps().size());
        const QString text = window.lessons()->panel()->bodyText();
        QVERIFY2(text.contains("the answer is"), qPrintable(text));
        QVERIFY(text.contains(QString::fromStdString(result->takeaway)));
        // The sweep's chart, for the lessons that declare one (chunk size,
        // kernel work), a point per run.
        const LessonSweepChart* chart = window.lessons()->panel()->sweepChart();
        QCOMPARE(chart->isVisible(), session->lesson()->swept != SweptParameter::None);
        if (chart->isVisible())
            QCOMPARE(chart->wallGraph()->dataCount(), static_cast<int>(result->measured.runs.size()));
        if (const QString dir = qEnvironmentVariable("OVS_LESSON_SHOTS"); !dir.isEmpty()) {
            QCoreApplication::processEvents();
            QVERIFY(window.grab().save(QStringLiteral("%1/lesson-%2.png").arg(dir, id)));
        }
    }

    void cancelKeepsTheRunsThatFinished()
    {
        MainWindow window;
        show(window);
        // On the simulator wherever it runs: a GPU can finish a lesson
        // before the window's cancel reaches it, and what Cancel keeps is
        // the window's and runLesson's, the same on every device.
        window.lessons()->setDeviceSpec("sim:h200");
        // Runs 4x the size of the other tests': the lesson is far from done
        // when the first run is back, so the cancel lands on a later one.
        LessonOptions larger;
        larger.chunkBytes = 4 * small().chunkBytes;
        window.lessons()->setOptions(larger);
        bool cancelled = false;
        connect(window.document(), &TraceDocument::runChanged, [&](int run) {
            if (!cancelled && !window.document()->run(run).isLive()) {
                cancelled = true;
                QTest::mouseClick(button(window, "lessonCancel"), Qt::LeftButton);
            }
        });
        openAndRun(window, "chunk-size", "a");
        LessonSession* session = window.lessons()->session();
        QTRY_COMPARE_WITH_TIMEOUT(session->stage(), LessonStage::Results, ovsTestTimeoutMs(120000));
        QVERIFY(cancelled);
        const LessonResult* result = session->result();
        QVERIFY(result);
        QVERIFY(result->outcome.cancelled);
        QVERIFY(!result->judged);
        QVERIFY(window.document()->runCount() >= 1);
        QCOMPARE(window.document()->runCount(), static_cast<int>(result->measured.runs.size()));
        QVERIFY(!window.document()->run(0).isLive());
        QCOMPARE(window.document()->run(0).run().status, RunStatus::Completed);
        const QString text = window.lessons()->panel()->bodyText();
        QVERIFY2(text.contains("No verdict") && text.contains("kept"), qPrintable(text));
        // The next lesson runs.
        window.lessons()->setOptions(small());
        QVERIFY(session->canRun());
        QTest::mouseClick(button(window, "lessonRun"), Qt::LeftButton);
        QCOMPARE(session->stage(), LessonStage::Running);
        QTRY_VERIFY_WITH_TIMEOUT(session->stage() != LessonStage::Running, ovsTestTimeoutMs(120000));
        QVERIFY(session->result()->judged);
    }

    void presentationKeysStepTheLesson()
    {
        MainWindow window;
        show(window);
        window.lessons()->setOptions(small());
        const double before = window.lessons()->panel()->findChild<QLabel*>("lessonBody")->font().pointSizeF();
        window.findChild<QAction*>("lesson_pageable-async-blocks")->trigger();
        LessonSession* session = window.lessons()->session();
        // Outside presentation mode the keys keep their timeline meaning.
        QTest::keyClick(&window, Qt::Key_Space);
        QCOMPARE(session->stage(), LessonStage::Intro);

        QTest::keyClick(&window, Qt::Key_F5);
        QVERIFY(window.presentation()->isActive());
        QVERIFY(window.lessons()->dock()->isVisible()); // the lesson stays on screen
        QVERIFY(window.lessons()->panel()->findChild<QLabel*>("lessonBody")->font().pointSizeF() >= 1.5 * before);
        QTest::keyClick(&window, Qt::Key_Space);
        QCOMPARE(session->stage(), LessonStage::Predict);
        QTest::keyClick(&window, Qt::Key_Left);
        QCOMPARE(session->stage(), LessonStage::Intro);
        QTest::keyClick(&window, Qt::Key_Right);
        QCOMPARE(session->stage(), LessonStage::Predict);
        QTest::keyClick(&window, Qt::Key_Space); // no choice yet: stays
        QCOMPARE(session->stage(), LessonStage::Predict);
        session->choose("b");
        QTest::keyClick(&window, Qt::Key_Space); // runs
        QCOMPARE(session->stage(), LessonStage::Running);
        QTRY_VERIFY_WITH_TIMEOUT(session->stage() != LessonStage::Running, ovsTestTimeoutMs(60000));
        const int steps = static_cast<int>(session->focusSteps().size());
        for (int i = 0; i < steps; ++i)
            QTest::keyClick(&window, Qt::Key_PageDown);
        QCOMPARE(session->stage(), LessonStage::Results);
        QTest::keyClick(&window, Qt::Key_Up);
        QCOMPARE(session->stage(), steps > 0 ? LessonStage::Focus : LessonStage::Predict);

        // While the replay runs, Space and the arrows are its own.
        QTest::keyClick(&window, Qt::Key_F6);
        const LessonStage stage = session->stage();
        QTest::keyClick(&window, Qt::Key_Right);
        QCOMPARE(session->stage(), stage);
        QTest::keyClick(&window, Qt::Key_F6);
        QTest::keyClick(&window, Qt::Key_Escape);
        QVERIFY(!window.presentation()->isActive());

        // A new document: the lesson's marks go with its runs, and the
        // panel says why nothing is drawn.
        QVERIFY(LessonCallouts::of(*window.timeline()));
        window.document()->clear();
        QVERIFY(!window.lessons()->documentHoldsResult());
        QVERIFY(!LessonCallouts::of(*window.timeline()));
        if (steps > 0) {
            QVERIFY(session->showFocus(0));
            QVERIFY(window.viewState()->highlight().empty());
            QVERIFY(!LessonCallouts::of(*window.timeline()));
            QVERIFY(window.lessons()->panel()->findChild<QLabel*>("lessonNote")->text().contains("Run again"));
        }
    }
};

QTEST_MAIN(TestLessonWindow)
#include "tst_lesson_window.moc"
