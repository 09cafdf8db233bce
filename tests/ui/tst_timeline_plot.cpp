#include "UiTestSupport.h"
#include "../TestTimeouts.h"

#include "document/TimeFrame.h"
#include "document/TraceDocument.h"
#include "document/ViewState.h"
#include "export/TimelineExport.h"
#include "models/AnalysisCache.h"
#include "style/DisplayText.h"
#include "style/OpStyle.h"
#include "style/RegionStyle.h"
#include "timeline/GhostTitle.h"
#include "timeline/TimelineLegendItem.h"
#include "timeline/TimelinePlot.h"

#include "formats/TraceJson.h"

#include <QApplication>
#include <QFontDatabase>
#include <QImage>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>

using ovs::Lane;
using ovs::test::chunkOp;
using ovs::LaneKind;
using ovs::Op;
using ovs::OpKind;
using ovs::Run;
using ovs::ui::OpRef;
using ovs::ui::RegionRef;
using ovs::ui::TimelinePlot;
using ovs::ui::TraceDocument;
using ovs::ui::ViewState;

namespace {

// Two runs on one time axis: a serialized one (host + 1 stream) on a
// simulated device and a cancelled overlapped one (host + 2 streams).
ovs::Trace twoRuns()
{
    Run a;
    a.name = "serialized pageable";
    a.device.name = "Simulated H200";
    a.device.simulated = true;
    a.params.chunks = 2;
    a.params.chunkBytes = 1 << 20;
    a.lanes = {Lane{"host", LaneKind::HostThread}, Lane{"stream 0", LaneKind::Stream}};
    a.ops = {chunkOp(0, 0, 20'000, OpKind::StageIn, 0), chunkOp(1, 20'000, 120'000, OpKind::Upload, 0),
             chunkOp(1, 120'000, 160'000, OpKind::Kernel, 0), chunkOp(1, 160'000, 260'000, OpKind::Download, 0)};
    a.timedBeginNs = 0;
    a.timedEndNs = 260'000;
    a.verification.checked = true;
    a.verification.passed = true;

    Run b;
    b.name = "overlapped pinned";
    b.device.name = "NVIDIA H200";
    b.params.chunks = 2;
    b.params.chunkBytes = 1 << 20;
    b.params.slotCount = 2;
    b.status = ovs::RunStatus::Cancelled;
    b.lanes = {Lane{"host", LaneKind::HostThread}, Lane{"stream 0", LaneKind::Stream},
               Lane{"stream 1", LaneKind::Stream}};
    b.ops = {chunkOp(1, 10'000, 110'000, OpKind::Upload, 0), chunkOp(2, 110'000, 210'000, OpKind::Upload, 1),
             chunkOp(1, 110'000, 150'000, OpKind::Kernel, 0), chunkOp(0, 0, 10'000, OpKind::Alloc, -1)};
    b.timedBeginNs = 5'000;
    b.timedEndNs = 210'000;
    ovs::Trace trace;
    trace.runs = {a, b};
    for (Run& run : trace.runs)
        run.sortOps();
    return trace;
}

// `color` at `alpha` over `background`: how a ghost's op fill looks.
QColor blended(QColor color, QColor background, double alpha)
{
    const auto mix = [&](int c, int b) { return static_cast<int>(std::lround(alpha * c + (1 - alpha) * b)); };
    return QColor(mix(color.red(), background.red()), mix(color.green(), background.green()),
                  mix(color.blue(), background.blue()));
}

bool closeTo(QColor a, QColor b, int tolerance = 12)
{
    return std::abs(a.red() - b.red()) <= tolerance && std::abs(a.green() - b.green()) <= tolerance
        && std::abs(a.blue() - b.blue()) <= tolerance;
}

void sendWheel(QWidget* widget, QPoint pos, QPoint angleDelta, Qt::KeyboardModifiers modifiers)
{
    QWheelEvent event(pos, widget->mapToGlobal(pos), QPoint(), angleDelta, Qt::NoButton, modifiers,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(widget, &event);
}

void sendMouse(QWidget* widget, QEvent::Type type, QPoint pos, Qt::MouseButton button, Qt::MouseButtons buttons,
               Qt::KeyboardModifiers modifiers = Qt::NoModifier)
{
    QMouseEvent event(type, pos, widget->mapToGlobal(pos), button, buttons, modifiers);
    QApplication::sendEvent(widget, &event);
}

void drag(QWidget* widget, QPoint from, QPoint to, Qt::MouseButton button, Qt::KeyboardModifiers modifiers)
{
    sendMouse(widget, QEvent::MouseButtonPress, from, button, button, modifiers);
    const QPoint middle = (from + to) / 2;
    sendMouse(widget, QEvent::MouseMove, middle, Qt::NoButton, button, modifiers);
    sendMouse(widget, QEvent::MouseMove, to, Qt::NoButton, button, modifiers);
    sendMouse(widget, QEvent::MouseButtonRelease, to, button, Qt::NoButton, modifiers);
}

} // namespace

class TestTimelinePlot : public QObject {
    Q_OBJECT

private:
    TraceDocument* m_document = nullptr;
    ViewState* m_view = nullptr;
    TimelinePlot* m_plot = nullptr;
    QTemporaryDir m_dir;

    // A pixel of an op (its centre by default), through the axes' mapping.
    QPoint opPixel(int run, int lane, double fraction = 0.5, double laneOffset = 0) const
    {
        const Op& op = m_document->run(run).laneOps(lane).front();
        const double t = op.startNs + fraction * op.durationNs() + m_document->displayOffsetNs(run);
        const QCPAxisRect* rect = m_plot->runAxisRect(run);
        return QPoint(static_cast<int>(std::lround(rect->axis(QCPAxis::atBottom)->coordToPixel(t))),
                      static_cast<int>(std::lround(rect->axis(QCPAxis::atLeft)->coordToPixel(lane + laneOffset))));
    }

    qint64 span() const { return m_view->visibleEndNs() - m_view->visibleStartNs(); }

    // A pixel of run 0's region `index` (at `fraction` of its length), on
    // its band row, through the one mapping.
    QPoint regionPixel(int index, double fraction = 0.5, double rowOffset = 0) const
    {
        const ovs::Region& region = m_document->run(0).run().regions[static_cast<std::size_t>(index)];
        const std::int64_t t =
            ovs::ui::TimeFrame(*m_document).toAxis(0, region.beginNs + std::llround(fraction * region.durationNs()));
        int row = 0;
        const auto& tracks = m_document->run(0).regionTracks().tracks;
        for (int r = 0; r < static_cast<int>(tracks.size()); ++r)
            if (std::find(tracks[r].regions.begin(), tracks[r].regions.end(), std::uint32_t(index)) != tracks[r].regions.end())
                row = r;
        const QCPAxisRect* rect = m_plot->runAxisRect(0);
        return QPoint(static_cast<int>(std::lround(m_plot->mapping().pixelAt(static_cast<double>(t)))),
                      static_cast<int>(std::lround(rect->axis(QCPAxis::atLeft)->coordToPixel(row + rowOffset))));
    }

    void showRegionsRun()
    {
        ovs::Trace trace;
        trace.runs = {ovs::test::regionsRun()};
        m_document->setTrace(std::move(trace), QString());
        m_view->resetView();
        m_plot->replot();
    }

    bool exportTo(const QString& path, int width, int height, double scale, QString* error)
    {
        ovs::ui::TimelineExportOptions options;
        options.width = width;
        options.height = height;
        options.scale = scale;
        return ovs::ui::TimelineExport::write(*m_document, *m_view, path, options, m_plot, error);
    }

private slots:
    // A ghost's title never runs past the plot's right edge: it wraps at
    // spaces, every line within the width, no word lost or split.
    void ghostTitlesWrapToTheWidth_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("lines");
        const QString title = QStringLiteral("what if: no host wait per chunk + a stream per chunk \u2014 replay 25.45 ms "
                                             "vs 71.50 ms unchanged (measured 72.36 ms): saves 46.04 ms (64.4%)");
        const QFontMetrics metrics(QApplication::font());
        const int whole = metrics.horizontalAdvance(title);
        QTest::newRow("wide: one line") << whole + 10 << 1;
        QTest::newRow("just too narrow: two lines") << whole - 10 << 2;
        QTest::newRow("a third: three or four lines") << whole / 3 + 10 << -1;
        QTest::newRow("narrower than a word: a word a line") << 5 << static_cast<int>(title.split(' ', Qt::SkipEmptyParts).size());
    }
    void ghostTitlesWrapToTheWidth()
    {
        QFETCH(int, width);
        QFETCH(int, lines);
        const QString title = QStringLiteral("what if: no host wait per chunk + a stream per chunk \u2014 replay 25.45 ms "
                                             "vs 71.50 ms unchanged (measured 72.36 ms): saves 46.04 ms (64.4%)");
        const QFontMetrics metrics(QApplication::font());
        const QString wrapped = ovs::ui::wrapTitle(title, metrics, width);
        const QStringList shown = wrapped.split('\n');
        if (lines > 0)
            QCOMPARE(shown.size(), lines);
        else
            QVERIFY(shown.size() == 3 || shown.size() == 4);
        for (const QString& line : shown)
            QVERIFY2(metrics.horizontalAdvance(line) <= width || !line.contains(' '), qPrintable(line));
        QCOMPARE(shown.join(' '), title);
    }

    void initTestCase()
    {
        Q_INIT_RESOURCE(resources);
        QVERIFY(QFontDatabase::addApplicationFont(QStringLiteral(":/fonts/DejaVuSans.ttf")) >= 0);
        QVERIFY(QFontDatabase::addApplicationFont(QStringLiteral(":/fonts/DejaVuSans-Bold.ttf")) >= 0);
        QVERIFY(m_dir.isValid());
    }

    void init()
    {
        m_document = new TraceDocument(this);
        m_view = new ViewState(this);
        m_plot = new TimelinePlot(m_document, m_view);
        m_document->setTrace(twoRuns(), QString());
        m_plot->resize(1000, 500);
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

    void structure()
    {
        QCOMPARE(m_plot->axisRectCount(), 2);
        const QStringList expectedLanes[] = {{"host", "stream 0"}, {"host", "stream 0", "stream 1"}};
        for (int run = 0; run < 2; ++run) {
            const auto ticker = m_plot->runAxisRect(run)->axis(QCPAxis::atLeft)->ticker().dynamicCast<QCPAxisTickerText>();
            QVERIFY(ticker);
            QCOMPARE(QStringList(ticker->ticks().values()), expectedLanes[run]);
            QCOMPARE(ticker->ticks().firstKey(), 0.0);
        }
        // Only the bottom run labels the shared time axis.
        QVERIFY(!m_plot->runAxisRect(0)->axis(QCPAxis::atBottom)->tickLabels());
        QVERIFY(m_plot->runAxisRect(1)->axis(QCPAxis::atBottom)->tickLabels());

        QStringList titles;
        for (int i = 0; i < m_plot->plotLayout()->elementCount(); ++i)
            if (auto* text = qobject_cast<QCPTextElement*>(m_plot->plotLayout()->elementAt(i)))
                titles << text->text();
        QCOMPARE(titles.size(), 2);
        QVERIFY2(titles[0].contains("serialized pageable") && titles[0].contains("[simulated]")
                     && titles[0].contains("wall 260.0 \u00b5s") && titles[0].contains("verified"),
                 qPrintable(titles[0]));
        QVERIFY2(titles[1].contains("NVIDIA H200") && titles[1].contains("cancelled")
                     && !titles[1].contains("[simulated]"),
                 qPrintable(titles[1]));

        // The legend lists the kinds present, in legend order.
        QList<int> legend;
        for (auto* element : m_plot->plotLayout()->elements(true))
            if (auto* item = qobject_cast<ovs::ui::TimelineLegendItem*>(element))
                legend << (item->isTimedRegion() ? -1 : int(*item->kind()));
        // ... and then the timed region's marks (-1), which the runs have.
        const QList<int> expected = {int(OpKind::Upload), int(OpKind::Kernel), int(OpKind::Download),
                                     int(OpKind::StageIn), int(OpKind::Alloc), -1};
        QCOMPARE(legend, expected);
    }

    // Regions (issue 19) are a band above the lanes: a row per thread and
    // depth (those naming no thread first), labelled once per thread; the
    // lanes move down under it.
    void regionsBandAboveTheLanes()
    {
        showRegionsRun();
        const ovs::ui::LaneRows* rows = m_plot->laneRows(0);
        QVERIFY(rows);
        QCOMPARE(rows->regionRows, 3);
        QCOMPARE(m_plot->laneRow(0, 0), 3);
        QCOMPARE(m_plot->laneRow(0, 1), 4);
        const auto ticker = m_plot->runAxisRect(0)->axis(QCPAxis::atLeft)->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        QCOMPARE(ticker->ticks().keys(), (QList<double>{0, 1, 3, 4}));
        QCOMPARE(QStringList(ticker->ticks().values()),
                 (QStringList{"regions", "regions \u00b7 host thread", "host thread", "stream 7"}));
        // The ops stay where their lanes are drawn.
        const Op& kernel = m_document->run(0).laneOps(1).front();
        const QPoint onKernel(static_cast<int>(m_plot->mapping().pixelAt(0.5 * double(kernel.startNs + kernel.endNs))),
                              static_cast<int>(m_plot->runAxisRect(0)->axis(QCPAxis::atLeft)->coordToPixel(4)));
        QCOMPARE(m_plot->opAt(onKernel), (OpRef{0, 1, 0}));
        // Each region under its pixels, the innermost where they nest.
        QCOMPARE(m_plot->regionAt(regionPixel(0)), (RegionRef{0, 0}));
        QCOMPARE(m_plot->regionAt(regionPixel(1, 0.9)), (RegionRef{0, 1}));
        QCOMPARE(m_plot->regionAt(regionPixel(2)), (RegionRef{0, 2}));
        QCOMPARE(m_plot->regionAt(regionPixel(3)), (RegionRef{0, 3}));
        QVERIFY(!m_plot->regionAt(onKernel).isValid());
        // Hover: name, duration, source, thread.
        const QString text = m_plot->toolTipTextAt(regionPixel(3));
        QVERIFY2(text.contains("ProfilerStep#1") && text.contains("100.0 \u00b5s") && text.contains("profiler step")
                     && text.contains("host thread"),
                 qPrintable(text));
        // A run without regions has no band (and the ghost never has one).
        m_document->setTrace(twoRuns(), QString());
        QCOMPARE(m_plot->laneRows(0)->regionRows, 0);
    }

    // A click on a region selects it (the signal a findings view follows)
    // and zooms to it; Esc clears it.
    void clickingARegionZoomsToIt()
    {
        showRegionsRun();
        QSignalSpy picked(m_view, &ViewState::regionSelected);
        QTest::mouseClick(m_plot, Qt::LeftButton, Qt::NoModifier, regionPixel(2));
        QCOMPARE(m_view->selectedRegion(), (RegionRef{0, 2}));
        QCOMPARE(picked.size(), 1);
        QCOMPARE(picked.front().at(0).toInt(), 0);
        QCOMPARE(picked.front().at(1).toInt(), 2);
        const ovs::ui::AxisSpan framed =
            ovs::ui::TimeFrame(*m_document).region(0, m_document->run(0).run().regions[2]);
        QCOMPARE(m_view->visibleStartNs(), framed.startNs);
        QCOMPARE(m_view->visibleEndNs(), framed.endNs);
        QVERIFY(framed.startNs < 210'000 && framed.endNs > 240'000 && framed.endNs - framed.startNs < 40'000);
        QVERIFY(!m_view->selection().isValid());
        QTest::keyClick(m_plot, Qt::Key_Escape);
        QVERIFY(!m_view->selectedRegion().isValid());
        QCOMPARE(picked.size(), 2);
    }

    // Regions keep their colour (hashed from the name without its step
    // number) in the window and in exports, which share the renderer.
    void regionColoursInExports()
    {
        showRegionsRun();
        QCOMPARE(ovs::ui::regionColor("ProfilerStep#0", false), ovs::ui::regionColor("ProfilerStep#1", false));
        QVERIFY(ovs::ui::regionColor("h2d", false) != ovs::ui::regionColor("ProfilerStep#0", false));
        const QString path = m_dir.filePath("regions.png");
        QString error;
        QVERIFY2(exportTo(path, m_plot->width(), m_plot->height(), 1.0, &error), qPrintable(error));
        const QImage image(path);
        m_plot->replot();
        const struct {
            int region;
            const char* name;
        } samples[] = {{0, "capture"}, {1, "ProfilerStep#0"}, {2, "h2d"}, {3, "ProfilerStep#1"}};
        for (const auto& sample : samples) {
            // Right of any name, above the middle of the row.
            const QColor got = image.pixelColor(regionPixel(sample.region, 0.93, -0.2));
            const QColor want = ovs::ui::regionColor(sample.name, false);
            QVERIFY2(closeTo(got, want), qPrintable(QStringLiteral("%1: %2 vs %3").arg(sample.name, got.name(), want.name())));
        }
    }

    void xRangeFollowsViewState()
    {
        m_view->setVisibleRange(10'000, 20'000);
        for (int run = 0; run < 2; ++run) {
            const QCPRange range = m_plot->runAxisRect(run)->axis(QCPAxis::atBottom)->range();
            QCOMPARE(range.lower, 10'000.0);
            QCOMPARE(range.upper, 20'000.0);
        }
        // And back: an axis changed directly moves the view and the other axis.
        m_plot->runAxisRect(1)->axis(QCPAxis::atBottom)->setRange(30'000, 70'000);
        QCOMPARE(m_view->visibleStartNs(), 30'000);
        QCOMPARE(m_view->visibleEndNs(), 70'000);
        QCOMPARE(m_plot->runAxisRect(0)->axis(QCPAxis::atBottom)->range().lower, 30'000.0);
        // Out of bounds: the view clamps, the axes follow the view.
        m_plot->runAxisRect(0)->axis(QCPAxis::atBottom)->setRange(-50'000, -10'000);
        QCOMPARE(m_view->visibleStartNs(), 0);
        QCOMPARE(m_plot->runAxisRect(0)->axis(QCPAxis::atBottom)->range().lower, 0.0);
        QCOMPARE(m_plot->runAxisRect(1)->axis(QCPAxis::atBottom)->range().upper, 40'000.0);
    }

    void keyboard_data()
    {
        QTest::addColumn<int>("key");
        QTest::addColumn<int>("spanChange"); // -1 shrinks, 0 same, 1 grows
        QTest::addColumn<int>("startChange");
        QTest::newRow("W zooms in") << int(Qt::Key_W) << -1 << 1;
        QTest::newRow("S zooms out") << int(Qt::Key_S) << 1 << -1;
        QTest::newRow("A pans left") << int(Qt::Key_A) << 0 << -1;
        QTest::newRow("D pans right") << int(Qt::Key_D) << 0 << 1;
        QTest::newRow("Left pans left") << int(Qt::Key_Left) << 0 << -1;
    }
    void keyboard()
    {
        QFETCH(int, key);
        QFETCH(int, spanChange);
        QFETCH(int, startChange);
        m_view->setVisibleRange(100'000, 150'000);
        const qint64 span0 = span();
        const qint64 start0 = m_view->visibleStartNs();
        QTest::keyClick(m_plot, Qt::Key(key));
        QCOMPARE(span() < span0 ? -1 : (span() > span0 ? 1 : 0), spanChange);
        QCOMPARE(m_view->visibleStartNs() < start0 ? -1 : (m_view->visibleStartNs() > start0 ? 1 : 0), startChange);
    }

    void resetKeys_data()
    {
        QTest::addColumn<int>("key");
        QTest::newRow("0") << int(Qt::Key_0);
        QTest::newRow("Home") << int(Qt::Key_Home);
    }
    void resetKeys()
    {
        QFETCH(int, key);
        m_view->setVisibleRange(100'000, 150'000);
        QTest::keyClick(m_plot, Qt::Key(key));
        QCOMPARE(m_view->visibleStartNs(), 0);
        QVERIFY(m_view->visibleEndNs() >= m_document->endNs());
    }

    void wheelZoomsAroundTheCursor()
    {
        m_view->setVisibleRange(0, 200'000);
        m_plot->replot();
        const QPoint at = opPixel(0, 1); // the upload, 70 µs in
        const double before = m_plot->timeAtPixel(at.x());
        sendWheel(m_plot, at, QPoint(0, 120), Qt::ControlModifier);
        QVERIFY(span() < 200'000);
        m_plot->replot();
        QVERIFY(std::abs(m_plot->timeAtPixel(at.x()) - before) < 500);
        const qint64 zoomed = span();
        sendWheel(m_plot, at, QPoint(0, -120), Qt::ControlModifier);
        QVERIFY(span() > zoomed);
        // A plain wheel is left to the parent (scrolling), time stays.
        const qint64 start = m_view->visibleStartNs();
        const qint64 width = span();
        sendWheel(m_plot, at, QPoint(0, 120), Qt::NoModifier);
        QCOMPARE(m_view->visibleStartNs(), start);
        QCOMPARE(span(), width);
        // Shift+wheel pans.
        sendWheel(m_plot, at, QPoint(0, -120), Qt::ShiftModifier);
        QVERIFY(m_view->visibleStartNs() > start);
        QCOMPARE(span(), width);
    }

    void alignedRunsShareTheirTimedRegionStart()
    {
        // Run 0's timer starts at 0, run 1's at 5 us: aligned, run 0 moves right by 5 us.
        m_document->setAlignTimedRegions(true);
        m_view->setExtent(m_document->endNs());
        m_view->resetView();
        m_plot->replot();
        QCOMPARE(m_document->displayOffsetNs(0), std::int64_t(5'000));
        QCOMPARE(m_document->displayOffsetNs(1), std::int64_t(0));
        QCOMPARE(m_document->endNs(), std::int64_t(265'000));
        QVERIFY(m_plot->runAxisRect(1)->axis(QCPAxis::atBottom)->label().contains("aligned"));
        // Near the upload's shifted end, where unshifted the kernel would be:
        // hit testing and drawing both follow the shift.
        const QPoint upload = opPixel(0, 1, 0.97);
        QTest::mouseClick(m_plot, Qt::LeftButton, Qt::NoModifier, upload);
        QCOMPARE(m_view->selection(), (OpRef{0, 1, 0}));
        const QImage image = m_plot->toPixmap().toImage();
        QCOMPARE(image.pixelColor(upload.x(), upload.y() + 4).rgb() & 0xffffff,
                 ovs::ui::opColor(OpKind::Upload).rgb() & 0xffffff);
        m_document->setAlignTimedRegions(false);
        QCOMPARE(m_document->displayOffsetNs(0), std::int64_t(0));
        QCOMPARE(m_document->endNs(), std::int64_t(260'000));
    }

    void playheadHidesWhatHasNotHappened()
    {
        // Run 0, stream lane: upload 20-120 us, kernel 120-160 us, download
        // 160-260 us. Playhead at 140 us: the upload shows whole, the kernel
        // up to the playhead, the download not at all.
        const auto pixelAt = [this](std::int64_t t) {
            const QCPAxisRect* rect = m_plot->runAxisRect(0);
            return QPoint(static_cast<int>(std::lround(rect->axis(QCPAxis::atBottom)->coordToPixel(double(t)))),
                          static_cast<int>(std::lround(rect->axis(QCPAxis::atLeft)->coordToPixel(1))) + 4);
        };
        const auto colourAt = [this](QPoint at) { return m_plot->toPixmap().toImage().pixelColor(at); };
        QVERIFY(closeTo(colourAt(pixelAt(210'000)), ovs::ui::opColor(OpKind::Download), 4));
        m_view->setPlayhead(140'000);
        m_plot->replot();
        const QImage image = m_plot->toPixmap().toImage();
        QVERIFY(closeTo(image.pixelColor(pixelAt(70'000)), ovs::ui::opColor(OpKind::Upload), 4));
        QVERIFY(closeTo(image.pixelColor(pixelAt(128'000)), ovs::ui::opColor(OpKind::Kernel), 4));
        QVERIFY(!closeTo(image.pixelColor(pixelAt(152'000)), ovs::ui::opColor(OpKind::Kernel), 40));
        QVERIFY(!closeTo(image.pixelColor(pixelAt(210'000)), ovs::ui::opColor(OpKind::Download), 40));
        // Clearing the playhead brings everything back.
        m_view->clearPlayhead();
        m_plot->replot();
        QVERIFY(closeTo(colourAt(pixelAt(210'000)), ovs::ui::opColor(OpKind::Download), 4));
    }

    void clickSelects()
    {
        m_plot->replot();
        const QPoint onUpload = opPixel(1, 2); // run 1, lane "stream 1": its only op
        QTest::mouseClick(m_plot, Qt::LeftButton, Qt::NoModifier, onUpload);
        QCOMPARE(m_view->selection(), (OpRef{1, 2, 0}));
        QTest::mouseClick(m_plot, Qt::LeftButton, Qt::NoModifier, opPixel(0, 1));
        QCOMPARE(m_view->selection(), (OpRef{0, 1, 0}));
        // Empty space (run 0's stream lane, after its last op) clears.
        const QCPAxisRect* rect = m_plot->runAxisRect(0);
        const QPoint empty(rect->right() - 3, static_cast<int>(rect->axis(QCPAxis::atLeft)->coordToPixel(0)));
        QTest::mouseClick(m_plot, Qt::LeftButton, Qt::NoModifier, empty);
        QVERIFY(!m_view->selection().isValid());
        // Esc clears a selection too.
        QTest::mouseClick(m_plot, Qt::LeftButton, Qt::NoModifier, onUpload);
        QVERIFY(m_view->selection().isValid());
        QTest::keyClick(m_plot, Qt::Key_Escape);
        QVERIFY(!m_view->selection().isValid());
    }

    void hoverTooltip()
    {
        m_plot->replot();
        const QPoint onKernel = opPixel(1, 1, 0.2);
        QCOMPARE(m_plot->opAt(onKernel), (OpRef{1, 1, 0})); // lane 1 of run 1 starts with the upload
        const QString text = m_plot->toolTipTextAt(opPixel(0, 1));
        QVERIFY2(text.contains("Upload (HtoD)") && text.contains("stream 0") && text.contains("100 \u00b5s")
                     && text.contains("1 MiB"),
                 qPrintable(text));
        QVERIFY(m_plot->toolTipTextAt(QPoint(2, 2)).isEmpty());
        sendMouse(m_plot, QEvent::MouseMove, opPixel(0, 1), Qt::NoButton, Qt::NoButton);
        QTRY_VERIFY_WITH_TIMEOUT(QToolTip::isVisible(), ovsTestTimeoutMs(5000));
        QCOMPARE(QToolTip::text(), text);
    }

    void dragPans()
    {
        m_view->setVisibleRange(50'000, 150'000);
        m_plot->replot();
        const QPoint from = opPixel(0, 1);
        drag(m_plot, from, from + QPoint(100, 0), Qt::LeftButton, Qt::NoModifier);
        QVERIFY(m_view->visibleStartNs() < 50'000);
        QCOMPARE(span(), 100'000);
        QVERIFY(!m_view->selection().isValid()); // a drag is not a click
    }

    void shiftDragZoomsToRange()
    {
        m_view->setVisibleRange(0, 300'000);
        m_plot->replot();
        const int y = opPixel(0, 1).y();
        const int x0 = static_cast<int>(m_plot->pixelAtTime(100'000));
        const int x1 = static_cast<int>(m_plot->pixelAtTime(200'000));
        const qint64 t0 = std::llround(m_plot->timeAtPixel(x0));
        const qint64 t1 = std::llround(m_plot->timeAtPixel(x1));
        drag(m_plot, QPoint(x0, y), QPoint(x1, y), Qt::LeftButton, Qt::ShiftModifier);
        QCOMPARE(m_view->visibleStartNs(), t0);
        QCOMPARE(m_view->visibleEndNs(), t1);
        // The right button does the same.
        m_view->setVisibleRange(0, 300'000);
        m_plot->replot();
        drag(m_plot, QPoint(x0, y), QPoint(x1, y), Qt::RightButton, Qt::NoModifier);
        QCOMPARE(m_view->visibleStartNs(), t0);
    }

    void ctrlDragMeasures()
    {
        m_view->setVisibleRange(0, 300'000);
        m_plot->replot();
        const int y = opPixel(0, 1).y();
        const int x0 = static_cast<int>(m_plot->pixelAtTime(50'000));
        const int x1 = static_cast<int>(m_plot->pixelAtTime(150'000));
        drag(m_plot, QPoint(x1, y), QPoint(x0, y), Qt::LeftButton, Qt::ControlModifier);
        QVERIFY(m_view->measurement().has_value());
        QCOMPARE(m_view->measurement()->first, std::llround(m_plot->timeAtPixel(x0)));
        QCOMPARE(m_view->measurement()->second, std::llround(m_plot->timeAtPixel(x1)));
        QCOMPARE(span(), 300'000); // measuring does not pan
        QTest::keyClick(m_plot, Qt::Key_Escape);
        QVERIFY(!m_view->measurement().has_value());
    }

    void exportLeavesTheWindowAlone()
    {
        // The export renders its own plot: the window's layout, legend and
        // view do not move, whatever size the picture has.
        m_plot->replot();
        const QRect rectBefore = m_plot->runAxisRect(0)->rect();
        const qint64 startBefore = m_view->visibleStartNs();
        QString error;
        QVERIFY2(exportTo(m_dir.filePath("narrow.png"), 300, 0, 1.0, &error), qPrintable(error));
        QVERIFY2(exportTo(m_dir.filePath("wide.svg"), 3000, 2000, 1.0, &error), qPrintable(error));
        QCOMPARE(m_plot->runAxisRect(0)->rect(), rectBefore);
        QCOMPARE(m_view->visibleStartNs(), startBefore);
    }

    void exportPng_data()
    {
        QTest::addColumn<double>("scale");
        QTest::newRow("1x") << 1.0;
        QTest::newRow("2x") << 2.0;
    }
    void exportPng()
    {
        QFETCH(double, scale);
        m_view->resetView();
        m_view->setSelection({});
        m_plot->replot();
        const QString path = m_dir.filePath(QStringLiteral("timeline-%1.png").arg(scale));
        QString error;
        QVERIFY2(exportTo(path, m_plot->width(), m_plot->height(), scale, &error), qPrintable(error));
        const QImage image(path);
        QCOMPARE(image.size(), QSize(m_plot->width(), m_plot->height()) * scale);
        m_plot->replot();
        // Each op's colour where the widget draws it (above its label).
        const struct {
            int run, lane;
            OpKind kind;
        } samples[] = {{0, 1, OpKind::Upload}, {1, 2, OpKind::Upload}, {0, 0, OpKind::StageIn}, {1, 0, OpKind::Alloc}};
        for (const auto& sample : samples) {
            const QPoint at = opPixel(sample.run, sample.lane, 0.5, -0.25) * scale;
            const QColor got = image.pixelColor(at);
            QVERIFY2(closeTo(got, ovs::ui::opColor(sample.kind)),
                     qPrintable(QStringLiteral("run %1 lane %2: %3 vs %4")
                                    .arg(sample.run)
                                    .arg(sample.lane)
                                    .arg(got.name(), ovs::ui::opColor(sample.kind).name())));
        }
    }

    void exportVector_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QByteArray>("magic");
        QTest::newRow("svg") << "svg" << QByteArray("<?xml");
        QTest::newRow("pdf") << "pdf" << QByteArray("%PDF");
    }
    void exportVector()
    {
        QFETCH(QString, format);
        QFETCH(QByteArray, magic);
        const QString path = m_dir.filePath("timeline." + format);
        QString error;
        QVERIFY2(exportTo(path, 1200, 0, 1.0, &error), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray data = file.readAll();
        QVERIFY(data.size() > 1000);
        QVERIFY(data.startsWith(magic));
        if (format == "svg")
            QVERIFY(data.contains("stream 1"));
    }

    void exportErrors_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("mention");
        QTest::newRow("missing folder") << "/nonexistent-overlapscope-dir/t.png" << "/nonexistent-overlapscope-dir/t.png";
        QTest::newRow("missing folder, pdf") << "/nonexistent-overlapscope-dir/t.pdf" << "t.pdf";
        QTest::newRow("unknown format") << m_dir.filePath("t.gif") << ".png, .svg or .pdf";
        QTest::newRow("no extension") << m_dir.filePath("timeline") << ".png, .svg or .pdf";
    }
    void exportErrors()
    {
        QFETCH(QString, path);
        QFETCH(QString, mention);
        QString error;
        QVERIFY(!exportTo(path, 800, 400, 1.0, &error));
        QVERIFY2(error.contains(mention), qPrintable(error));
        QVERIFY(!QFile::exists(path));
    }

    void preferredHeightGrowsWithLanes()
    {
        const int two = m_plot->preferredHeight(1000);
        ovs::Trace trace = twoRuns();
        for (int i = 2; i < 8; ++i)
            trace.runs[1].lanes.push_back(Lane{"stream " + std::to_string(i), LaneKind::Stream});
        m_document->setTrace(trace, QString());
        const int more = m_plot->preferredHeight(1000);
        QCOMPARE(more - two, 6 * m_plot->rowHeight());
        // An export without a height uses it.
        const QString path = m_dir.filePath("tall.png");
        QString error;
        QVERIFY2(exportTo(path, 1000, 0, 1.0, &error), qPrintable(error));
        QCOMPARE(QImage(path).height(), more);
    }

    // A run folds to its title (a click on it, or the view's state): its
    // lanes go, the other run's stay, and the zoom is what it was.
    void foldedRunsKeepTheZoom()
    {
        m_view->setVisibleRange(20'000, 90'000);
        const int full = m_plot->preferredHeight(1000);
        const int lanes = m_plot->totalLanes();
        QVERIFY2(m_plot->runTitleText(0).startsWith(QStringLiteral("\u25be ")), qPrintable(m_plot->runTitleText(0)));
        const QRect title = m_plot->runTitleRect(0);
        QVERIFY(!title.isEmpty());
        QTest::mouseClick(m_plot, Qt::LeftButton, {}, title.center());
        QVERIFY(m_view->isCollapsed(0));
        QVERIFY(!m_view->isCollapsed(1));
        QCOMPARE(m_plot->totalLanes(), lanes - 2); // run 0: host, stream 0
        QCOMPARE(m_plot->preferredHeight(1000), full - 2 * m_plot->rowHeight() - 8);
        QVERIFY2(m_plot->runTitleText(0).startsWith(QStringLiteral("\u25b8 ")), qPrintable(m_plot->runTitleText(0)));
        QCOMPARE(m_view->visibleStartNs(), std::int64_t{20'000});
        QCOMPARE(m_view->visibleEndNs(), std::int64_t{90'000});
        m_plot->replot();
        QCOMPARE(m_plot->runAxisRect(0)->height(), 0);
        QVERIFY(m_plot->runAxisRect(1)->height() > 0);
        // Nothing of the folded run answers the mouse.
        QVERIFY(!m_plot->opAt(QPoint(m_plot->runAxisRect(0)->center().x(), m_plot->runAxisRect(0)->top())).isValid());
        // Both folded, then unfolded by a click: as before.
        m_view->setAllCollapsed(2, true);
        QCOMPARE(m_plot->totalLanes(), 0);
        m_view->setAllCollapsed(2, false);
        QCOMPARE(m_plot->totalLanes(), lanes);
        QCOMPARE(m_plot->preferredHeight(1000), full);
        QCOMPARE(m_view->visibleStartNs(), std::int64_t{20'000});
        QCOMPARE(m_view->visibleEndNs(), std::int64_t{90'000});
    }

    // In a scroll area (the window) only the runs in view get their lanes
    // drawn; scrolling draws the others as they come into view.
    void onlyRunsInViewAreDrawn()
    {
        QScrollArea area;
        area.setWidget(m_plot); // the area owns it now: given back below
        area.setWidgetResizable(true);
        m_plot->setMinimumHeight(m_plot->preferredHeight(1000));
        area.resize(1020, 100);
        area.show();
        QVERIFY(QTest::qWaitForWindowExposed(&area));
        m_plot->replot();
        const auto lanesDrawn = [this](int run) { return m_plot->runAxisRect(run)->axis(QCPAxis::atLeft)->visible(); };
        QVERIFY(lanesDrawn(0));
        QVERIFY(!lanesDrawn(1));
        area.verticalScrollBar()->setValue(area.verticalScrollBar()->maximum());
        QTRY_VERIFY_WITH_TIMEOUT(lanesDrawn(1), ovsTestTimeoutMs(5000));
        QVERIFY(!lanesDrawn(0));
        area.takeWidget();
        m_plot->setParent(nullptr);
        m_plot->setMinimumHeight(0);
        m_plot->hide();
        m_plot->replot(); // not shown: every run drawn, as an export draws it
        QVERIFY(lanesDrawn(0) && lanesDrawn(1));
    }

    void subPixelKernelsStayVisible_data()
    {
        QTest::addColumn<int>("chunks");
        // Upload, a kernel of 1/1000 of it, download; back to back, so the
        // kernel is far under a pixel and the download starts where it ends.
        QTest::newRow("one chunk between two wide copies") << 1;
        QTest::newRow("many chunks, folded") << 400;
    }
    void subPixelKernelsStayVisible()
    {
        QFETCH(int, chunks);
        Run run;
        run.name = "kernels";
        run.lanes = {Lane{"stream 0", LaneKind::Stream}};
        std::int64_t t = 0;
        for (int c = 0; c < chunks; ++c) {
            run.ops.push_back(chunkOp(0, t, t + 100'000, OpKind::Upload, c));
            run.ops.push_back(chunkOp(0, t + 100'000, t + 100'100, OpKind::Kernel, c));
            run.ops.push_back(chunkOp(0, t + 100'100, t + 200'100, OpKind::Download, c));
            t += 200'100;
        }
        ovs::Trace trace;
        trace.runs = {run};
        m_document->setTrace(trace, QString());
        m_plot->resize(1200, m_plot->preferredHeight(1200));
        m_plot->replot();
        const QImage image = m_plot->toPixmap().toImage();
        // Inside the lane's rect only (the legend has a kernel swatch).
        const QRect area = m_plot->runAxisRect(0)->rect();
        int kernelPixels = 0;
        for (int y = area.top(); y <= area.bottom(); ++y)
            for (int x = area.left(); x <= area.right(); ++x)
                kernelPixels += closeTo(image.pixelColor(x, y), ovs::ui::opColor(OpKind::Kernel), 4);
        QVERIFY2(kernelPixels >= std::min(chunks, 5), qPrintable(QString("%1 kernel pixels").arg(kernelPixels)));
    }

    void liveRunUpdates()
    {
        Run header;
        header.name = "live one";
        header.device.name = "NVIDIA H200";
        header.lanes = {Lane{"host", LaneKind::HostThread}};
        const int run = m_document->beginRun(header);
        QCOMPARE(m_plot->axisRectCount(), 3);
        m_document->addLane(run, Lane{"stream 0", LaneKind::Stream}, 1);
        const std::vector<Op> ops = {chunkOp(1, 0, 400'000, OpKind::Download, 0)};
        m_document->addOps(run, ops);
        QTRY_COMPARE_WITH_TIMEOUT(m_plot->runAxisRect(run)
                         ->axis(QCPAxis::atLeft)
                         ->ticker()
                         .dynamicCast<QCPAxisTickerText>()
                         ->ticks()
                         .size(),
                     2, ovsTestTimeoutMs(5000));
        // The view followed the growing run.
        QTRY_VERIFY_WITH_TIMEOUT(m_view->visibleEndNs() >= 400'000, ovsTestTimeoutMs(5000));
    }

    void realTraceRenders()
    {
        const auto loaded = ovs::loadTrace(OVERLAPSCOPE_SOURCE_DIR "/docs/traces/h200-seed-defaults.json");
        QVERIFY2(loaded.trace, loaded.error.c_str());
        m_document->setTrace(*loaded.trace, QString());
        const QString path = m_dir.filePath("real.png");
        QString error;
        QVERIFY2(exportTo(path, 1600, 0, 1.0, &error), qPrintable(error));
        const QImage image(path);
        QCOMPARE(image.width(), 1600);
        int downloadPixels = 0;
        for (int y = 0; y < image.height(); y += 2)
            for (int x = 0; x < image.width(); x += 2)
                downloadPixels += closeTo(image.pixelColor(x, y), ovs::ui::opColor(OpKind::Download), 4);
        QVERIFY(downloadPixels > 1000);
    }

    void whatIfGhostUnderItsRun()
    {
        // A program recorded on the H200 whose copies are pageable: its
        // replay with pinned memory is drawn under it.
        const auto loaded = ovs::loadTrace(OVERLAPSCOPE_SOURCE_DIR "/tests/data/profiled/pageable_async.json");
        QVERIFY2(loaded.trace, loaded.error.c_str());
        m_document->setTrace(*loaded.trace, QString());
        m_plot->resize(1000, m_plot->preferredHeight(1000));
        m_plot->replot();
        const int heightBefore = m_plot->preferredHeight(1000);
        ovs::ui::AnalysisCache* cache = ovs::ui::AnalysisCache::of(m_document);
        QSignalSpy changed(m_plot, &TimelinePlot::ghostChanged);
        const ovs::FixSet pin = ovs::fixBit(ovs::Fix::PinHostMemory);

        // Chosen before it is replayed: nothing to draw yet.
        m_view->setWhatIf({0, pin});
        QCOMPARE(m_plot->ghostRun(), -1);
        cache->requestWhatIf(0, pin);
        QTRY_COMPARE_WITH_TIMEOUT(m_plot->ghostRun(), 0, ovsTestTimeoutMs(30'000));
        QCOMPARE(changed.count(), 1);
        QVERIFY2(m_plot->ghostTitleText().startsWith("what if: pin host memory \u2014 replay "),
                 qPrintable(m_plot->ghostTitleText()));
        QVERIFY2(m_plot->ghostTitleText().contains(" saves "), qPrintable(m_plot->ghostTitleText()));

        // Directly under its run: the same lanes, the shared time axis, and
        // the ruler now under the ghost, the bottom row.
        m_plot->resize(1000, m_plot->preferredHeight(1000));
        m_plot->replot();
        const QCPAxisRect* measured = m_plot->runAxisRect(0);
        const QCPAxisRect* ghost = m_plot->ghostAxisRect();
        QVERIFY(ghost);
        QVERIFY(ghost->outerRect().top() >= measured->outerRect().bottom());
        QCOMPARE(m_plot->ghostTimeline()->laneCount(), m_document->run(0).laneCount());
        const auto ticks = [](const QCPAxisRect* rect) {
            return QStringList(rect->axis(QCPAxis::atLeft)->ticker().dynamicCast<QCPAxisTickerText>()->ticks().values());
        };
        QCOMPARE(ticks(ghost), ticks(measured));
        QCOMPARE(ghost->axis(QCPAxis::atBottom)->range(), measured->axis(QCPAxis::atBottom)->range());
        QVERIFY(ghost->axis(QCPAxis::atBottom)->tickLabels());
        QVERIFY(!measured->axis(QCPAxis::atBottom)->tickLabels());
        QVERIFY(m_plot->preferredHeight(1000) > heightBefore);

        // Drawn translucent: its ops' fill is their colour at 40% over the
        // background, which the measured run never has. Pinned, the copies
        // take a fiftieth of their pageable time: the view is framed on the
        // ghost's span, where they are drawn wide.
        std::int64_t firstGpuNs = INT64_MAX;
        for (const ovs::Op& op : loaded.trace->runs[0].ops)
            if (op.kind == OpKind::Upload || op.kind == OpKind::Download || op.kind == OpKind::Kernel)
                firstGpuNs = std::min(firstGpuNs, op.startNs);
        m_view->setVisibleRange(firstGpuNs, firstGpuNs + cache->whatIf(0, pin)->spanNs);
        m_plot->replot();
        const QImage image = m_plot->toPixmap(m_plot->width(), m_plot->height(), 1.0).toImage();
        const QColor background = image.pixelColor(ghost->rect().right() - 1, ghost->rect().top() + 1);
        const auto countIn = [&](const QRect& area) {
            int count = 0;
            for (int y = area.top(); y <= area.bottom(); ++y)
                for (int x = area.left(); x <= area.right(); ++x)
                    for (OpKind kind : {OpKind::Upload, OpKind::Download, OpKind::Kernel})
                        count += closeTo(image.pixelColor(x, y), blended(ovs::ui::opColor(kind), background, 0.4), 6);
            return count;
        };
        QVERIFY2(countIn(ghost->rect()) > 200, qPrintable(QString::number(countIn(ghost->rect()))));
        QVERIFY2(countIn(measured->rect()) < countIn(ghost->rect()) / 10,
                 qPrintable(QString::number(countIn(measured->rect()))));
        // Its ops are not the document's: no selection, but a tooltip that
        // says what they are.
        QPoint ghostOp;
        for (int y = ghost->rect().top(); y <= ghost->rect().bottom() && ghostOp.isNull(); y += 4)
            for (int x = ghost->rect().left(); x <= ghost->rect().right() && ghostOp.isNull(); x += 4)
                if (!m_plot->toolTipTextAt(QPoint(x, y)).isEmpty())
                    ghostOp = QPoint(x, y);
        QVERIFY(!ghostOp.isNull());
        QVERIFY(m_plot->toolTipTextAt(ghostOp).startsWith("What if (replayed, not measured):\n"));
        QCOMPARE(m_plot->opAt(ghostOp), OpRef{});

        // The export draws it too.
        QString error;
        const QString withGhost = m_dir.filePath("ghost.png");
        QVERIFY2(exportTo(withGhost, 1000, 0, 1.0, &error), qPrintable(error));
        const int ghostHeight = QImage(withGhost).height();

        // Cleared: gone, and the plot is as before.
        m_view->clearWhatIf();
        QCOMPARE(m_plot->ghostRun(), -1);
        QVERIFY(!m_plot->ghostAxisRect());
        QCOMPARE(changed.count(), 2);
        QCOMPARE(m_plot->preferredHeight(1000), heightBefore);
        const QString without = m_dir.filePath("no-ghost.png");
        QVERIFY2(exportTo(without, 1000, 0, 1.0, &error), qPrintable(error));
        QVERIFY(QImage(without).height() < ghostHeight);

        // A new document drops the ghost with the runs it was of.
        m_view->setWhatIf({0, pin});
        QTRY_COMPARE_WITH_TIMEOUT(m_plot->ghostRun(), 0, ovsTestTimeoutMs(30'000));
        m_document->setTrace(twoRuns(), QString());
        QCOMPARE(m_plot->ghostRun(), -1);
    }

    void emptyDocument()
    {
        m_document->clear();
        QCOMPARE(m_plot->axisRectCount(), 0);
        const QString path = m_dir.filePath("empty.png");
        QString error;
        QVERIFY2(exportTo(path, 400, 0, 1.0, &error), qPrintable(error));
        QVERIFY(!QImage(path).isNull());
        QTest::keyClick(m_plot, Qt::Key_W); // no rects: nothing to crash on
        QTest::mouseClick(m_plot, Qt::LeftButton, Qt::NoModifier, QPoint(50, 50));
    }

    // A name may be any length the loader accepts (the hostile-input table
    // has a 200 MiB one): titles and lane labels show a shortened copy, and
    // the title still says what follows the name.
    void hugeNamesAreShortened()
    {
        ovs::Trace trace = twoRuns();
        trace.runs[0].name = std::string(4u << 20, 'n');
        trace.runs[1].lanes[1].name = "\x1b[2J" + std::string(4u << 20, 'l');
        m_document->setTrace(std::move(trace), QString());
        m_plot->replot();
        QStringList titles;
        for (int i = 0; i < m_plot->plotLayout()->elementCount(); ++i)
            if (auto* text = qobject_cast<QCPTextElement*>(m_plot->plotLayout()->elementAt(i)))
                titles << text->text();
        QCOMPARE(titles.size(), 2);
        QVERIFY2(titles[0].size() < 300, qPrintable(QString::number(titles[0].size())));
        // After the fold marker a title of several runs starts with.
        QVERIFY(titles[0].startsWith(QStringLiteral("\u25be ") + QString(ovs::ui::kTitleNameChars - 1, 'n') + QChar(0x2026)));
        QVERIFY2(titles[0].contains("[simulated]") && titles[0].contains("verified"), qPrintable(titles[0]));
        const auto ticker = m_plot->runAxisRect(1)->axis(QCPAxis::atLeft)->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        const QString label = ticker->ticks().value(1);
        QCOMPARE(label.size(), ovs::ui::kLaneLabelChars);
        QVERIFY(label.endsWith(QChar(0x2026)));
        // The plot keeps room to draw: the long label did not take the width.
        QVERIFY2(m_plot->runAxisRect(1)->width() > m_plot->width() / 2,
                 qPrintable(QString::number(m_plot->runAxisRect(1)->width())));
        const QString path = m_dir.filePath("huge-names.png");
        QString error;
        QVERIFY2(exportTo(path, 800, 0, 1.0, &error), qPrintable(error));
        QVERIFY(!QImage(path).isNull());
    }
};

QTEST_MAIN(TestTimelinePlot)
#include "tst_timeline_plot.moc"
