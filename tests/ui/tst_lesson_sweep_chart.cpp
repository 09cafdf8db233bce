// The chart of a lesson that sweeps a parameter (LessonSweepChart): wall
// time and bound against chunk size from a real chunk-size lesson on the
// simulator, themed and scaled with the font; the Lessons panel shows it for
// a lesson that declares a sweep, from its result on, and not for one that
// does not.
#include "charts/LessonSweepChart.h"
#include "document/LessonSession.h"
#include "panels/LessonPanel.h"
#include "style/Theme.h"

#include "lessons/LessonRunner.h"
#include "lessons/SweepPoints.h"
#include "sim/SimDevice.h"

#include <QtTest>

#include <memory>

using namespace ovs;
using namespace ovs::ui;

namespace {

// Small runs on the simulated H200 (it moves the data for real); once.
std::shared_ptr<const LessonResult> chunkSizeResult()
{
    static std::shared_ptr<const LessonResult> result = [] {
        SimDevice device(*findSimPreset("h200"));
        RecordSink sink;
        CancelFlag cancel;
        LessonOptions options;
        options.chunkBytes = 2ull << 20;
        return std::make_shared<const LessonResult>(
            runLesson(*findLesson("chunk-size"), device, sink, cancel, {}, options));
    }();
    return result;
}

// Opens `lesson` in `session` and brings `result` back as the window does.
void runInSession(LessonSession& session, const Lesson& lesson, std::shared_ptr<const LessonResult> result)
{
    QVERIFY(session.open(&lesson));
    QVERIFY(session.next()); // to the question
    QVERIFY(session.skipPrediction());
    QVERIFY(session.beginRun());
    session.finishRun(std::move(result));
}

QStringList tickLabels(const QCPAxis* axis)
{
    auto ticker = axis->ticker().dynamicCast<QCPAxisTickerText>();
    return ticker ? QStringList(ticker->ticks().values()) : QStringList();
}

} // namespace

class TestLessonSweepChart : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        const LessonResult& result = *chunkSizeResult();
        QVERIFY2(result.judged, result.notJudged.c_str());
    }

    void drawsWallTimeAndBoundAgainstChunkSize()
    {
        const Lesson& lesson = *findLesson("chunk-size");
        const SweepSeries series = sweepSeries(lesson, chunkSizeResult()->measured);
        const int n = static_cast<int>(series.points.size());
        QCOMPARE(n, 6);
        LessonSweepChart chart;
        chart.resize(800, 500);
        chart.setSeries(series);
        QCOMPARE(chart.graphCount(), 2);
        QCOMPARE(chart.wallGraph()->dataCount(), n);
        QCOMPARE(chart.boundGraph()->dataCount(), n);
        QVERIFY(!chart.isShowingEmptyState());
        for (int i = 0; i < n; ++i) {
            const SweepPoint& p = series.points[static_cast<std::size_t>(i)];
            QCOMPARE(chart.wallGraph()->data()->at(i)->key, static_cast<double>(p.value));
            QCOMPARE(chart.wallGraph()->data()->at(i)->value, static_cast<double>(p.wallNs) / 1e6);
            QCOMPARE(chart.boundGraph()->data()->at(i)->value, static_cast<double>(p.boundNs) / 1e6);
        }
        QCOMPARE(chart.xAxis->scaleType(), QCPAxis::stLogarithmic);
        const QStringList ticks = tickLabels(chart.xAxis);
        QCOMPARE(ticks.size(), n);
        QCOMPARE(ticks.front(), QStringLiteral("16 KiB"));
        QCOMPARE(ticks.back(), QStringLiteral("8 MiB"));
        QVERIFY2(chart.title().contains("chunk size") && chart.title().contains("[simulated]"), qPrintable(chart.title()));
        QVERIFY(chart.wallGraph()->name().contains("simulated"));
        // The fastest run is ringed where it is.
        QVERIFY(series.best > 0);
        QVERIFY(chart.bestMark()->visible());
        const SweepPoint& best = series.points[static_cast<std::size_t>(series.best)];
        QCOMPARE(chart.bestMark()->position->key(), static_cast<double>(best.value));
        QCOMPARE(chart.bestMark()->position->value(), static_cast<double>(best.wallNs) / 1e6);
        QVERIFY(!chart.toPixmap(800, 500).isNull());
    }

    void emptyAndSeriesWithoutBounds()
    {
        LessonSweepChart chart;
        QVERIFY(chart.isShowingEmptyState());
        QCOMPARE(chart.graphCount(), 2);
        QCOMPARE(chart.wallGraph()->dataCount(), 0);
        QVERIFY(!chart.bestMark()->visible());
        QVERIFY(!chart.title().contains("[simulated]"));

        // Measured runs with no rates to bound them: the wall time alone.
        SweepSeries series = sweepSeries(*findLesson("chunk-size"), chunkSizeResult()->measured);
        for (SweepPoint& p : series.points) {
            p.boundNs = 0;
            p.simulated = false;
        }
        series.simulated = false;
        chart.setSeries(series);
        QCOMPARE(chart.wallGraph()->dataCount(), static_cast<int>(series.points.size()));
        QCOMPARE(chart.boundGraph()->dataCount(), 0);
        QVERIFY(chart.boundGraph()->name().contains("unknown"));
        QVERIFY(!chart.title().contains("[simulated]"));
        QVERIFY(chart.wallGraph()->name().contains("measured"));
    }

    void followsThemeAndFont()
    {
        LessonSweepChart chart;
        chart.setSeries(sweepSeries(*findLesson("chunk-size"), chunkSizeResult()->measured));
        chart.setPalette(Theme::palette(false));
        const QColor light = chart.wallGraph()->pen().color();
        const QColor lightTicks = chart.xAxis->tickLabelColor();
        chart.setPalette(Theme::palette(true));
        QVERIFY(chart.wallGraph()->pen().color() != light);
        QVERIFY(chart.xAxis->tickLabelColor() != lightTicks);
        QCOMPARE(chart.xAxis->tickLabelColor(), Theme::palette(true).color(QPalette::Text));

        QFont font = chart.font();
        font.setPixelSize(13);
        chart.setFont(font);
        const double width = chart.wallGraph()->pen().widthF();
        font.setPixelSize(26); // presentation mode scales the window's font
        chart.setFont(font);
        QCOMPARE(QFontInfo(chart.xAxis->tickLabelFont()).pixelSize(), 26);
        QCOMPARE(QFontInfo(chart.legend->font()).pixelSize(), 26);
        QVERIFY(chart.wallGraph()->pen().widthF() > width);
    }

    void panelShowsTheChartForASweepLesson()
    {
        LessonSession session;
        LessonPanel panel(&session);
        const Lesson& lesson = *findLesson("chunk-size");
        QVERIFY(session.open(&lesson));
        QVERIFY(panel.sweepChart()->isHidden()); // nothing run yet
        runInSession(session, lesson, chunkSizeResult());
        QCOMPARE(session.stage(), LessonStage::Focus);
        QVERIFY(!panel.sweepChart()->isHidden());
        while (session.stage() != LessonStage::Results)
            QVERIFY(session.next());
        QVERIFY(!panel.sweepChart()->isHidden());
        QCOMPARE(panel.sweepChart()->graphCount(), 2);
        QCOMPARE(panel.sweepChart()->wallGraph()->dataCount(),
                 static_cast<int>(chunkSizeResult()->measured.runs.size()));
        // Back to the question: the result is not shown there.
        while (session.stage() != LessonStage::Predict)
            QVERIFY(session.previous());
        QVERIFY(panel.sweepChart()->isHidden());
    }

    void panelHidesTheChartWithoutASweep()
    {
        LessonSession session;
        LessonPanel panel(&session);
        // Not a sweep: no chart, whatever its runs.
        const Lesson& streams = *findLesson("one-vs-several-streams");
        QCOMPARE(streams.swept, SweptParameter::None);
        auto result = std::make_shared<LessonResult>(*chunkSizeResult());
        result->lessonId = streams.id;
        result->focus.clear();
        runInSession(session, streams, result);
        QCOMPARE(session.stage(), LessonStage::Results);
        QVERIFY(panel.sweepChart()->isHidden());

        // A sweep lesson whose runs were all cancelled: nothing to draw.
        const Lesson& chunks = *findLesson("chunk-size");
        auto cancelled = std::make_shared<LessonResult>(*chunkSizeResult());
        for (LessonRunResult& r : cancelled->measured.runs)
            r.run.status = RunStatus::Cancelled;
        cancelled->focus.clear();
        runInSession(session, chunks, cancelled);
        QCOMPARE(session.stage(), LessonStage::Results);
        QVERIFY(panel.sweepChart()->isHidden());
    }
};

QTEST_MAIN(TestLessonSweepChart)
#include "tst_lesson_sweep_chart.moc"
