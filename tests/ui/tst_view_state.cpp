#include "document/ViewState.h"

#include <QSignalSpy>
#include <QTest>

using ovs::ui::ViewState;

class TestViewState : public QObject {
    Q_OBJECT

private slots:
    void setVisibleRange_data()
    {
        QTest::addColumn<qint64>("start");
        QTest::addColumn<qint64>("end");
        QTest::addColumn<qint64>("expectedStart");
        QTest::addColumn<qint64>("expectedEnd");
        // Extent 10'000 ns throughout.
        QTest::newRow("inside") << qint64(1000) << qint64(3000) << qint64(1000) << qint64(3000);
        QTest::newRow("reversed") << qint64(3000) << qint64(1000) << qint64(1000) << qint64(3000);
        QTest::newRow("off the left: shifted") << qint64(-500) << qint64(1500) << qint64(0) << qint64(2000);
        QTest::newRow("off the right: shifted") << qint64(9000) << qint64(11000) << qint64(8000) << qint64(10000);
        QTest::newRow("wider than all") << qint64(-100) << qint64(20000) << qint64(-100) << qint64(20000);
        QTest::newRow("min span") << qint64(5000) << qint64(5010) << qint64(4955) << qint64(5055);
        QTest::newRow("min span at the edge") << qint64(0) << qint64(10) << qint64(0) << qint64(100);
    }
    void setVisibleRange()
    {
        QFETCH(qint64, start);
        QFETCH(qint64, end);
        QFETCH(qint64, expectedStart);
        QFETCH(qint64, expectedEnd);
        ViewState view;
        view.setExtent(10'000);
        view.setVisibleRange(start, end);
        QCOMPARE(view.visibleStartNs(), expectedStart);
        QCOMPARE(view.visibleEndNs(), expectedEnd);
        QVERIFY(view.visibleEndNs() - view.visibleStartNs() >= ViewState::kMinimumSpanNs);
    }

    void zoom_data()
    {
        QTest::addColumn<double>("factor");
        QTest::addColumn<qint64>("center");
        QTest::addColumn<qint64>("expectedStart");
        QTest::addColumn<qint64>("expectedEnd");
        // From [2000, 6000] in an extent of 10'000.
        QTest::newRow("in x2 around the middle") << 2.0 << qint64(4000) << qint64(3000) << qint64(5000);
        QTest::newRow("in x2 around the left edge keeps it") << 2.0 << qint64(2000) << qint64(2000) << qint64(4000);
        QTest::newRow("in x4 around a point keeps the point's fraction")
            << 4.0 << qint64(3000) << qint64(2750) << qint64(3750);
        QTest::newRow("out x2 around the middle") << 0.5 << qint64(4000) << qint64(0) << qint64(8000);
        QTest::newRow("out past the start is shifted") << 0.5 << qint64(5000) << qint64(0) << qint64(8000);
        QTest::newRow("deep zoom stops at the min span") << 1e6 << qint64(4000) << qint64(3950) << qint64(4050);
        QTest::newRow("bad factor ignored") << 0.0 << qint64(4000) << qint64(2000) << qint64(6000);
    }
    void zoom()
    {
        QFETCH(double, factor);
        QFETCH(qint64, center);
        QFETCH(qint64, expectedStart);
        QFETCH(qint64, expectedEnd);
        ViewState view;
        view.setExtent(10'000);
        view.setVisibleRange(2000, 6000);
        view.zoom(factor, center);
        QCOMPARE(view.visibleStartNs(), expectedStart);
        QCOMPARE(view.visibleEndNs(), expectedEnd);
    }

    void pan_data()
    {
        QTest::addColumn<double>("fraction");
        QTest::addColumn<qint64>("expectedStart");
        QTest::addColumn<qint64>("expectedEnd");
        QTest::newRow("right a tenth") << 0.1 << qint64(2400) << qint64(6400);
        QTest::newRow("left a tenth") << -0.1 << qint64(1600) << qint64(5600);
        QTest::newRow("far left clamps") << -5.0 << qint64(0) << qint64(4000);
        QTest::newRow("far right clamps") << 5.0 << qint64(6000) << qint64(10000);
    }
    void pan()
    {
        QFETCH(double, fraction);
        QFETCH(qint64, expectedStart);
        QFETCH(qint64, expectedEnd);
        ViewState view;
        view.setExtent(10'000);
        view.setVisibleRange(2000, 6000);
        view.pan(fraction);
        QCOMPARE(view.visibleStartNs(), expectedStart);
        QCOMPARE(view.visibleEndNs(), expectedEnd);
    }

    void resetView()
    {
        ViewState view;
        view.setExtent(50'000);
        view.setVisibleRange(100, 200);
        QSignalSpy spy(&view, &ViewState::visibleRangeChanged);
        view.resetView();
        QCOMPARE(view.visibleStartNs(), 0);
        QCOMPARE(view.visibleEndNs(), 51'000); // a 2% margin on the right
        QCOMPARE(spy.count(), 1);
        view.resetView();
        QCOMPARE(spy.count(), 1); // unchanged: no signal
    }

    void selectionAndMeasurement()
    {
        ViewState view;
        QSignalSpy selection(&view, &ViewState::selectionChanged);
        QSignalSpy measurement(&view, &ViewState::measurementChanged);
        view.setSelection({1, 2, 3});
        view.setSelection({1, 2, 3});
        QCOMPARE(selection.count(), 1);
        QCOMPARE(view.selection(), (ovs::ui::OpRef{1, 2, 3}));
        view.setMeasurement(900, 100);
        QCOMPARE(measurement.count(), 1);
        QVERIFY(view.measurement().has_value());
        QCOMPARE(view.measurement()->first, 100);
        QCOMPARE(view.measurement()->second, 900);
        view.clearMeasurement();
        view.clearMeasurement();
        QCOMPARE(measurement.count(), 2);
        QVERIFY(!view.measurement());
    }

    void playhead()
    {
        ViewState view;
        QSignalSpy changed(&view, &ViewState::playheadChanged);
        QVERIFY(!view.playhead());
        view.clearPlayhead();
        QCOMPARE(changed.count(), 0);
        view.setPlayhead(1234);
        view.setPlayhead(1234);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(*view.playhead(), std::int64_t(1234));
        view.setPlayhead(0); // 0 is a playhead, not "none"
        QVERIFY(view.playhead().has_value());
        view.clearPlayhead();
        QCOMPARE(changed.count(), 3);
        QVERIFY(!view.playhead());
    }
};

QTEST_APPLESS_MAIN(TestViewState)
#include "tst_view_state.moc"
