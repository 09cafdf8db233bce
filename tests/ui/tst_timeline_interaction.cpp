#include "timeline/TimelineInteraction.h"

#include <QTest>

#include <limits>

using ovs::ui::AxisSpan;
using ovs::ui::OpRef;
using ovs::ui::RegionRef;
using ovs::ui::TimeAxisMapping;
using ovs::ui::TimelineInteraction;
using ovs::ui::ViewState;
using Button = TimelineInteraction::Button;
using Command = TimelineInteraction::Command;
using Modifiers = TimelineInteraction::Modifiers;

Q_DECLARE_METATYPE(TimelineInteraction::Button)
Q_DECLARE_METATYPE(TimelineInteraction::Command)

namespace {

// The view [10'000, 20'000] ns over a 100'000 ns extent, drawn on the
// column x in [100, 1100]: 10 ns a pixel, so x = 100 + (t - 10'000) / 10.
constexpr qint64 kStart = 10'000;
constexpr qint64 kEnd = 20'000;

TimeAxisMapping mappingOf(const ViewState& view)
{
    TimeAxisMapping m;
    m.startNs = view.visibleStartNs();
    m.endNs = view.visibleEndNs();
    m.left = 100;
    m.width = 1000;
    return m;
}

void setUp(ViewState& view)
{
    view.setExtent(100'000);
    view.setVisibleRange(kStart, kEnd);
}

} // namespace

// The timeline's input rules, gesture by gesture, without a widget.
class TestTimelineInteraction : public QObject {
    Q_OBJECT

private slots:
    void drag_data()
    {
        QTest::addColumn<Button>("button");
        QTest::addColumn<bool>("control");
        QTest::addColumn<bool>("shift");
        QTest::addColumn<double>("from");
        QTest::addColumn<double>("to");
        QTest::addColumn<qint64>("expectedStart");
        QTest::addColumn<qint64>("expectedEnd");
        QTest::addColumn<qint64>("measureFrom"); // -1: no measurement
        QTest::addColumn<qint64>("measureTo");
        QTest::newRow("drag pans, grabbed instant follows")
            << Button::Left << false << false << 600.0 << 500.0 << qint64(11'000) << qint64(21'000) << qint64(-1)
            << qint64(-1);
        QTest::newRow("drag right pans back")
            << Button::Left << false << false << 500.0 << 700.0 << qint64(8'000) << qint64(18'000) << qint64(-1)
            << qint64(-1);
        QTest::newRow("pan stops at the start")
            << Button::Left << false << false << 100.0 << 1100.0 << qint64(0) << qint64(10'000) << qint64(-1)
            << qint64(-1);
        QTest::newRow("shift drag zooms to the band")
            << Button::Left << false << true << 300.0 << 500.0 << qint64(12'000) << qint64(14'000) << qint64(-1)
            << qint64(-1);
        QTest::newRow("right drag, backwards, zooms too")
            << Button::Right << false << false << 500.0 << 300.0 << qint64(12'000) << qint64(14'000) << qint64(-1)
            << qint64(-1);
        QTest::newRow("a 3 px band is a slip")
            << Button::Right << false << false << 500.0 << 503.0 << kStart << kEnd << qint64(-1) << qint64(-1);
        QTest::newRow("ctrl drag measures")
            << Button::Left << true << false << 200.0 << 700.0 << kStart << kEnd << qint64(11'000) << qint64(16'000);
        QTest::newRow("ctrl drag backwards measures ordered")
            << Button::Left << true << false << 700.0 << 200.0 << kStart << kEnd << qint64(11'000) << qint64(16'000);
        QTest::newRow("middle drag does nothing")
            << Button::Other << false << false << 200.0 << 700.0 << kStart << kEnd << qint64(-1) << qint64(-1);
    }
    void drag()
    {
        QFETCH(Button, button);
        QFETCH(bool, control);
        QFETCH(bool, shift);
        QFETCH(double, from);
        QFETCH(double, to);
        QFETCH(qint64, expectedStart);
        QFETCH(qint64, expectedEnd);
        QFETCH(qint64, measureFrom);
        QFETCH(qint64, measureTo);
        ViewState view;
        setUp(view);
        TimelineInteraction interaction(view);
        interaction.setMapping(mappingOf(view));
        interaction.press(from, button, Modifiers{control, shift});
        // As a widget does: the mapping follows the view between events.
        const double middle = (from + to) / 2;
        interaction.setMapping(mappingOf(view));
        interaction.move(middle, true);
        interaction.setMapping(mappingOf(view));
        interaction.move(to, true);
        interaction.setMapping(mappingOf(view));
        interaction.release(to, true, OpRef{0, 1, 2});
        QCOMPARE(view.visibleStartNs(), expectedStart);
        QCOMPARE(view.visibleEndNs(), expectedEnd);
        QCOMPARE(view.measurement().has_value(), measureFrom >= 0);
        if (measureFrom >= 0) {
            QCOMPARE(view.measurement()->first, measureFrom);
            QCOMPARE(view.measurement()->second, measureTo);
        }
        QVERIFY(!view.selection().isValid()); // a drag is no click
        QCOMPARE(interaction.drag(), TimelineInteraction::Drag::None);
    }

    void clicks_data()
    {
        QTest::addColumn<bool>("control");
        QTest::addColumn<bool>("hasHit");
        QTest::addColumn<bool>("expectSelected");
        QTest::addColumn<bool>("expectMeasurement");
        QTest::newRow("click on an op selects it") << false << true << true << true;
        QTest::newRow("click on empty space clears") << false << false << false << true;
        QTest::newRow("ctrl click clears the measurement") << true << true << false << false;
    }
    void clicks()
    {
        QFETCH(bool, control);
        QFETCH(bool, hasHit);
        QFETCH(bool, expectSelected);
        QFETCH(bool, expectMeasurement);
        ViewState view;
        setUp(view);
        view.setMeasurement(12'000, 13'000);
        TimelineInteraction interaction(view);
        interaction.setMapping(mappingOf(view));
        interaction.press(400, Button::Left, Modifiers{control, false});
        interaction.move(401, false);
        interaction.release(401, false, hasHit ? OpRef{0, 1, 2} : OpRef{});
        QCOMPARE(view.selection().isValid(), expectSelected);
        QCOMPARE(view.measurement().has_value(), expectMeasurement);
        QCOMPARE(view.visibleStartNs(), kStart);
    }

    // A click on the regions band selects the region and shows it framed;
    // a drag that starts there still pans, and selects nothing.
    void regionClicks_data()
    {
        QTest::addColumn<bool>("picked");
        QTest::addColumn<bool>("moved");
        QTest::addColumn<bool>("expectSelected");
        QTest::addColumn<qint64>("expectedStart");
        QTest::addColumn<qint64>("expectedEnd");
        QTest::newRow("click selects and zooms") << false << false << true << qint64(30'000) << qint64(40'000);
        QTest::newRow("drag pans instead") << false << true << false << qint64(9'000) << qint64(19'000);
        // Back to the judged span: the view stays where it is.
        QTest::newRow("click on the picked one puts it down") << true << false << false << kStart
                                                              << kEnd;
    }
    void regionClicks()
    {
        QFETCH(bool, picked);
        QFETCH(bool, moved);
        QFETCH(bool, expectSelected);
        QFETCH(qint64, expectedStart);
        QFETCH(qint64, expectedEnd);
        ViewState view;
        setUp(view);
        if (picked)
            view.setSelectedRegion(RegionRef{1, 4});
        TimelineInteraction interaction(view);
        interaction.setMapping(mappingOf(view));
        int picks = 0;
        QObject::connect(&view, &ViewState::regionSelected, [&](int run, int region) {
            ++picks;
            QCOMPARE((RegionRef{run, region}), (expectSelected ? RegionRef{1, 4} : RegionRef{}));
        });
        interaction.press(400, Button::Left, Modifiers{});
        interaction.move(moved ? 500 : 401, moved);
        interaction.release(moved ? 500 : 401, moved, RegionRef{1, 4}, AxisSpan{30'000, 40'000});
        QCOMPARE(view.selectedRegion().isValid(), expectSelected);
        QCOMPARE(picks, expectSelected || picked ? 1 : 0);
        QCOMPARE(view.visibleStartNs(), expectedStart);
        QCOMPARE(view.visibleEndNs(), expectedEnd);
        QCOMPARE(interaction.drag(), TimelineInteraction::Drag::None);
    }

    void commands_data()
    {
        QTest::addColumn<int>("key");
        QTest::addColumn<bool>("cursorInside");
        QTest::addColumn<qint64>("expectedStart");
        QTest::addColumn<qint64>("expectedEnd");
        // Zoom by 1.25 around the cursor at x = 300 (t = 12'000), else the centre.
        QTest::newRow("W zooms in at the cursor") << int(Qt::Key_W) << true << qint64(10'400) << qint64(18'400);
        QTest::newRow("+ zooms in at the centre") << int(Qt::Key_Plus) << false << qint64(11'000) << qint64(19'000);
        QTest::newRow("S zooms out") << int(Qt::Key_S) << false << qint64(8'750) << qint64(21'250);
        QTest::newRow("A pans left a tenth") << int(Qt::Key_A) << false << qint64(9'000) << qint64(19'000);
        QTest::newRow("Right pans right") << int(Qt::Key_Right) << false << qint64(11'000) << qint64(21'000);
        QTest::newRow("0 shows everything") << int(Qt::Key_0) << false << qint64(0) << qint64(102'000);
        QTest::newRow("Home shows everything") << int(Qt::Key_Home) << false << qint64(0) << qint64(102'000);
    }
    void commands()
    {
        QFETCH(int, key);
        QFETCH(bool, cursorInside);
        QFETCH(qint64, expectedStart);
        QFETCH(qint64, expectedEnd);
        ViewState view;
        setUp(view);
        TimelineInteraction interaction(view);
        interaction.setMapping(mappingOf(view));
        const auto command = TimelineInteraction::commandForKey(key);
        QVERIFY(command.has_value());
        QVERIFY(interaction.command(*command, cursorInside ? std::optional<double>(300) : std::nullopt));
        QCOMPARE(view.visibleStartNs(), expectedStart);
        QCOMPARE(view.visibleEndNs(), expectedEnd);
    }

    void keysWithoutCommands()
    {
        QVERIFY(!TimelineInteraction::commandForKey(Qt::Key_Q));
        QVERIFY(!TimelineInteraction::commandForKey(Qt::Key_Space));
    }

    void escapeClearsOneThingAtATime()
    {
        ViewState view;
        setUp(view);
        view.setSelection(OpRef{0, 0, 0});
        view.setSelectedRegion(RegionRef{0, 3});
        view.setMeasurement(1, 2);
        TimelineInteraction interaction(view);
        QVERIFY(interaction.command(Command::Escape, std::nullopt));
        QVERIFY(!view.measurement());
        QVERIFY(view.selection().isValid());
        QVERIFY(interaction.command(Command::Escape, std::nullopt));
        QVERIFY(!view.selection().isValid());
        QVERIFY(view.selectedRegion().isValid());
        QVERIFY(interaction.command(Command::Escape, std::nullopt));
        QVERIFY(!view.selectedRegion().isValid());
        QVERIFY(!interaction.command(Command::Escape, std::nullopt)); // left to the parent
    }

    void wheel_data()
    {
        QTest::addColumn<double>("horizontal");
        QTest::addColumn<double>("vertical");
        QTest::addColumn<bool>("control");
        QTest::addColumn<bool>("shift");
        QTest::addColumn<bool>("taken");
        QTest::addColumn<qint64>("expectedStart");
        QTest::addColumn<qint64>("expectedEnd");
        QTest::newRow("plain wheel scrolls the parent") << 0.0 << 1.0 << false << false << false << kStart << kEnd;
        QTest::newRow("ctrl wheel zooms at the cursor")
            << 0.0 << 1.0 << true << false << true << qint64(10'333) << qint64(18'667);
        QTest::newRow("shift wheel pans") << 0.0 << -1.0 << false << true << true << qint64(11'000) << qint64(21'000);
        QTest::newRow("horizontal wheel pans") << 1.0 << 0.0 << false << false << true << qint64(9'000) << qint64(19'000);
    }
    void wheel()
    {
        QFETCH(double, horizontal);
        QFETCH(double, vertical);
        QFETCH(bool, control);
        QFETCH(bool, shift);
        QFETCH(bool, taken);
        QFETCH(qint64, expectedStart);
        QFETCH(qint64, expectedEnd);
        ViewState view;
        setUp(view);
        TimelineInteraction interaction(view);
        interaction.setMapping(mappingOf(view));
        QCOMPARE(interaction.wheel(horizontal, vertical, Modifiers{control, shift}, 300.0), taken);
        QCOMPARE(view.visibleStartNs(), expectedStart);
        QCOMPARE(view.visibleEndNs(), expectedEnd);
    }

    void zoomToOpNearTheLimit()
    {
        // Times near 2^63 (a valid trace) must not overflow the margin.
        ViewState view;
        constexpr qint64 max = std::numeric_limits<qint64>::max();
        view.setExtent(max);
        TimelineInteraction interaction(view);
        interaction.zoomToOp(OpRef{0, 0, 0}, AxisSpan{max - 1'000, max});
        QCOMPARE(view.selection(), (OpRef{0, 0, 0}));
        QVERIFY(view.visibleEndNs() <= max);
        QVERIFY(view.visibleStartNs() < max - 1'000);
        QVERIFY(view.visibleEndNs() - view.visibleStartNs() >= ViewState::kMinimumSpanNs);
    }
};

QTEST_APPLESS_MAIN(TestTimelineInteraction)
#include "tst_timeline_interaction.moc"
