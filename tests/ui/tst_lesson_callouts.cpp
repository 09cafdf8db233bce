#include "UiTestSupport.h"

#include "document/TimeFrame.h"
#include "document/TraceDocument.h"
#include "document/ViewState.h"
#include "timeline/LessonCallouts.h"
#include "timeline/TimelinePlot.h"

#include <QFontDatabase>
#include <QImage>
#include <QTest>

using ovs::Lane;
using ovs::test::chunkOp;
using ovs::LaneKind;
using ovs::LessonMeasurements;
using ovs::LessonRunResult;
using ovs::Op;
using ovs::OpKind;
using ovs::ResolvedFocus;
using ovs::Run;
using ovs::ui::LessonCallouts;
using ovs::ui::TimelinePlot;
using ovs::ui::TraceDocument;
using ovs::ui::ViewState;

namespace {

// Two lesson runs as a lesson measures them: four chunks on one stream,
// then on two.
LessonMeasurements twoRuns()
{
    LessonMeasurements m;
    for (int streams = 1; streams <= 2; ++streams) {
        Run run;
        run.name = streams == 1 ? "one stream" : "two streams";
        run.device.name = "Simulated H200";
        run.device.simulated = true;
        run.lanes = {Lane{"host", LaneKind::HostThread}, Lane{"stream 0", LaneKind::Stream}};
        if (streams == 2)
            run.lanes.push_back(Lane{"stream 1", LaneKind::Stream});
        std::int64_t t = 0;
        for (int chunk = 0; chunk < 4; ++chunk) {
            const auto lane = static_cast<std::uint16_t>(1 + chunk % streams);
            const std::int64_t start = streams == 1 ? t : chunk * 60'000;
            run.ops.push_back(chunkOp(lane, start, start + 100'000, OpKind::Upload, chunk));
            run.ops.push_back(chunkOp(lane, start + 100'000, start + 150'000, OpKind::Kernel, chunk));
            t = start + 150'000;
        }
        run.verification.checked = true;
        run.verification.passed = true;
        run.sortOps();
        m.runs.push_back(LessonRunResult{streams == 1 ? "one" : "two", run.name, run, {}});
    }
    return m;
}

// The kernels of chunks 1 and 2 of run `runIndex`.
ResolvedFocus kernelsFocus(const LessonMeasurements& m, int runIndex, const std::string& text)
{
    ResolvedFocus f;
    f.stepId = m.runs[static_cast<std::size_t>(runIndex)].stepId;
    f.runIndex = runIndex;
    f.callout = text;
    const Run& run = m.runs[static_cast<std::size_t>(runIndex)].run;
    for (std::size_t k = 0; k < run.ops.size(); ++k) {
        const Op& op = run.ops[k];
        if (op.kind != OpKind::Kernel || op.chunk < 1 || op.chunk > 2)
            continue;
        f.startNs = f.ops.empty() ? op.startNs : std::min(f.startNs, op.startNs);
        f.endNs = f.ops.empty() ? op.endNs : std::max(f.endNs, op.endNs);
        f.ops.push_back(k);
    }
    return f;
}

int accentPixels(const QImage& image, const QRect& area)
{
    // The callouts' magenta: much more red and blue than green (no op
    // colour and no theme grey is).
    int count = 0;
    const QRect r = area.intersected(image.rect());
    for (int y = r.top(); y <= r.bottom(); ++y)
        for (int x = r.left(); x <= r.right(); ++x) {
            const QColor c = image.pixelColor(x, y);
            if (c.red() - c.green() > 60 && c.blue() - c.green() > 40)
                ++count;
        }
    return count;
}

} // namespace

class TestLessonCallouts : public QObject {
    Q_OBJECT

private:
    LessonMeasurements m_measured;
    TraceDocument* m_document = nullptr;
    ViewState* m_view = nullptr;
    TimelinePlot* m_plot = nullptr;

private slots:
    void initTestCase()
    {
        Q_INIT_RESOURCE(resources);
        QVERIFY(QFontDatabase::addApplicationFont(QStringLiteral(":/fonts/DejaVuSans.ttf")) >= 0);
        m_measured = twoRuns();
    }

    void init()
    {
        m_document = new TraceDocument(this);
        m_view = new ViewState(this);
        m_plot = new TimelinePlot(m_document, m_view);
        ovs::Trace trace;
        for (const LessonRunResult& r : m_measured.runs)
            trace.runs.push_back(r.run);
        m_document->setTrace(trace, QString());
        m_plot->resize(1200, 600);
        m_plot->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_plot));
        m_plot->replot();
    }

    void cleanup()
    {
        delete m_plot;
        delete m_view;
        delete m_document;
    }

    void createdForFocusAndRemovedOnClear()
    {
        QVERIFY(!LessonCallouts::of(*m_plot));
        const QImage before = m_plot->toPixmap().toImage();
        QCOMPARE(accentPixels(before, before.rect()), 0);

        ovs::ui::setLessonFocus(*m_plot, {kernelsFocus(m_measured, 1, "kernels of chunks 1 and 2 overlap copies")},
                                m_measured);
        LessonCallouts* item = LessonCallouts::of(*m_plot);
        QVERIFY(item);
        QCOMPARE(item->callouts().size(), std::size_t(1));
        QCOMPARE(item->callouts()[0].run, 1);
        QCOMPARE(item->callouts()[0].ops.size(), std::size_t(2));
        QCOMPARE(item->callouts()[0].text, QStringLiteral("kernels of chunks 1 and 2 overlap copies"));

        const QImage with = m_plot->toPixmap().toImage();
        QCOMPARE(item->bands().size(), std::size_t(1));
        const QRectF band = item->bands()[0];
        const QRectF box = item->boxes()[0];
        QVERIFY(!band.isNull());
        QVERIFY(!box.isNull());
        // The band covers the focus's time on the second run's rows.
        const QCPAxisRect* rect = m_plot->runAxisRect(1);
        const QCPAxis* time = rect->axis(QCPAxis::atBottom);
        const double offset = static_cast<double>(m_document->displayOffsetNs(1));
        QVERIFY(std::abs(band.left() - time->coordToPixel(item->callouts()[0].startNs + offset)) < 1.5);
        QVERIFY(std::abs(band.right() - time->coordToPixel(item->callouts()[0].endNs + offset)) < 1.5);
        QCOMPARE(band.top(), double(rect->rect().top()));
        // The box is in the plot and off the band; the picture shows both.
        QVERIFY(QRectF(m_plot->rect()).contains(box));
        QVERIFY(!box.intersects(band));
        QVERIFY(accentPixels(with, band.toAlignedRect()) > 0);
        QVERIFY(accentPixels(with, box.toAlignedRect().adjusted(-2, -2, 2, 2)) > 0);
        // Not on the first run's rows, which the focus is not about.
        const QRect firstRun = m_plot->runAxisRect(0)->rect().adjusted(0, 0, 0, -4);
        QVERIFY(!band.intersects(firstRun));

        ovs::ui::clearLessonFocus(*m_plot);
        QVERIFY(!LessonCallouts::of(*m_plot));
        QCOMPARE(m_plot->itemCount(), 0);
        const QImage after = m_plot->toPixmap().toImage();
        QCOMPARE(accentPixels(after, after.rect()), 0);
    }

    // The box placement is searched when the view changes, not at every
    // paint: a replot or a picture of the same view only paints it.
    void layoutFollowsTheViewNotThePaint()
    {
        ovs::ui::setLessonFocus(*m_plot, {kernelsFocus(m_measured, 1, "kernels overlap copies")}, m_measured);
        m_plot->replot();
        const LessonCallouts* item = LessonCallouts::of(*m_plot);
        QVERIFY(item);
        const int laidOut = item->layoutCount();
        QVERIFY(laidOut > 0);
        const QRectF band = item->bands()[0];
        m_plot->replot();
        m_plot->toPixmap(); // the same size: the same layout
        m_plot->repaint();
        QCOMPARE(item->layoutCount(), laidOut);
        // Zoomed in: laid out again, once, and the band follows the axis.
        m_view->setVisibleRange(150'000, 280'000); // around the focus (160 to 270 us)
        m_plot->replot();
        QCOMPARE(item->layoutCount(), laidOut + 1);
        QVERIFY(item->bands()[0].width() > band.width() * 1.5);
        const ovs::ui::TimeAxisMapping mapping = m_plot->mapping();
        const auto offset = ovs::ui::TimeFrame(*m_document).runAxis(1);
        QVERIFY(std::abs(item->bands()[0].left()
                         - std::max<double>(m_plot->runAxisRect(1)->rect().left(),
                                            mapping.pixelAt(double(offset.toAxis(item->callouts()[0].startNs)))))
                < 1.5);
        // A new font (presentation mode) lays out again too.
        QFont font = m_plot->font();
        font.setPointSizeF(font.pointSizeF() * 2);
        m_plot->setFont(font);
        m_plot->replot();
        QVERIFY(item->layoutCount() > laidOut + 1);
    }

    void focusWithoutRunOrOpsIsSkipped()
    {
        ResolvedFocus none;
        none.runIndex = 7;
        none.callout = "no such run";
        ResolvedFocus empty;
        empty.runIndex = 0;
        empty.callout = "picked nothing";
        ovs::ui::setLessonFocus(*m_plot, {none, empty, kernelsFocus(m_measured, 0, "one")}, m_measured);
        QVERIFY(LessonCallouts::of(*m_plot));
        QCOMPARE(LessonCallouts::of(*m_plot)->callouts().size(), std::size_t(1));
        // Setting again replaces, never stacks a second item.
        ovs::ui::setLessonFocus(*m_plot, {kernelsFocus(m_measured, 1, "two")}, m_measured);
        QCOMPARE(m_plot->itemCount(), 1);
        QCOMPARE(LessonCallouts::of(*m_plot)->callouts()[0].text, QStringLiteral("two"));
    }

    // Zoomed to the focus (as a slide is), or with several callouts and a
    // large font: every box stays in the plot and off every band and box.
    void boxesStayInsideAndOffBands_data()
    {
        QTest::addColumn<bool>("zoomed");
        QTest::addColumn<double>("pointSize");
        QTest::newRow("whole, normal font") << false << 10.0;
        QTest::newRow("zoomed, normal font") << true << 10.0;
        QTest::newRow("whole, presentation font") << false << 20.0;
        QTest::newRow("zoomed, presentation font") << true << 20.0;
    }

    void boxesStayInsideAndOffBands()
    {
        QFETCH(bool, zoomed);
        QFETCH(double, pointSize);
        QFont font = m_plot->font();
        font.setPointSizeF(pointSize);
        m_plot->setFont(font);
        m_plot->resize(1600, m_plot->preferredHeight(1600) + 200);
        const std::vector<ResolvedFocus> focus = {
            kernelsFocus(m_measured, 0, "one stream: every kernel waits for its own copy, then the next copy waits"),
            kernelsFocus(m_measured, 1, "two streams: the kernels run while the next chunk's copy is under way")};
        ovs::ui::setLessonFocus(*m_plot, focus, m_measured);
        if (zoomed) {
            const std::int64_t span = focus[1].endNs - focus[1].startNs;
            m_view->setVisibleRange(focus[1].startNs - span / 4, focus[1].endNs + span / 4);
        }
        m_plot->replot();
        const LessonCallouts* item = LessonCallouts::of(*m_plot);
        QVERIFY(item);
        const QRectF plot(m_plot->rect());
        int drawn = 0;
        for (std::size_t i = 0; i < item->boxes().size(); ++i) {
            const QRectF box = item->boxes()[i];
            if (box.isNull())
                continue;
            ++drawn;
            QVERIFY2(plot.contains(box), qPrintable(QStringLiteral("box %1 leaves the plot").arg(i)));
            for (const QRectF& band : item->bands())
                QVERIFY2(band.isNull() || !box.intersects(band), qPrintable(QStringLiteral("box %1 on a band").arg(i)));
            for (std::size_t j = 0; j < i; ++j)
                QVERIFY(!box.intersects(item->boxes()[j]));
        }
        QCOMPARE(drawn, 2);
        // The text scales with the plot's font (presentation mode).
        if (pointSize > 15)
            QVERIFY(item->boxes()[1].height() > QFontMetricsF(font).height() * 1.5);
    }
};

QTEST_MAIN(TestLessonCallouts)
#include "tst_lesson_callouts.moc"
