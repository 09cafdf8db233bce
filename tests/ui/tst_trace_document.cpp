#include "document/TraceDocument.h"

#include <QDateTime>
#include <QTest>

#include <limits>

using namespace ovs;
using ovs::ui::TraceDocument;

namespace {

Run runWith(std::int64_t timedBegin, std::int64_t timedEnd, std::int64_t opEnd)
{
    Run run;
    run.name = "r";
    run.lanes = {Lane{"stream 0", LaneKind::Stream}};
    Op op;
    op.kind = OpKind::Kernel;
    op.startNs = 0;
    op.endNs = opEnd;
    run.ops = {op};
    run.timedBeginNs = timedBegin;
    run.timedEndNs = timedEnd;
    return run;
}

} // namespace

class TestTraceDocument : public QObject {
    Q_OBJECT

private slots:
    void resavingKeepsProvenance()
    {
        Trace trace;
        trace.tool = "overlapscope-cli 0.1.0";
        trace.createdUtc = "2026-11-29T17:34:30Z";
        trace.runs = {runWith(10, 20, 30)};
        TraceDocument document;
        document.setTrace(trace, "t.json");
        const Trace again = document.toTrace();
        QCOMPARE(again.tool, trace.tool);
        QCOMPARE(again.createdUtc, trace.createdUtc);
        // Runs recorded into it join the file's provenance.
        document.finishRun(document.beginRun(runWith(1, 2, 3)), runWith(1, 2, 3));
        QCOMPARE(document.toTrace().tool, trace.tool);
        QCOMPARE(document.toTrace().createdUtc, trace.createdUtc);
    }

    void aNewRecordingIsStamped()
    {
        TraceDocument document;
        QVERIFY(document.toTrace().createdUtc.empty());
        document.beginRun(runWith(1, 2, 3));
        const Trace trace = document.toTrace();
        QVERIFY(QString::fromStdString(trace.tool).startsWith("overlapscope "));
        const QDateTime created = QDateTime::fromString(QString::fromStdString(trace.createdUtc), Qt::ISODate);
        QVERIFY2(created.isValid(), trace.createdUtc.c_str());
        QVERIFY(std::abs(created.secsTo(QDateTime::currentDateTimeUtc())) < 600);
        document.clear();
        QVERIFY(document.toTrace().tool.empty());
    }

    void endAndAlignmentNeverOverflow_data()
    {
        QTest::addColumn<qint64>("lateBegin");
        QTest::addColumn<qint64>("lateEnd");
        constexpr qint64 max = std::numeric_limits<qint64>::max();
        QTest::newRow("ordinary") << qint64(1000) << qint64(2000);
        QTest::newRow("a timed region near 2^63") << max - 10 << max;
    }
    void endAndAlignmentNeverOverflow()
    {
        // Aligned, the early run moves right by the late run's begin; its
        // end plus that offset would pass 2^63: the axis end saturates.
        QFETCH(qint64, lateBegin);
        QFETCH(qint64, lateEnd);
        Trace trace;
        trace.runs = {runWith(0, 5, std::numeric_limits<qint64>::max() / 2 + 1), runWith(lateBegin, lateEnd, lateEnd)};
        TraceDocument document;
        document.setTrace(trace, QString());
        document.setAlignTimedRegions(true);
        QCOMPARE(document.displayOffsetNs(0), lateBegin);
        QCOMPARE(document.displayOffsetNs(1), qint64(0));
        const qint64 expected = lateBegin > std::numeric_limits<qint64>::max() / 2
                                    ? std::numeric_limits<qint64>::max()
                                    : std::numeric_limits<qint64>::max() / 2 + 1 + lateBegin;
        QCOMPARE(document.endNs(), expected);
    }
};

QTEST_GUILESS_MAIN(TestTraceDocument)
#include "tst_trace_document.moc"
