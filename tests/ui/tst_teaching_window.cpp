// Replay and presentation mode as a teacher drives them in the window: the
// View menu's actions and their keys (headless, offscreen).
#include "../TestTimeouts.h"
#include "UiTestSupport.h"

#include "document/TraceDocument.h"
#include "document/ViewState.h"
#include "panels/SummaryPanel.h"
#include "style/Theme.h"
#include "timeline/TimelinePlot.h"
#include "window/AppSetup.h"
#include "window/MainWindow.h"
#include "window/PresentationMode.h"
#include "window/ReplayController.h"
#include "window/ThemeMenu.h"

#include <QAction>
#include <QDockWidget>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

using namespace ovs;
using namespace ovs::ui;

namespace {

QString sourceTrace()
{
    return QString(OVERLAPSCOPE_SOURCE_DIR) + "/docs/traces/sim-h200-seed-defaults.json";
}

QAction* action(MainWindow& window, const char* name)
{
    return window.findChild<QAction*>(QString::fromLatin1(name));
}

} // namespace

class TestTeachingWindow : public QObject {
    Q_OBJECT

    QTemporaryDir m_settingsDir;

    void openAndShow(MainWindow& window)
    {
        window.setInteractive(false);
        QVERIFY(ovs::test::showActive(window));
        window.openTrace(sourceTrace());
        QTRY_COMPARE_WITH_TIMEOUT(window.document()->runCount(), 2, ovsTestTimeoutMs(10000));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(ovs::test::useTemporarySettings(m_settingsDir, "tst_teaching_window"));
        setUpApplicationFont();
    }

    void presentationScalesAndLeavesWithEsc()
    {
        MainWindow window;
        openAndShow(window);
        const double timelineBefore = window.timeline()->font().pointSizeF();
        const double summaryBefore = window.summaryPanel()->font().pointSizeF();
        const int rowBefore = window.timeline()->rowHeight();
        QVERIFY(timelineBefore > 0);

        QAction* toggle = action(window, "presentationAction");
        QVERIFY(toggle);
        QCOMPARE(toggle->shortcut(), QKeySequence(Qt::Key_F5));
        // The panels presentation mode hides: those on screen but the
        // findings and summary (the Lessons dock stays too, and is hidden
        // anyway until a lesson is picked: tst_lesson_window; the Run panel
        // is put away for a trace, the Ranks dock until a folder opens).
        QList<QDockWidget*> docks;
        for (QDockWidget* dock : window.findChildren<QDockWidget*>())
            if (!dock->property(PresentationMode::kKeepDockProperty).toBool() && dock->isVisible())
                docks << dock;
        QVERIFY(docks.contains(window.dock("details")));
        QVERIFY(window.dock("findings")->isVisible());
        QTest::keyClick(&window, Qt::Key_F5);
        QVERIFY(window.presentation()->isActive());
        QVERIFY(window.windowState() & Qt::WindowFullScreen);
        for (QDockWidget* dock : docks)
            QVERIFY(!dock->isVisible()); // the timeline, findings and summary get the screen
        QVERIFY(window.dock("findings")->isVisible());
        // At least 1.5x: the timeline (axis, labels, legend take its font),
        // its rows, and the summary.
        QVERIFY(window.timeline()->font().pointSizeF() >= 1.5 * timelineBefore);
        QVERIFY(window.summaryPanel()->font().pointSizeF() >= 1.5 * summaryBefore);
        QVERIFY(window.timeline()->rowHeight() >= 1.4 * rowBefore);
        // High contrast: pure black and white.
        const QPalette p = window.timeline()->palette();
        const bool dark = Theme::paletteIsDark(QApplication::palette());
        QCOMPARE(p.color(QPalette::Base), dark ? QColor(Qt::black) : QColor(Qt::white));
        QCOMPARE(p.color(QPalette::Text), dark ? QColor(Qt::white) : QColor(Qt::black));

        QTest::keyClick(&window, Qt::Key_Escape);
        QVERIFY(!window.presentation()->isActive());
        QVERIFY(!(window.windowState() & Qt::WindowFullScreen));
        for (QDockWidget* dock : docks)
            QVERIFY(dock->isVisible());
        QCOMPARE(window.timeline()->font().pointSizeF(), timelineBefore);
        QCOMPARE(window.summaryPanel()->font().pointSizeF(), summaryBefore);
        QCOMPARE(window.timeline()->palette().color(QPalette::Base), QApplication::palette().color(QPalette::Base));
    }

    void escOutsidePresentationKeepsClearingTheMeasurement()
    {
        MainWindow window;
        openAndShow(window);
        window.viewState()->setMeasurement(0, 1000);
        window.timeline()->setFocus();
        QTest::keyClick(window.timeline(), Qt::Key_Escape);
        QVERIFY(!window.viewState()->measurement());
    }

    void replayDrivesThePlayhead()
    {
        MainWindow window;
        openAndShow(window);
        QVERIFY(!window.viewState()->playhead());
        QAction* toggle = action(window, "replayAction");
        QVERIFY(toggle);
        QTest::keyClick(&window, Qt::Key_F6);
        ReplayController* replay = window.replay();
        QVERIFY(replay->isActive());
        QVERIFY(window.viewState()->playhead());
        QVERIFY(replay->state().isPlaying());
        QVERIFY(window.statusBar()->currentMessage().startsWith("Replay"));

        // Space pauses; Home to start; Right steps to the first op start
        // after 0 (checked against the document, lane by lane).
        QTest::keyClick(&window, Qt::Key_Space);
        QVERIFY(!replay->state().isPlaying());
        QTest::keyClick(&window, Qt::Key_Home);
        QCOMPARE(*window.viewState()->playhead(), std::int64_t(0));
        std::int64_t firstAfterZero = std::numeric_limits<std::int64_t>::max();
        for (int r = 0; r < window.document()->runCount(); ++r)
            for (int l = 0; l < window.document()->run(r).laneCount(); ++l)
                for (const Op& op : window.document()->run(r).laneOps(l))
                    if (op.startNs > 0)
                        firstAfterZero = std::min(firstAfterZero, op.startNs);
        QTest::keyClick(&window, Qt::Key_Right);
        QCOMPARE(*window.viewState()->playhead(), firstAfterZero);
        QTest::keyClick(&window, Qt::Key_Right);
        QVERIFY(*window.viewState()->playhead() > firstAfterZero);
        QTest::keyClick(&window, Qt::Key_Left);
        QCOMPARE(*window.viewState()->playhead(), firstAfterZero);

        QTest::keyClick(&window, Qt::Key_Plus);
        QCOMPARE(replay->state().speed(), 2.0);
        QTest::keyClick(&window, Qt::Key_Minus);
        QTest::keyClick(&window, Qt::Key_Minus);
        QCOMPARE(replay->state().speed(), 0.5);

        // Playing moves the playhead as the timer ticks.
        QTest::keyClick(&window, Qt::Key_Space);
        QTRY_VERIFY_WITH_TIMEOUT(*window.viewState()->playhead() > 0, ovsTestTimeoutMs(5000));

        // Leaving removes the playhead; Left and Right pan the timeline again.
        QTest::keyClick(&window, Qt::Key_F6);
        QVERIFY(!replay->isActive());
        QVERIFY(!window.viewState()->playhead());
        window.timeline()->setFocus();
        window.viewState()->zoom(4, window.viewState()->extentNs() / 2);
        const auto start = window.viewState()->visibleStartNs();
        QTest::keyClick(window.timeline(), Qt::Key_Right);
        QVERIFY(window.viewState()->visibleStartNs() > start);
    }

    void replayWorksInPresentationMode()
    {
        MainWindow window;
        openAndShow(window);
        QTest::keyClick(&window, Qt::Key_F5);
        QTest::keyClick(&window, Qt::Key_F6);
        QVERIFY(window.presentation()->isActive());
        QVERIFY(window.replay()->isActive());
        QTest::keyClick(&window, Qt::Key_Space); // pause
        QTest::keyClick(&window, Qt::Key_Home);
        QTest::keyClick(&window, Qt::Key_Right);
        QVERIFY(*window.viewState()->playhead() > 0);
        // OVS_TEACHING_SHOTS=DIR keeps a picture of the window, to look at.
        if (const QString dir = qEnvironmentVariable("OVS_TEACHING_SHOTS"); !dir.isEmpty()) {
            window.resize(1600, 1000);
            QTest::keyClick(&window, Qt::Key_Right);
            QTest::keyClick(&window, Qt::Key_Right);
            QTest::keyClick(&window, Qt::Key_Right);
            QCoreApplication::processEvents();
            QVERIFY(window.grab().save(dir + "/presentation-replay.png"));
        }
        QTest::keyClick(&window, Qt::Key_Escape); // leaves presentation, replay stays
        QVERIFY(!window.presentation()->isActive());
        QVERIFY(window.replay()->isActive());
    }

    void themeMenuAppliesAndRemembers()
    {
        QSettings().remove("view/theme");
        MainWindow window;
        auto* menu = window.findChild<ThemeMenu*>("themeMenu");
        QVERIFY(menu);
        QCOMPARE(menu->choice(), ThemeChoice::System);
        action(window, "theme-dark")->trigger();
        QVERIFY(Theme::paletteIsDark(QApplication::palette()));
        // Widgets receive the application palette through the event loop.
        QTRY_VERIFY_WITH_TIMEOUT(Theme::paletteIsDark(window.timeline()->palette()), ovsTestTimeoutMs(5000));
        QCOMPARE(Theme::load(), ThemeChoice::Dark);
        // The charts follow: a dark background and light tick labels.
        for (auto* chart : window.findChildren<QCustomPlot*>()) {
            if (qobject_cast<TimelinePlot*>(chart))
                continue;
            QTRY_VERIFY_WITH_TIMEOUT(chart->toPixmap(300, 200).toImage().pixelColor(1, 1).lightness() < 64, ovsTestTimeoutMs(5000));
            QVERIFY(chart->xAxis->tickLabelColor().lightness() > 192);
        }
        if (const QString dir = qEnvironmentVariable("OVS_TEACHING_SHOTS"); !dir.isEmpty()) {
            openAndShow(window);
            QCoreApplication::processEvents();
            QVERIFY(window.grab().save(dir + "/window-dark.png"));
        }
        {
            MainWindow second; // a new window starts with the remembered theme
            QCOMPARE(second.findChild<ThemeMenu*>("themeMenu")->choice(), ThemeChoice::Dark);
            QVERIFY(action(second, "theme-dark")->isChecked());
        }
        action(window, "theme-light")->trigger();
        QVERIFY(!Theme::paletteIsDark(QApplication::palette()));
        QCOMPARE(Theme::load(), ThemeChoice::Light);
        for (auto* chart : window.findChildren<QCustomPlot*>())
            if (!qobject_cast<TimelinePlot*>(chart))
                QTRY_VERIFY_WITH_TIMEOUT(chart->toPixmap(300, 200).toImage().pixelColor(1, 1).lightness() > 192, ovsTestTimeoutMs(5000));
    }
};

QTEST_MAIN(TestTeachingWindow)
#include "tst_teaching_window.moc"
