#include "export/LessonSlides.h"

#include "charts/BandwidthChart.h"
#include "charts/LessonSweepChart.h"
#include "document/TimeFrame.h"
#include "document/TraceDocument.h"
#include "document/ViewState.h"
#include "export/AtomicFile.h"
#include "lessons/SweepPoints.h"
#include "style/Theme.h"
#include "timeline/LessonCallouts.h"
#include "timeline/TimelinePlot.h"
#include "timeline/TimelineStyle.h"

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QDir>
#include <QFontDatabase>
#include <QImageWriter>
#include <QPainter>
#include <QTextDocument>

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ovs::ui {

namespace {

constexpr int kMargin = 72;        // left and right
constexpr int kHeaderHeight = 84;  // lesson, device
constexpr int kFooterHeight = 56;  // slide name and number

QString html(const std::string& text)
{
    return QString::fromStdString(text).toHtmlEscaped();
}

QString hex(const QColor& c)
{
    return c.name(QColor::HexRgb);
}

QFont slideFont(int pixels, bool bold = false)
{
    QFont font = TimelineStyle::baseFont(QFont());
    font.setPixelSize(pixels);
    font.setBold(bold);
    return font;
}

// Rich text drawn into `rect` at the largest size, from `largest` pixels down
// to `smallest`, at which it fits; `build` makes the HTML for a base size.
// Below the smallest it is drawn anyway, clipped: a slide never overflows.
void drawFitted(QPainter& painter, const QRectF& rect, int largest, int smallest, const QColor& text,
                const std::function<QString(int)>& build)
{
    QTextDocument doc;
    doc.setDocumentMargin(0);
    for (int px = largest;; px -= 2) {
        doc.setDefaultFont(slideFont(px));
        doc.setHtml(build(px));
        doc.setTextWidth(rect.width());
        if (doc.size().height() <= rect.height() || px <= smallest)
            break;
    }
    painter.save();
    painter.translate(rect.topLeft());
    QAbstractTextDocumentLayout::PaintContext context;
    context.palette.setColor(QPalette::Text, text);
    context.clip = QRectF(0, 0, rect.width(), rect.height());
    painter.setClipRect(context.clip);
    doc.documentLayout()->draw(&painter, context);
    painter.restore();
}

// Slides are flat colours and anti-aliased text: with a palette of their 256
// most frequent colours, each other colour drawn as its nearest, they look
// the same and their PNGs are a third of the size (docs/lessons/ holds ten
// sets). Lossless where a slide has no more than 256 colours.
QImage paletted(const QImage& picture)
{
    const QImage rgb = picture.convertToFormat(QImage::Format_RGB32);
    std::unordered_map<QRgb, std::uint32_t> counts;
    for (int y = 0; y < rgb.height(); ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(rgb.constScanLine(y));
        for (int x = 0; x < rgb.width(); ++x)
            ++counts[line[x] | 0xff000000u];
    }
    std::vector<std::pair<std::uint32_t, QRgb>> byCount;
    byCount.reserve(counts.size());
    for (const auto& [colour, count] : counts)
        byCount.emplace_back(count, colour);
    const std::size_t kept = std::min<std::size_t>(256, byCount.size());
    std::partial_sort(byCount.begin(), byCount.begin() + static_cast<std::ptrdiff_t>(kept), byCount.end(),
                      [](const auto& a, const auto& b) { return a.first > b.first; });
    QList<QRgb> table;
    std::unordered_map<QRgb, uchar> index;
    for (std::size_t i = 0; i < kept; ++i) {
        table.push_back(byCount[i].second);
        index.emplace(byCount[i].second, static_cast<uchar>(i));
    }
    auto nearest = [&](QRgb c) {
        int best = 0;
        long bestDistance = std::numeric_limits<long>::max();
        for (int i = 0; i < table.size(); ++i) {
            const long dr = qRed(c) - qRed(table[i]), dg = qGreen(c) - qGreen(table[i]), db = qBlue(c) - qBlue(table[i]);
            const long distance = 3 * dr * dr + 4 * dg * dg + 2 * db * db; // green counts most to the eye
            if (distance < bestDistance) {
                bestDistance = distance;
                best = i;
            }
        }
        return static_cast<uchar>(best);
    };
    QImage out(rgb.size(), QImage::Format_Indexed8);
    out.setColorTable(table);
    for (int y = 0; y < rgb.height(); ++y) {
        const auto* in = reinterpret_cast<const QRgb*>(rgb.constScanLine(y));
        uchar* line = out.scanLine(y);
        for (int x = 0; x < rgb.width(); ++x) {
            const QRgb c = in[x] | 0xff000000u;
            auto it = index.find(c);
            if (it == index.end())
                it = index.emplace(c, nearest(c)).first;
            line[x] = it->second;
        }
    }
    return out;
}

} // namespace

// One slide being drawn: background, header (lesson, device) and footer
// (what the slide is, its number); `body` is what is left.
struct LessonSlides::Page {
    // The colours of a slide, from the theme's palette: what the window shows.
    struct Colours {
        QColor background, text, muted, rule, accent, held, notHeld, simulated;

        explicit Colours(bool dark)
        {
            const QPalette palette = Theme::palette(dark);
            background = palette.color(QPalette::Base);
            text = palette.color(QPalette::Text);
            muted = QColor::fromRgbF(static_cast<float>(text.redF() * 0.6 + background.redF() * 0.4),
                                     static_cast<float>(text.greenF() * 0.6 + background.greenF() * 0.4),
                                     static_cast<float>(text.blueF() * 0.6 + background.blueF() * 0.4));
            rule = QColor::fromRgbF(static_cast<float>(text.redF() * 0.2 + background.redF() * 0.8),
                                    static_cast<float>(text.greenF() * 0.2 + background.greenF() * 0.8),
                                    static_cast<float>(text.blueF() * 0.2 + background.blueF() * 0.8));
            // The callouts' magenta (far from every op colour).
            accent = dark ? QColor(0xff, 0x5c, 0xe1) : QColor(0xc0, 0x00, 0x9c);
            held = dark ? QColor(0x66, 0xbb, 0x6a) : QColor(0x1b, 0x6e, 0x20);
            notHeld = dark ? QColor(0xef, 0x53, 0x50) : QColor(0xc6, 0x28, 0x28);
            simulated = dark ? QColor(0xff, 0xb7, 0x4d) : QColor(0xa8, 0x4a, 0x00);
        }
    };

    QImage image;
    QRect body;
    Colours colours;

    Page(const Lesson& lesson, const QString& device, bool simulated, bool dark, const QString& what, int number)
        : image(kWidth, kHeight, QImage::Format_RGB32), colours(dark)
    {
        image.fill(colours.background);
        QPainter p(&image);
        p.setRenderHint(QPainter::Antialiasing);
        p.setRenderHint(QPainter::TextAntialiasing);
        const QRect header(kMargin, 0, kWidth - 2 * kMargin, kHeaderHeight);
        p.setFont(slideFont(28, true));
        p.setPen(colours.accent);
        const QString lessonText = QStringLiteral("Lesson %1 of %2").arg(lesson.number).arg(lessons().size());
        p.drawText(header, Qt::AlignLeft | Qt::AlignVCenter, lessonText);
        const int lessonWidth = p.fontMetrics().horizontalAdvance(lessonText);
        // The device first (it must show whole, up to half the width), the
        // lesson's title in what is left.
        p.setFont(slideFont(28, simulated));
        const int pad = simulated ? 16 : 0;
        const QString deviceShown =
            p.fontMetrics().elidedText(device, Qt::ElideMiddle, header.width() / 2 - 2 * pad);
        const int w = p.fontMetrics().horizontalAdvance(deviceShown) + 2 * pad;
        const QRect deviceBox(header.right() - w, header.center().y() - 24, w, 48);
        if (simulated) {
            p.setPen(QPen(colours.simulated, 3));
            p.setBrush(Qt::NoBrush);
            p.drawRoundedRect(deviceBox, 10, 10);
        }
        p.setPen(simulated ? colours.simulated : colours.text);
        p.drawText(deviceBox, Qt::AlignCenter, deviceShown);
        p.setFont(slideFont(28));
        p.setPen(colours.muted);
        const int titleRoom = header.width() - w - lessonWidth - 72;
        p.drawText(QRect(header.left() + lessonWidth + 24, header.top(), titleRoom, header.height()),
                   Qt::AlignLeft | Qt::AlignVCenter,
                   p.fontMetrics().elidedText(QString::fromStdString(lesson.title), Qt::ElideRight, titleRoom));
        p.setPen(QPen(colours.rule, 2));
        p.drawLine(kMargin, kHeaderHeight, kWidth - kMargin, kHeaderHeight);

        const QRect footer(kMargin, kHeight - kFooterHeight, kWidth - 2 * kMargin, kFooterHeight);
        p.drawLine(kMargin, footer.top(), kWidth - kMargin, footer.top());
        p.setFont(slideFont(24));
        p.setPen(colours.muted);
        p.drawText(footer, Qt::AlignLeft | Qt::AlignVCenter,
                   QStringLiteral("OverlapScope \u2014 %1").arg(QString::fromStdString(lesson.id)));
        p.drawText(footer, Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("%1 \u2014 %2").arg(what).arg(number));
        body = QRect(kMargin, kHeaderHeight + 36, kWidth - 2 * kMargin, kHeight - kHeaderHeight - kFooterHeight - 72);
    }
};

// A chart over a slide's body (a little taller: its own title is its heading).
void LessonSlides::drawChart(Page& page, QCustomPlot& chart)
{
    const QRect area = page.body.adjusted(0, -12, 0, 20);
    chart.resize(area.size());
    QImage picture(area.size(), QImage::Format_RGB32);
    picture.fill(page.colours.background);
    {
        QCPPainter painter(&picture);
        chart.toPainter(&painter, area.width(), area.height());
    }
    QPainter(&page.image).drawImage(area.topLeft(), picture);
}

LessonSlides::LessonSlides(const Lesson& lesson, const DeviceInfo& device, QString dir, bool dark)
    : m_lesson(lesson), m_device(device), m_dir(std::move(dir)), m_dark(dark)
{
}

LessonSlides::~LessonSlides() = default;

QStringList LessonSlides::kinds()
{
    return {QStringLiteral("title"), QStringLiteral("question"), QStringLiteral("focus"),   QStringLiteral("sweep"),
            QStringLiteral("chart"), QStringLiteral("results"),  QStringLiteral("timeline")};
}

QString LessonSlides::deviceText(const LessonResult* result) const
{
    QString text = QString::fromStdString(m_device.label());
    // A real GPU's lesson can hold simulated runs (the one-copy-engine GPU
    // of the issue-order lesson): say so where they are.
    if (!m_device.simulated && result) {
        const auto simulatedRuns = std::count_if(result->measured.runs.begin(), result->measured.runs.end(),
                                                 [](const LessonRunResult& r) { return r.run.device.simulated; });
        if (simulatedRuns > 0)
            text += QStringLiteral(" + %1 [simulated]").arg(simulatedRuns == 1 ? QStringLiteral("1 run")
                                                                                : QStringLiteral("%1 runs").arg(simulatedRuns));
    }
    return text;
}

QImage LessonSlides::titleSlide() const
{
    Page page(m_lesson, deviceText(nullptr), m_device.simulated, m_dark, QStringLiteral("title"), 1);
    QPainter p(&page.image);
    p.setRenderHint(QPainter::TextAntialiasing);
    const Page::Colours& c = page.colours;
    QRect body = page.body.adjusted(0, 60, 0, 0);
    drawFitted(p, body, 44, 26, c.text, [&](int px) {
        QString s = QStringLiteral("<div style='font-size:%1px; font-weight:bold; color:%2'>%3</div>")
                        .arg(px * 2)
                        .arg(hex(c.text), html(m_lesson.title));
        s += QStringLiteral("<div style='font-size:%1px; color:%2; margin-top:%3px'>%4</div>")
                 .arg(px * 0.8)
                 .arg(hex(c.muted))
                 .arg(px * 0.3)
                 .arg(html(m_lesson.id));
        s += QStringLiteral("<p style='margin-top:%1px; line-height:130%'>%2</p>").arg(px * 1.4).arg(html(m_lesson.explanation));
        if (m_device.simulated)
            s += QStringLiteral("<p style='margin-top:%1px; color:%2; font-size:%3px'>Run on %4: no CUDA GPU here, or "
                                "asked for. Every figure in these slides is simulated.</p>")
                     .arg(px)
                     .arg(hex(c.simulated))
                     .arg(px * 0.8)
                     .arg(html(m_device.label()));
        return s;
    });
    return page.image;
}

QImage LessonSlides::questionSlide() const
{
    Page page(m_lesson, deviceText(nullptr), m_device.simulated, m_dark, QStringLiteral("predict"), 2);
    QPainter p(&page.image);
    p.setRenderHint(QPainter::TextAntialiasing);
    const Page::Colours& c = page.colours;
    drawFitted(p, page.body.adjusted(0, 40, 0, 0), 52, 28, c.text, [&](int px) {
        QString s = QStringLiteral("<div style='font-size:%1px; font-weight:bold; color:%2'>Predict, before it runs</div>")
                        .arg(px * 0.75)
                        .arg(hex(c.accent));
        s += QStringLiteral("<p style='margin-top:%1px; font-weight:bold; font-size:%2px'>%3</p>")
                 .arg(px * 0.5)
                 .arg(px * 1.15)
                 .arg(html(m_lesson.question.text));
        s += QStringLiteral("<table style='margin-top:%1px' cellspacing='0' cellpadding='%2'>").arg(px * 0.6).arg(px / 4);
        for (const LessonChoice& choice : m_lesson.question.choices)
            s += QStringLiteral("<tr><td style='font-weight:bold; color:%1'>%2)</td><td>%3</td></tr>")
                     .arg(hex(c.accent), html(choice.id), html(choice.text));
        s += QStringLiteral("</table>");
        return s;
    });
    return page.image;
}

AxisSpan LessonSlides::timelineView(const TraceDocument& document, const LessonResult& result, int focus)
{
    const TimeFrame frame(document);
    if (focus >= 0 && static_cast<std::size_t>(focus) < result.focus.size())
        return frame.lessonFocus(result.focus[static_cast<std::size_t>(focus)]);
    return frame.lessonOverview();
}

QImage LessonSlides::timelinePicture(const LessonResult& result, int focus, QSize size) const
{
    QImage image(size, QImage::Format_RGB32);
    ViewState view;
    TimelinePlot plot(m_document.get(), &view);
    plot.setPalette(Theme::palette(m_dark));
    // The largest font at which every lane keeps its full row: a room reads
    // what fits, and squeezed lanes keep their colours where nothing does.
    QFont font = TimelineStyle::baseFont(QFont());
    // Run titles are long (name, device, chunks, wall, verification): they
    // must fit the width too, as they are not cut short.
    auto titlesFit = [&] {
        for (QCPLayoutElement* element : plot.plotLayout()->elements(true))
            if (auto* title = qobject_cast<QCPTextElement*>(element))
                if (QFontMetricsF(title->font()).horizontalAdvance(title->text()) + 24 > size.width())
                    return false;
        return true;
    };
    for (double points = 20; points >= 10; points -= 1) {
        font.setPointSizeF(points);
        plot.setFont(font);
        if (plot.preferredHeight(size.width()) <= size.height() && titlesFit())
            break;
    }
    view.setExtent(m_document->endNs());
    view.resetView();
    if (const AxisSpan shown = timelineView(*m_document, result, focus); !shown.isEmpty())
        view.setVisibleRange(shown.startNs, shown.endNs);
    if (focus >= 0)
        setLessonFocus(plot, {result.focus[static_cast<std::size_t>(focus)]}, result.measured);
    else
        setLessonFocus(plot, result.focus, result.measured);
    plot.resize(size);
    plot.fitTo(size.width(), size.height());
    image.fill(plot.palette().color(QPalette::Base));
    QCPPainter painter(&image);
    plot.toPainter(&painter, size.width(), size.height());
    return image;
}

QImage LessonSlides::focusSlide(const LessonResult& result, std::size_t focus) const
{
    const ResolvedFocus& f = result.focus[focus];
    Page page(m_lesson, deviceText(&result), m_device.simulated, m_dark, QStringLiteral("look"), 3 + static_cast<int>(focus));
    QPainter p(&page.image);
    p.setRenderHint(QPainter::TextAntialiasing);
    const Page::Colours& c = page.colours;
    // The callout again, large, over the plot: the box in the plot marks
    // where, at the plot's (smaller) size when many lanes share the slide.
    const QRect heading(page.body.left(), page.body.top() - 16, page.body.width(), 116);
    const bool placed = f.runIndex >= 0 && !f.ops.empty();
    const QString caption = placed ? QString::fromStdString(result.measured.runs[static_cast<std::size_t>(f.runIndex)].caption)
                                   : QString::fromStdString(f.stepId);
    drawFitted(p, heading, 40, 24, c.text, [&](int px) {
        return QStringLiteral("<div style='font-size:%1px'><span style='color:%2; font-weight:bold'>What to look at "
                              "(%3 of %4)</span>&nbsp;&nbsp;in “%5”</div><div style='margin-top:%6px'>%7</div>")
            .arg(px * 0.7)
            .arg(hex(c.accent))
            .arg(focus + 1)
            .arg(result.focus.size())
            .arg(caption.toHtmlEscaped())
            .arg(px / 8)
            .arg(html(f.callout));
    });
    const QRect plotArea(page.body.left() - kMargin / 2, heading.bottom() + 8, page.body.width() + kMargin,
                         page.body.bottom() - heading.bottom() + 20);
    if (!placed) {
        drawFitted(p, plotArea.adjusted(kMargin / 2, 60, -kMargin / 2, 0), 44, 28, c.text, [&](int px) {
            return QStringLiteral("<p>%1</p><p style='color:%2; font-size:%3px'>Not in this recording: none of the "
                                  "ops it points at were recorded (a run that failed or was cancelled).</p>")
                .arg(html(f.callout), hex(c.muted))
                .arg(px * 0.8);
        });
        return page.image;
    }
    p.drawImage(plotArea.topLeft(), timelinePicture(result, static_cast<int>(focus), plotArea.size()));
    return page.image;
}

QImage LessonSlides::sweepSlide(const LessonResult& result) const
{
    Page page(m_lesson, deviceText(&result), m_device.simulated, m_dark, QStringLiteral("sweep"),
              3 + static_cast<int>(result.focus.size()));
    BandwidthChart chart(m_document.get());
    chart.setPalette(Theme::palette(m_dark));
    // The chart takes its fonts at construction: set them for the room.
    const QFont base = slideFont(26);
    for (QCPAxis* axis : chart.axisRect()->axes()) {
        axis->setTickLabelFont(base);
        axis->setLabelFont(base);
        axis->setLabelPadding(12);
    }
    chart.legend->setFont(base);
    for (int i = 0; i < chart.legend->itemCount(); ++i)
        chart.legend->item(i)->setFont(base);
    for (QCPLayoutElement* element : chart.plotLayout()->elements(true))
        if (auto* text = qobject_cast<QCPTextElement*>(element))
            text->setFont(slideFont(30, true));
    drawChart(page, chart);
    return page.image;
}

bool LessonSlides::hasChart(const LessonResult& result) const
{
    return m_lesson.swept != SweptParameter::None && !sweepSeries(m_lesson, result.measured).points.empty();
}

int LessonSlides::afterCharts(const LessonResult& result) const
{
    return 3 + static_cast<int>(result.focus.size()) + (result.measured.sweeps.empty() ? 0 : 1)
           + (hasChart(result) ? 1 : 0);
}

QImage LessonSlides::chartSlide(const LessonResult& result) const
{
    Page page(m_lesson, deviceText(&result), m_device.simulated, m_dark, QStringLiteral("chart"),
              afterCharts(result) - 1);
    LessonSweepChart chart;
    chart.setPalette(Theme::palette(m_dark));
    chart.setFont(slideFont(26)); // the chart takes its parts' fonts from its own
    chart.setSeries(sweepSeries(m_lesson, result.measured));
    drawChart(page, chart);
    return page.image;
}

QImage LessonSlides::resultsSlide(const LessonResult& result) const
{
    Page page(m_lesson, deviceText(&result), m_device.simulated, m_dark, QStringLiteral("results"), afterCharts(result));
    QPainter p(&page.image);
    p.setRenderHint(QPainter::TextAntialiasing);
    const Page::Colours& c = page.colours;
    drawFitted(p, page.body, 46, 20, c.text, [&](int px) {
        QString s;
        if (!result.judged) {
            s += QStringLiteral("<div style='font-size:%1px; font-weight:bold; color:%2'>Not judged</div>")
                     .arg(px * 1.3)
                     .arg(hex(c.notHeld));
            s += QStringLiteral("<p>%1</p>").arg(html(result.notJudged));
            return s;
        }
        QString answer = html(result.verdict.answer);
        for (const LessonChoice& choice : m_lesson.question.choices)
            if (choice.id == result.verdict.answer)
                answer = html(choice.id) + ") " + html(choice.text);
        s += QStringLiteral("<div style='font-size:%1px; font-weight:bold'><span style='color:%2'>Answer:</span> %3</div>")
                 .arg(px * 1.3)
                 .arg(hex(c.accent), answer);
        s += QStringLiteral("<p style='margin-top:%1px'>because %2</p>").arg(px * 0.3).arg(html(result.verdict.why));
        s += QStringLiteral("<p style='margin-top:%1px; font-weight:bold; color:%2'>Checks: %3 of %4 held%5</p>")
                 .arg(px * 0.6)
                 .arg(hex(c.accent))
                 .arg(result.checksHeld())
                 .arg(result.verdict.checks.size())
                 .arg(result.device.simulated ? QStringLiteral(" (simulated)") : QString());
        s += QStringLiteral("<table cellspacing='0' cellpadding='%1' style='font-size:%2px'>").arg(px / 6).arg(px * 0.85);
        for (const LessonCheck& check : result.verdict.checks)
            s += QStringLiteral("<tr><td style='font-weight:bold; color:%1; white-space:nowrap'>%2</td>"
                                "<td>%3: <b>%4</b></td></tr>")
                     .arg(hex(check.held ? c.held : c.notHeld), check.held ? QStringLiteral("held") : QStringLiteral("NOT HELD"),
                          html(check.expectation), html(check.measured));
        s += QStringLiteral("</table>");
        s += QStringLiteral("<p style='margin-top:%1px; font-weight:bold; color:%2'>Takeaway</p>")
                 .arg(px * 0.6)
                 .arg(hex(c.accent));
        s += QStringLiteral("<p style='margin-top:%1px'>%2</p>").arg(px * 0.2).arg(html(result.takeaway));
        return s;
    });
    return page.image;
}

QImage LessonSlides::timelineSlide(const LessonResult& result) const
{
    Page page(m_lesson, deviceText(&result), m_device.simulated, m_dark, QStringLiteral("every run"),
              afterCharts(result) + 1);
    QPainter p(&page.image);
    p.setRenderHint(QPainter::TextAntialiasing);
    const QRect heading(page.body.left(), page.body.top() - 12, page.body.width(), 64);
    drawFitted(p, heading, 36, 24, page.colours.text, [&](int px) {
        return QStringLiteral("<span style='color:%1; font-weight:bold'>Every run, start to end</span>"
                              "<span style='font-size:%2px; color:%3'>&nbsp;&nbsp;(their timed regions: the set-up "
                              "before, such as allocations, is left out)</span>")
            .arg(hex(page.colours.accent))
            .arg(px * 0.7)
            .arg(hex(page.colours.muted));
    });
    const QRect plotArea(page.body.left() - kMargin / 2, heading.bottom() + 8, page.body.width() + kMargin,
                         page.body.bottom() - heading.bottom() + 20);
    p.drawImage(plotArea.topLeft(), timelinePicture(result, -1, plotArea.size()));
    return page.image;
}

bool LessonSlides::save(const QString& kind, const QString& name, const QString& title,
                        const std::function<QImage()>& render, QString* error)
{
    ++m_made;
    if (!m_only.isEmpty() && !m_only.contains(kind))
        return true; // numbered as in the whole set, so the names say where it sits
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QImageWriter writer(&buffer, "png");
    if (!writer.write(paletted(render()))) {
        *error = QStringLiteral("cannot encode %1: %2").arg(name, writer.errorString());
        return false;
    }
    QString why;
    if (!writeFileAtomically(QDir(m_dir).filePath(name), bytes, &why)) {
        *error = why;
        return false;
    }
    m_written << name;
    m_titles << title;
    return true;
}

bool LessonSlides::writeIntro(QString* error)
{
    if (!QDir().mkpath(m_dir)) {
        *error = QStringLiteral("cannot create the folder %1").arg(m_dir);
        return false;
    }
    return save(QStringLiteral("title"), QStringLiteral("01-title.png"), QStringLiteral("Title and explanation"),
                [this] { return titleSlide(); }, error)
        && save(QStringLiteral("question"), QStringLiteral("02-question.png"),
                QStringLiteral("The question, to predict before the run"), [this] { return questionSlide(); }, error);
}

bool LessonSlides::writeResults(const LessonResult& result, QString* error, const std::function<bool()>& stop)
{
    Trace trace;
    for (const LessonRunResult& r : result.measured.runs)
        trace.runs.push_back(r.run);
    for (const LessonSweepResult& s : result.measured.sweeps)
        trace.sweeps.push_back(s.sweep);
    m_document = std::make_unique<TraceDocument>();
    m_document->setTrace(trace, QString());
    // Aligned at their timed regions, as the window shows a lesson: each
    // run's setup before its timer takes its own time (hundreds of ms on a
    // GPU), which would leave the other runs' lanes empty beside a focus.
    m_document->setAlignTimedRegions(true);

    auto stopped = [&] { return stop && stop(); };
    int number = 3;
    auto name = [&](const QString& what) { return QStringLiteral("%1-%2.png").arg(number++, 2, 10, QChar('0')).arg(what); };
    for (std::size_t i = 0; i < result.focus.size(); ++i) {
        if (stopped())
            return true;
        const QString title = QStringLiteral("What to look at (%1 of %2): %3")
                                  .arg(i + 1)
                                  .arg(result.focus.size())
                                  .arg(QString::fromStdString(result.focus[i].callout));
        if (!save(QStringLiteral("focus"), name(QStringLiteral("focus-%1").arg(i + 1)), title,
                  [&] { return focusSlide(result, i); }, error))
            return false;
    }
    if (!result.measured.sweeps.empty()) {
        if (stopped())
            return true;
        if (!save(QStringLiteral("sweep"), name(QStringLiteral("sweep")), QStringLiteral("The bandwidth sweep"),
                  [&] { return sweepSlide(result); }, error))
            return false;
    }
    if (hasChart(result)) {
        if (stopped())
            return true;
        const QString parameter = QString::fromStdString(sweptParameterName(m_lesson.swept));
        if (!save(QStringLiteral("chart"), name(QStringLiteral("chart")),
                  QStringLiteral("Wall time against %1, with each run's bound").arg(parameter),
                  [&] { return chartSlide(result); }, error))
            return false;
    }
    if (stopped())
        return true;
    if (!save(QStringLiteral("results"), name(QStringLiteral("results")), QStringLiteral("Results: answer, checks, takeaway"),
              [&] { return resultsSlide(result); }, error))
        return false;
    if (stopped())
        return true;
    return save(QStringLiteral("timeline"), name(QStringLiteral("timeline")),
                QStringLiteral("Every run on one time axis (their timed regions)"), [&] { return timelineSlide(result); },
                error);
}

bool LessonSlides::writeIndex(const QString& command, QString* error)
{
    QString md;
    md += QStringLiteral("# Lesson %1: %2\n\n").arg(m_lesson.number).arg(QString::fromStdString(m_lesson.title));
    md += QStringLiteral("Recorded on **%1**%2. Made by:\n\n    %3\n\n")
              .arg(QString::fromStdString(m_device.label()),
                   m_device.simulated ? QStringLiteral(" (every figure is simulated)") : QString(), command);
    if (!m_only.isEmpty())
        md += QStringLiteral("Only the %1 slides are kept here (%2 of the %3 slides; numbered as in the whole set, "
                             "which the command without --only makes).\n\n")
                  .arg(m_only.join(QStringLiteral(", ")))
                  .arg(m_written.size())
                  .arg(m_made);
    for (int i = 0; i < m_written.size(); ++i)
        md += QStringLiteral("%1. %2 (`%3`)\n\n   ![%2](%3)\n\n").arg(i + 1).arg(m_titles.value(i), m_written[i]);
    QString why;
    if (!writeFileAtomically(QDir(m_dir).filePath(QStringLiteral("index.md")), md.toUtf8(), &why)) {
        *error = why;
        return false;
    }
    return true;
}

} // namespace ovs::ui
