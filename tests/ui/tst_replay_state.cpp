#include "document/ReplayState.h"

#include <QTest>

using ovs::ui::ReplayState;
using Lanes = std::vector<std::vector<std::int64_t>>;

Q_DECLARE_METATYPE(Lanes)

namespace {

// Three lanes, starts not sorted in lane 2 (ReplayState sorts), a start
// shared by two lanes (500), and an op at 0.
Lanes threeLanes()
{
    return {{0, 100, 500}, {50, 500, 900}, {700, 300}};
}

} // namespace

class TestReplayState : public QObject {
    Q_OBJECT

private slots:
    void startsPausedAtZero()
    {
        ReplayState state;
        state.setLanes(threeLanes(), 1000);
        QCOMPARE(state.playheadNs(), std::int64_t(0));
        QVERIFY(!state.isPlaying());
        QCOMPARE(state.speed(), 1.0);
        QVERIFY(state.hasAppeared(0));
        QVERIFY(!state.hasAppeared(1));
    }

    void stepNext_data()
    {
        QTest::addColumn<std::int64_t>("from");
        QTest::addColumn<std::int64_t>("expected");
        QTest::addColumn<bool>("moved");
        QTest::newRow("from 0: lane 1's 50") << std::int64_t(0) << std::int64_t(50) << true;
        QTest::newRow("between: the nearest across lanes") << std::int64_t(120) << std::int64_t(300) << true;
        QTest::newRow("on a start: the one after") << std::int64_t(300) << std::int64_t(500) << true;
        QTest::newRow("shared start counts once") << std::int64_t(500) << std::int64_t(700) << true;
        QTest::newRow("after the last op: stays") << std::int64_t(950) << std::int64_t(950) << false;
    }

    void stepNext()
    {
        QFETCH(std::int64_t, from);
        QFETCH(std::int64_t, expected);
        QFETCH(bool, moved);
        ReplayState state;
        state.setLanes(threeLanes(), 1000);
        state.setPlayhead(from);
        state.play();
        QCOMPARE(state.stepNext(), moved);
        QCOMPARE(state.playheadNs(), expected);
        QVERIFY(!state.isPlaying()); // stepping pauses
        QVERIFY(state.hasAppeared(expected));
    }

    void stepPrevious_data()
    {
        QTest::addColumn<std::int64_t>("from");
        QTest::addColumn<std::int64_t>("expected");
        QTest::addColumn<bool>("moved");
        QTest::newRow("end: the last start") << std::int64_t(1000) << std::int64_t(900) << true;
        QTest::newRow("on a start: the one before") << std::int64_t(500) << std::int64_t(300) << true;
        QTest::newRow("between") << std::int64_t(99) << std::int64_t(50) << true;
        QTest::newRow("at the first op: stays") << std::int64_t(0) << std::int64_t(0) << false;
    }

    void stepPrevious()
    {
        QFETCH(std::int64_t, from);
        QFETCH(std::int64_t, expected);
        QFETCH(bool, moved);
        ReplayState state;
        state.setLanes(threeLanes(), 1000);
        state.setPlayhead(from);
        QCOMPARE(state.stepPrevious(), moved);
        QCOMPARE(state.playheadNs(), expected);
    }

    void stepsWalkEveryDistinctStart()
    {
        ReplayState state;
        state.setLanes(threeLanes(), 1000);
        std::vector<std::int64_t> seen{state.playheadNs()};
        while (state.stepNext())
            seen.push_back(state.playheadNs());
        QCOMPARE(seen, (std::vector<std::int64_t>{0, 50, 100, 300, 500, 700, 900}));
        std::vector<std::int64_t> back;
        while (state.stepPrevious())
            back.push_back(state.playheadNs());
        QCOMPARE(back, (std::vector<std::int64_t>{700, 500, 300, 100, 50, 0}));
    }

    void advance_data()
    {
        QTest::addColumn<double>("speed");
        QTest::addColumn<double>("seconds");
        QTest::addColumn<std::int64_t>("expected");
        // 1x plays the whole extent (1 ms here) in kBaseSeconds (10 s).
        QTest::newRow("1x, 1 s") << 1.0 << 1.0 << std::int64_t(100'000);
        QTest::newRow("2x, 1 s") << 2.0 << 1.0 << std::int64_t(200'000);
        QTest::newRow("0.1x, 1 s") << 0.1 << 1.0 << std::int64_t(10'000);
        QTest::newRow("10x, 0.5 s") << 10.0 << 0.5 << std::int64_t(500'000);
        QTest::newRow("past the end stops there") << 10.0 << 5.0 << std::int64_t(1'000'000);
        QTest::newRow("speed clamped above") << 50.0 << 0.5 << std::int64_t(500'000);
        QTest::newRow("speed clamped below") << 0.001 << 1.0 << std::int64_t(10'000);
    }

    void advance()
    {
        QFETCH(double, speed);
        QFETCH(double, seconds);
        QFETCH(std::int64_t, expected);
        ReplayState state;
        state.setLanes({{0}}, 1'000'000);
        state.setSpeed(speed);
        state.play();
        state.advance(seconds);
        QCOMPARE(state.playheadNs(), expected);
        QCOMPARE(state.isPlaying(), expected < 1'000'000);
    }

    void slowTicksAccumulate()
    {
        // A 100 ns run at 0.1x: each 33 ms tick is 0.033 ns of playback, so
        // progress must carry over between ticks.
        ReplayState state;
        state.setLanes({{0, 50}}, 100);
        state.setSpeed(0.1);
        state.play();
        for (int i = 0; i < 100; ++i)
            state.advance(0.033);
        QCOMPARE(state.playheadNs(), std::int64_t(3)); // 100 * 0.033 * 0.1 * 100 / 10 = 3.3
    }

    void pausedDoesNotMove()
    {
        ReplayState state;
        state.setLanes(threeLanes(), 1000);
        QVERIFY(!state.advance(1.0));
        QCOMPARE(state.playheadNs(), std::int64_t(0));
    }

    void playFromTheEndRestarts()
    {
        ReplayState state;
        state.setLanes(threeLanes(), 1000);
        state.setPlayhead(5000); // clamped
        QCOMPARE(state.playheadNs(), std::int64_t(1000));
        QVERIFY(state.atEnd());
        state.togglePlaying();
        QVERIFY(state.isPlaying());
        QCOMPARE(state.playheadNs(), std::int64_t(0));
        state.togglePlaying();
        QVERIFY(!state.isPlaying());
    }

    void speedSteps_data()
    {
        QTest::addColumn<double>("start");
        QTest::addColumn<int>("steps"); // > 0 faster, < 0 slower
        QTest::addColumn<double>("expected");
        QTest::newRow("1 -> 2") << 1.0 << 1 << 2.0;
        QTest::newRow("1 -> 10") << 1.0 << 3 << 10.0;
        QTest::newRow("capped at 10") << 10.0 << 2 << 10.0;
        QTest::newRow("1 -> 0.5") << 1.0 << -1 << 0.5;
        QTest::newRow("1 -> 0.1") << 1.0 << -3 << 0.1;
        QTest::newRow("capped at 0.1") << 0.1 << -1 << 0.1;
        QTest::newRow("from between: 3 -> 5") << 3.0 << 1 << 5.0;
        QTest::newRow("from between: 3 -> 2") << 3.0 << -1 << 2.0;
    }

    void speedSteps()
    {
        QFETCH(double, start);
        QFETCH(int, steps);
        QFETCH(double, expected);
        ReplayState state;
        state.setSpeed(start);
        for (int i = 0; i < std::abs(steps); ++i)
            steps > 0 ? state.faster() : state.slower();
        QCOMPARE(state.speed(), expected);
    }

    void toStartAndUpdateKeepState()
    {
        ReplayState state;
        state.setLanes(threeLanes(), 1000);
        state.setSpeed(5);
        state.setPlayhead(600);
        state.updateLanes({{0, 10}}, 400); // the document shrank under the replay
        QCOMPARE(state.playheadNs(), std::int64_t(400));
        QCOMPARE(state.speed(), 5.0);
        state.toStart();
        QCOMPARE(state.playheadNs(), std::int64_t(0));
        QVERIFY(state.stepNext());
        QCOMPARE(state.playheadNs(), std::int64_t(10));
    }

    void emptyDocument()
    {
        ReplayState state;
        state.setLanes({}, 0);
        state.play();
        QVERIFY(!state.isPlaying());
        QVERIFY(!state.stepNext());
        QVERIFY(!state.stepPrevious());
        QVERIFY(!state.advance(1));
    }

    void millionOpsStepFast()
    {
        // 1M ops in 8 lanes: each step is a binary search per lane. The
        // check is that every step lands on the right op, not a timing.
        Lanes lanes(8);
        for (int i = 0; i < 1'000'000; ++i)
            lanes[static_cast<std::size_t>(i % 8)].push_back(std::int64_t(i) * 10);
        ReplayState state;
        state.setLanes(std::move(lanes), 10'000'000);
        state.setPlayhead(5'000'005);
        QVERIFY(state.stepNext());
        QCOMPARE(state.playheadNs(), std::int64_t(5'000'010));
        QVERIFY(state.stepPrevious());
        QVERIFY(state.stepPrevious());
        QCOMPARE(state.playheadNs(), std::int64_t(4'999'990));
    }
};

QTEST_APPLESS_MAIN(TestReplayState)
#include "tst_replay_state.moc"
