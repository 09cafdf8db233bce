#pragma once

#include "document/TimeFrame.h"

#include "lessons/LessonRunner.h"

#include <QImage>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>

class QCustomPlot;

namespace ovs::ui {

class TraceDocument;

// A lesson as a numbered set of 1920x1080 PNG slides, for a class (read from
// the back of the room) and for docs/lessons/<id>/ (with an index.md that
// GitHub renders):
//   01-title       title and explanation
//   02-question    the question and its choices, before the run
//   03-focus-1 ... one per focus: the lesson's runs on one time axis, zoomed
//                  to the focus, with its callout (LessonCallouts)
//   NN-sweep       the bandwidth sweep, for lessons that make one
//   NN-chart       wall time and bound against the swept parameter, for
//                  lessons whose runs sweep one (Lesson::swept)
//   NN-results     answer, why, checks (held / NOT HELD, measured), takeaway
//   NN-timeline    every run, whole, with every callout
// Every slide names the device; a simulated one says "[simulated]". The
// title and question slides need no result, so they can be written before
// the lesson runs (a cancelled run keeps them).
class LessonSlides {
public:
    static constexpr int kWidth = 1920;
    static constexpr int kHeight = 1080;

    // `dir` is created if missing; `dark` picks the dark theme (else light).
    LessonSlides(const Lesson& lesson, const DeviceInfo& device, QString dir, bool dark);
    ~LessonSlides();

    // The kinds of slide to write (title, question, focus, sweep, chart,
    // results, timeline); empty, the default: all. The others are skipped but
    // counted, so the names keep their numbers.
    void setOnly(QStringList kinds) { m_only = std::move(kinds); }
    static QStringList kinds();

    // Each writes its slides through the atomic writer; false, with the
    // reason in words, when one cannot be written (nothing after it is).
    bool writeIntro(QString* error);
    // `stop` is asked between slides (a cancel): true stops, keeping what was
    // written, and returns true with nothing more written.
    bool writeResults(const LessonResult& result, QString* error, const std::function<bool()>& stop = {});
    // DIR/index.md: the slides in order, each shown, and how they were made.
    bool writeIndex(const QString& command, QString* error);

    // The files written so far, in order (file names, not paths).
    const QStringList& written() const { return m_written; }

    // The pictures alone, for tests and for the window.
    QImage titleSlide() const;
    QImage questionSlide() const;

    // The time range a timeline slide shows of `document` (the lesson's
    // runs, aligned): focus >= 0 that focus in context, else every run's
    // timed region; empty: the whole document. The window's lesson view
    // frames the same way (TimeFrame), so a slide shows what the class saw.
    static AxisSpan timelineView(const TraceDocument& document, const LessonResult& result, int focus);

private:
    struct Page;
    static void drawChart(Page& page, QCustomPlot& chart);
    QImage focusSlide(const LessonResult& result, std::size_t focus) const;
    QImage sweepSlide(const LessonResult& result) const;
    QImage chartSlide(const LessonResult& result) const;
    // Whether the result has a chart slide: the lesson sweeps a parameter
    // and some of its runs completed.
    bool hasChart(const LessonResult& result) const;
    // The number of the slide after the focus, sweep and chart slides.
    int afterCharts(const LessonResult& result) const;
    QImage resultsSlide(const LessonResult& result) const;
    QImage timelineSlide(const LessonResult& result) const;
    QImage timelinePicture(const LessonResult& result, int focus, QSize size) const;
    bool save(const QString& kind, const QString& name, const QString& title, const std::function<QImage()>& render,
              QString* error);
    QString deviceText(const LessonResult* result) const;

    const Lesson& m_lesson;
    DeviceInfo m_device;
    QString m_dir;
    bool m_dark;
    QStringList m_written;
    QStringList m_titles;
    QStringList m_only;
    int m_made = 0;
    std::unique_ptr<TraceDocument> m_document; // the lesson's runs, once a result is given
};

} // namespace ovs::ui
