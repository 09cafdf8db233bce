#include "LessonSlideCommand.h"
#include "../cli/ExitStatus.h"

#include "export/LessonSlides.h"
#include "style/Theme.h"

#include "devicefactory/DeviceFactory.h"
#include "lessons/LessonRunner.h"
#include "pipeline/PipelineConfig.h"
#include "base/CancelFlag.h"
#include "record/TraceCollector.h"
#include "formats/TraceJson.h"

#include <QFile>

#include <QApplication>

#include <csignal>
#include <cstdio>
#include <memory>
#include <optional>

namespace {

// Exit statuses: the CLI's table (README), which the rest of `overlapscope
// export` follows too.
constexpr int kOk = ovs::cli::kExitOk;
constexpr int kFailed = ovs::cli::kExitFailed;     // a slide could not be written, or a run failed
constexpr int kUsage = ovs::cli::kExitUsage;       // bad usage: unknown lesson or option, bad value
constexpr int kBadInput = ovs::cli::kExitBadInput; // --from: a trace that cannot be read or is malformed
constexpr int kNoDevice = ovs::cli::kExitNoDevice; // the device asked for is not available
constexpr int kCancelled = ovs::cli::kExitCancelled;

ovs::CancelFlag* g_cancel = nullptr;

extern "C" void onInterrupt(int)
{
    if (g_cancel)
        g_cancel->cancel();
    std::signal(SIGINT, SIG_DFL); // a second Ctrl-C ends it at once
}

int reportFailure(int status, const QString& message)
{
    std::fprintf(stderr, "overlapscope: %s\n", qPrintable(message));
    return status;
}

void printList()
{
    for (const ovs::Lesson& lesson : ovs::lessons())
        std::printf("%2d  %-24s %s\n", lesson.number, lesson.id.c_str(), lesson.title.c_str());
}

// What the command line asks for.
struct SlideRequest {
    QString name;
    QString dir;
    QString from;
    QString deviceSpec = QStringLiteral("auto");
    bool deviceGiven = false;
    QStringList only;
    bool list = false;
    bool dark = false;
    bool quiet = false;
    ovs::LessonOptions options;
};

// Reads `args` into `r`: kOk, or the usage error's status (said on stderr).
int parseSlideArgs(const QStringList& args, SlideRequest& r)
{
    for (int i = 0; i < args.size(); ++i) {
        const QString& a = args[i];
        auto next = [&](QString* value) {
            if (i + 1 >= args.size())
                return false;
            *value = args[++i];
            return true;
        };
        QString value;
        if (a == "--lesson") {
            if (i + 1 < args.size() && args[i + 1] == "--list") {
                r.list = true;
                ++i;
            } else if (!next(&r.name) || r.name.startsWith('-')) {
                return reportFailure(kUsage, QStringLiteral("--lesson needs a lesson name or --list (one of: %1)")
                                                 .arg(QString::fromStdString(ovs::lessonIds())));
            }
        } else if (a == "--list") {
            r.list = true;
        } else if (a == "-o" || a == "--output") {
            if (!next(&r.dir))
                return reportFailure(kUsage, "-o needs a folder");
        } else if (a == "--device") {
            if (!next(&r.deviceSpec))
                return reportFailure(kUsage, QStringLiteral("--device needs a value (%1)").arg(QString::fromStdString(ovs::deviceSpecSyntax())));
            r.deviceGiven = true;
        } else if (a == "--from") {
            if (!next(&r.from))
                return reportFailure(kUsage, "--from needs a trace (overlapscope-cli lesson NAME -o TRACE wrote it)");
        } else if (a == "--theme") {
            const auto theme = next(&value) ? ovs::ui::Theme::parse(value) : std::nullopt;
            if (!theme || *theme == ovs::ui::ThemeChoice::System)
                return reportFailure(kUsage, QStringLiteral("bad value '%1' for --theme (light or dark)").arg(value));
            r.dark = *theme == ovs::ui::ThemeChoice::Dark;
        } else if (a == "--chunk-mib") {
            bool ok = next(&value);
            const long long mib = value.toLongLong(&ok);
            const long long most = static_cast<long long>(ovs::kMaxChunkBytes >> 22);
            if (!ok || mib < 1 || mib > most)
                return reportFailure(kUsage, QStringLiteral("bad value '%1' for --chunk-mib (1 to %2)").arg(value).arg(most));
            r.options.chunkBytes = static_cast<std::uint64_t>(mib) << 20;
        } else if (a == "--only") {
            if (!next(&value))
                return reportFailure(kUsage, "--only needs kinds of slide");
            r.only = value.split(',', Qt::SkipEmptyParts);
            for (const QString& kind : r.only)
                if (!ovs::ui::LessonSlides::kinds().contains(kind))
                    return reportFailure(kUsage, QStringLiteral("bad value '%1' for --only (a comma-separated list of: %2)")
                                                     .arg(value, ovs::ui::LessonSlides::kinds().join(", ")));
        } else if (a == "--quiet") {
            r.quiet = true;
        } else if (a.startsWith('-')) {
            return reportFailure(kUsage, QStringLiteral("unknown option '%1' for a lesson's slides (see --help)").arg(a));
        } else {
            return reportFailure(kUsage, QStringLiteral("unexpected argument '%1' (a lesson's slides take no trace)").arg(a));
        }
    }
    return kOk;
}

// The command that writes these slides again, for index.md.
QString commandOf(const SlideRequest& r, const ovs::Lesson& lesson)
{
    QString command = QStringLiteral("overlapscope export --lesson %1 -o %2 ").arg(QString::fromStdString(lesson.id), r.dir);
    command += r.from.isEmpty() ? QStringLiteral("--device %1").arg(r.deviceSpec) : QStringLiteral("--from %1").arg(r.from);
    if (r.dark)
        command += QStringLiteral(" --theme dark");
    if (!r.only.isEmpty())
        command += QStringLiteral(" --only %1").arg(r.only.join(','));
    if (r.options.chunkBytes != ovs::LessonOptions::kDefaultChunkBytes)
        command += QStringLiteral(" --chunk-mib %1").arg(r.options.chunkBytes >> 20);
    return command;
}

// Says on stderr each slide written from the `from`th on.
void reportWritten(const SlideRequest& r, const ovs::ui::LessonSlides& slides, int from)
{
    for (int i = from; i < slides.written().size(); ++i)
        std::fprintf(stderr, "wrote %s/%s\n", qPrintable(r.dir), qPrintable(slides.written()[i]));
}

// A lesson's verdict and its slides.
struct JudgedLesson {
    std::optional<ovs::LessonResult> result;
    std::unique_ptr<ovs::ui::LessonSlides> slides;
};

// The slides, with the first two written: they need no run, so they are
// there even if the run is cancelled. This and the two below return kOk or
// the exit status (said on stderr).
int startSlides(const SlideRequest& r, const ovs::Lesson& lesson, const ovs::DeviceInfo& device, JudgedLesson& out)
{
    out.slides = std::make_unique<ovs::ui::LessonSlides>(lesson, device, r.dir, r.dark);
    out.slides->setOnly(r.only);
    QString error;
    if (!out.slides->writeIntro(&error))
        return reportFailure(kFailed, error);
    reportWritten(r, *out.slides, 0);
    return kOk;
}

// A lesson recorded elsewhere (a GPU server with no Qt): judged again from
// its trace, on its own device.
int judgeRecorded(const SlideRequest& r, const ovs::Lesson& lesson, JudgedLesson& out)
{
    auto loaded = ovs::loadTrace(QFile::encodeName(r.from).toStdString());
    if (!loaded.trace)
        return reportFailure(kBadInput, QString::fromStdString(loaded.error));
    std::string why;
    out.result = ovs::lessonFromTrace(lesson, *loaded.trace, r.options, &why);
    if (!out.result)
        return reportFailure(kUsage, QStringLiteral("%1: %2").arg(r.from, QString::fromStdString(why)));
    return startSlides(r, lesson, out.result->device, out);
}

// The lesson run here, on the device asked for; Ctrl-C cancels it.
int runAndJudge(const SlideRequest& r, const ovs::Lesson& lesson, ovs::CancelFlag& cancel, JudgedLesson& out)
{
    std::unique_ptr<ovs::Device> device;
    try {
        device = ovs::createDevice(r.deviceSpec.toStdString());
    } catch (const ovs::DeviceUnavailable& e) {
        return reportFailure(kNoDevice, QString::fromStdString(e.what()));
    } catch (const ovs::DeviceError& e) {
        return reportFailure(kUsage, QString::fromStdString(e.what()));
    }
    if (const int status = startSlides(r, lesson, device->info(), out); status != kOk)
        return status;

    g_cancel = &cancel;
    std::signal(SIGINT, onInterrupt);
    ovs::TraceCollector sink;
    out.result = ovs::runLesson(
        lesson, *device, sink, cancel,
        [&](int index, int total, const std::string& title) {
            if (!r.quiet)
                std::fprintf(stderr, "job %d of %d: %s\n", index + 1, total, title.c_str());
        },
        r.options);
    if (cancel.isCancelled()) {
        std::signal(SIGINT, SIG_DFL);
        return reportFailure(kCancelled,
                             QStringLiteral("cancelled: the run's slides were not made; %1 keeps what was written before").arg(r.dir));
    }
    return kOk;
}

// The slides of the results and DIR/index.md; Ctrl-C stops between slides.
int writeResultSlides(const SlideRequest& r, const ovs::Lesson& lesson, JudgedLesson& judged, ovs::CancelFlag& cancel)
{
    ovs::ui::LessonSlides& slides = *judged.slides;
    const ovs::LessonResult& result = *judged.result;
    g_cancel = &cancel;
    std::signal(SIGINT, onInterrupt);
    const int already = static_cast<int>(slides.written().size());
    QString error;
    const bool written = slides.writeResults(result, &error, [&] { return cancel.isCancelled(); });
    reportWritten(r, slides, already);
    std::signal(SIGINT, SIG_DFL);
    if (!written)
        return reportFailure(kFailed, error);
    if (!slides.writeIndex(commandOf(r, lesson), &error))
        return reportFailure(kFailed, error);
    std::fprintf(stderr, "wrote %s/index.md\n", qPrintable(r.dir));
    if (cancel.isCancelled())
        return reportFailure(kCancelled, QStringLiteral("cancelled: %1 holds the slides written before").arg(r.dir));
    if (!result.judged) {
        // A run that did not verify is 5, as in the CLI; any other reason 1.
        const int status = ovs::cli::exitStatusOf(result.outcome);
        return reportFailure(status == kOk || status == kCancelled ? kFailed : status,
                             QStringLiteral("%1 (its slides say so)").arg(QString::fromStdString(result.notJudged)));
    }
    return kOk;
}

} // namespace

int exportLessonSlides(const QStringList& args)
{
    SlideRequest r;
    if (const int status = parseSlideArgs(args, r); status != kOk)
        return status;
    if (r.list) {
        if (!r.name.isEmpty())
            return reportFailure(kUsage, "give a lesson name or --list, not both");
        printList();
        return kOk;
    }
    const ovs::Lesson* lesson = ovs::findLesson(r.name.toStdString());
    if (!lesson)
        return reportFailure(kUsage, QStringLiteral("unknown lesson '%1' (known: %2)").arg(r.name, QString::fromStdString(ovs::lessonIds())));
    if (r.dir.isEmpty())
        return reportFailure(kUsage, "a lesson's slides need -o DIR, the folder to write them into");
    if (!r.from.isEmpty() && r.deviceGiven)
        return reportFailure(kUsage, "give --from TRACE or --device, not both: a recorded lesson keeps its device");

    QApplication::setPalette(ovs::ui::Theme::palette(r.dark));
    ovs::CancelFlag cancel;
    JudgedLesson judged;
    const int status = r.from.isEmpty() ? runAndJudge(r, *lesson, cancel, judged) : judgeRecorded(r, *lesson, judged);
    if (status != kOk)
        return status;
    return writeResultSlides(r, *lesson, judged, cancel);
}
