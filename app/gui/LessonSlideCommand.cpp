#include "LessonSlideCommand.h"
#include "../cli/ExitStatus.h"

#include "export/LessonSlides.h"
#include "style/Theme.h"

#include "devicefactory/DeviceFactory.h"
#include "lessons/LessonRunner.h"
#include "pipeline/PipelineConfig.h"
#include "record/CancelFlag.h"
#include "record/TraceCollector.h"
#include "formats/TraceJson.h"

#include <QFile>

#include <QApplication>

#include <csignal>
#include <cstdio>

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

int fail(int status, const QString& message)
{
    std::fprintf(stderr, "overlapscope: %s\n", qPrintable(message));
    return status;
}

void printList()
{
    for (const ovs::Lesson& lesson : ovs::lessons())
        std::printf("%2d  %-24s %s\n", lesson.number, lesson.id.c_str(), lesson.title.c_str());
}

} // namespace

int exportLessonSlides(const QStringList& args)
{
    QString name, dir, from, deviceSpec = QStringLiteral("auto");
    bool deviceGiven = false;
    QStringList only;
    bool list = false, dark = false, quiet = false;
    ovs::LessonOptions options;
    for (int i = 0; i < args.size(); ++i) {
        const QString& a = args[i];
        auto next = [&](const char* what, QString* value) {
            if (i + 1 >= args.size())
                return false;
            *value = args[++i];
            Q_UNUSED(what);
            return true;
        };
        QString value;
        if (a == "--lesson") {
            if (i + 1 < args.size() && args[i + 1] == "--list") {
                list = true;
                ++i;
            } else if (!next("--lesson", &name) || name.startsWith('-')) {
                return fail(kUsage, QStringLiteral("--lesson needs a lesson name or --list (one of: %1)")
                                        .arg(QString::fromStdString(ovs::lessonIds())));
            }
        } else if (a == "--list") {
            list = true;
        } else if (a == "-o" || a == "--output") {
            if (!next("-o", &dir))
                return fail(kUsage, "-o needs a folder");
        } else if (a == "--device") {
            if (!next("--device", &deviceSpec))
                return fail(kUsage, QStringLiteral("--device needs a value (%1)").arg(QString::fromStdString(ovs::deviceSpecSyntax())));
            deviceGiven = true;
        } else if (a == "--from") {
            if (!next("--from", &from))
                return fail(kUsage, "--from needs a trace (overlapscope-cli lesson NAME -o TRACE wrote it)");
        } else if (a == "--theme") {
            const auto theme = next("--theme", &value) ? ovs::ui::Theme::parse(value) : std::nullopt;
            if (!theme || *theme == ovs::ui::ThemeChoice::System)
                return fail(kUsage, QStringLiteral("bad value '%1' for --theme (light or dark)").arg(value));
            dark = *theme == ovs::ui::ThemeChoice::Dark;
        } else if (a == "--chunk-mib") {
            bool ok = next("--chunk-mib", &value);
            const long long mib = value.toLongLong(&ok);
            const long long most = static_cast<long long>(ovs::kMaxChunkBytes >> 22);
            if (!ok || mib < 1 || mib > most)
                return fail(kUsage, QStringLiteral("bad value '%1' for --chunk-mib (1 to %2)").arg(value).arg(most));
            options.chunkBytes = static_cast<std::uint64_t>(mib) << 20;
        } else if (a == "--only") {
            if (!next("--only", &value))
                return fail(kUsage, "--only needs kinds of slide");
            only = value.split(',', Qt::SkipEmptyParts);
            for (const QString& kind : only)
                if (!ovs::ui::LessonSlides::kinds().contains(kind))
                    return fail(kUsage, QStringLiteral("bad value '%1' for --only (a comma-separated list of: %2)")
                                            .arg(value, ovs::ui::LessonSlides::kinds().join(", ")));
        } else if (a == "--quiet") {
            quiet = true;
        } else if (a.startsWith('-')) {
            return fail(kUsage, QStringLiteral("unknown option '%1' for a lesson's slides (see --help)").arg(a));
        } else {
            return fail(kUsage, QStringLiteral("unexpected argument '%1' (a lesson's slides take no trace)").arg(a));
        }
    }
    if (list) {
        if (!name.isEmpty())
            return fail(kUsage, "give a lesson name or --list, not both");
        printList();
        return kOk;
    }
    const ovs::Lesson* lesson = ovs::findLesson(name.toStdString());
    if (!lesson)
        return fail(kUsage, QStringLiteral("unknown lesson '%1' (known: %2)").arg(name, QString::fromStdString(ovs::lessonIds())));
    if (dir.isEmpty())
        return fail(kUsage, "a lesson's slides need -o DIR, the folder to write them into");

    if (!from.isEmpty() && deviceGiven)
        return fail(kUsage, "give --from TRACE or --device, not both: a recorded lesson keeps its device");

    QApplication::setPalette(ovs::ui::Theme::palette(dark));
    QString error;
    ovs::CancelFlag cancel;
    std::optional<ovs::LessonResult> result;
    std::unique_ptr<ovs::ui::LessonSlides> slides;
    auto report = [&](int from) {
        for (int i = from; i < slides->written().size(); ++i)
            std::fprintf(stderr, "wrote %s/%s\n", qPrintable(dir), qPrintable(slides->written()[i]));
    };
    if (!from.isEmpty()) {
        // A lesson recorded elsewhere (a GPU server with no Qt): judged again
        // from its trace, on its own device.
        auto loaded = ovs::loadTrace(QFile::encodeName(from).toStdString());
        if (!loaded.trace)
            return fail(kBadInput, QString::fromStdString(loaded.error));
        std::string why;
        result = ovs::lessonFromTrace(*lesson, *loaded.trace, options, &why);
        if (!result)
            return fail(kUsage, QStringLiteral("%1: %2").arg(from, QString::fromStdString(why)));
        slides = std::make_unique<ovs::ui::LessonSlides>(*lesson, result->device, dir, dark);
        slides->setOnly(only);
        if (!slides->writeIntro(&error))
            return fail(kFailed, error);
        report(0);
    } else {
        std::unique_ptr<ovs::Device> device;
        try {
            device = ovs::createDevice(deviceSpec.toStdString());
        } catch (const ovs::DeviceUnavailable& e) {
            return fail(kNoDevice, QString::fromStdString(e.what()));
        } catch (const ovs::DeviceError& e) {
            return fail(kUsage, QString::fromStdString(e.what()));
        }
        slides = std::make_unique<ovs::ui::LessonSlides>(*lesson, device->info(), dir, dark);
        slides->setOnly(only);
        // The first two need no run: they are there even if the run is cancelled.
        if (!slides->writeIntro(&error))
            return fail(kFailed, error);
        report(0);

        g_cancel = &cancel;
        std::signal(SIGINT, onInterrupt);
        ovs::TraceCollector sink;
        result = ovs::runLesson(
            *lesson, *device, sink, cancel,
            [&](int index, int total, const std::string& title) {
                if (!quiet)
                    std::fprintf(stderr, "job %d of %d: %s\n", index + 1, total, title.c_str());
            },
            options);
        if (cancel.isCancelled()) {
            std::signal(SIGINT, SIG_DFL);
            return fail(kCancelled,
                        QStringLiteral("cancelled: the run's slides were not made; %1 keeps what was written before").arg(dir));
        }
    }
    g_cancel = &cancel;
    std::signal(SIGINT, onInterrupt);
    const int already = static_cast<int>(slides->written().size());
    const bool written = slides->writeResults(*result, &error, [&] { return cancel.isCancelled(); });
    report(already);
    std::signal(SIGINT, SIG_DFL);
    if (!written)
        return fail(kFailed, error);

    QString command = QStringLiteral("overlapscope export --lesson %1 -o %2 ").arg(QString::fromStdString(lesson->id), dir);
    command += from.isEmpty() ? QStringLiteral("--device %1").arg(deviceSpec) : QStringLiteral("--from %1").arg(from);
    if (dark)
        command += QStringLiteral(" --theme dark");
    if (!only.isEmpty())
        command += QStringLiteral(" --only %1").arg(only.join(','));
    if (options.chunkBytes != ovs::LessonOptions::kDefaultChunkBytes)
        command += QStringLiteral(" --chunk-mib %1").arg(options.chunkBytes >> 20);
    if (!slides->writeIndex(command, &error))
        return fail(kFailed, error);
    std::fprintf(stderr, "wrote %s/index.md\n", qPrintable(dir));
    if (cancel.isCancelled())
        return fail(kCancelled, QStringLiteral("cancelled: %1 holds the slides written before").arg(dir));
    if (!result->judged) {
        // A run that did not verify is 5, as in the CLI; any other reason 1.
        const int status = ovs::cli::exitStatusOf(result->outcome);
        return fail(status == kOk || status == kCancelled ? kFailed : status,
                    QStringLiteral("%1 (its slides say so)").arg(QString::fromStdString(result->notJudged)));
    }
    return kOk;
}
