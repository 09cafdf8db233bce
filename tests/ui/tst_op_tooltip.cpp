#include "timeline/OpTooltip.h"

#include <QTest>
#include <QTextDocument>

using ovs::HostMemoryKind;
using ovs::Lane;
using ovs::LaneKind;
using ovs::Op;
using ovs::OpKind;
using ovs::Run;
using ovs::ui::RunTimeline;

Q_DECLARE_METATYPE(ovs::Op)

namespace {

RunTimeline timeline()
{
    Run run;
    run.name = "overlapped pinned";
    run.device.name = "NVIDIA H200";
    run.lanes = {Lane{"host", LaneKind::HostThread}, Lane{"stream <1>", LaneKind::Stream}};
    return RunTimeline(run);
}

} // namespace

class TestOpTooltip : public QObject {
    Q_OBJECT

private slots:
    void tooltip_data()
    {
        QTest::addColumn<Op>("op");
        QTest::addColumn<int>("lane");
        QTest::addColumn<QStringList>("expected");
        QTest::addColumn<QStringList>("absent");

        Op upload;
        upload.kind = OpKind::Upload;
        upload.chunk = 3;
        upload.lane = 1;
        upload.startNs = 1'000'000;
        upload.endNs = 1'612'300;
        upload.bytes = 33554432;
        upload.memory = HostMemoryKind::Pinned;
        QTest::newRow("upload") << upload << 1
                                << QStringList{"Upload (HtoD)", "chunk 3", "stream &lt;1&gt;", "1.000 ms", "1.612 ms",
                                               "612 \u00b5s", "32 MiB", "54.8 GB/s", "pinned"}
                                << QStringList{"waited", "engine"};

        Op queued = upload;
        queued.execStartNs = 1'100'000;
        queued.execEndNs = 1'612'300;
        QTest::newRow("queued behind the engine")
            << queued << 1 << QStringList{"waited 100 \u00b5s before the engine ran it", "65.5 GB/s", "achieved (engine)"}
            << QStringList{};

        Op wait;
        wait.kind = OpKind::HostWait;
        wait.lane = 0;
        wait.startNs = 500;
        wait.endNs = 1350;
        QTest::newRow("host wait without bytes")
            << wait << 0 << QStringList{"Host wait", "host", "850 ns"}
            << QStringList{"chunk", "GB/s", "host memory", "waited"};
    }
    void tooltip()
    {
        QFETCH(Op, op);
        QFETCH(int, lane);
        QFETCH(QStringList, expected);
        QFETCH(QStringList, absent);
        const QString text = ovs::ui::opTooltipText(timeline(), lane, op);
        for (const QString& piece : expected)
            QVERIFY2(text.contains(piece), qPrintable(piece + " not in " + text));
        for (const QString& piece : absent)
            QVERIFY2(!text.contains(piece), qPrintable(piece + " in " + text));
        QVERIFY(Qt::mightBeRichText(text));
    }
};

QTEST_APPLESS_MAIN(TestOpTooltip)
#include "tst_op_tooltip.moc"
