#include "TimelineExportCommand.h"
#include "Failure.h"
#include "../cli/ExitStatus.h"

#include "charts/BandwidthChart.h"
#include "document/Comparison.h"
#include "document/TraceDocument.h"
#include "document/ViewState.h"
#include "export/ExportCaps.h"
#include "export/ExportWhatIf.h"
#include "export/ImageFormat.h"
#include "export/PlotExport.h"
#include "export/TimelineExport.h"
#include "models/AnalysisCache.h"
#include "models/OpeningView.h"
#include "style/Theme.h"
#include "workers/RankLoader.h"

#include "formats/TraceJson.h"
#include "base/MessageText.h"
#include "io/SameFile.h"

#include <QApplication>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <utility>

using ovs::cli::kExitBadInput;
using ovs::cli::kExitFailed;
using ovs::cli::kExitOk;
using ovs::cli::kExitUsage;

namespace {

const QStringList kValueOptions = {"-o",      "--output",      "--bandwidth", "--scale",       "--from-ms",
                                   "--to-ms", "--theme",       "--runs",      "--playhead-ms", "--max-trace-mib",
                                   "--width", "--height",   "--what-if",  "--pinned-rate"};

// What the command line asks for.
struct ExportRequest {
    QString input, output, bandwidth, whatIf;
    ovs::GivenPinnedRates pinnedRates; // --pinned-rate: the findings' and the what-if's
    QString compared; // --compare: the after trace (input is the before)
    bool compare = false;
    double scale = 1.0;
    std::optional<std::int64_t> fromNs, toNs;
    std::optional<std::pair<int, int>> runs;
    std::optional<std::int64_t> playheadNs;
    bool align = false;
    bool dark = false;
    int width = 1600, height = 0;
    std::uint64_t maxTraceBytes = ovs::kDefaultMaxTraceBytes;
};

// A time in ms as ns, refused unless finite, >= 0 and within int64 ns.
std::optional<std::int64_t> parseMs(const QString& text)
{
    bool ok = false;
    const double ms = text.toDouble(&ok);
    // 9223372036854 ms is the last whole ms that int64 ns can hold.
    if (!ok || !std::isfinite(ms) || ms < 0 || ms > 9223372036854.0)
        return std::nullopt;
    return static_cast<std::int64_t>(std::llround(ms * 1e6));
}

// "A" or "A-B", counted from 1.
std::optional<std::pair<int, int>> parseRuns(const QString& text)
{
    const QStringList parts = text.split('-');
    if (parts.size() > 2)
        return std::nullopt;
    bool okFirst = false, okLast = true;
    const int first = parts[0].toInt(&okFirst);
    const int last = parts.size() == 2 ? parts[1].toInt(&okLast) : first;
    if (!okFirst || !okLast || first < 1 || last < first)
        return std::nullopt;
    return std::make_pair(first, last);
}

// The argument at args[i] (an option and its value, then i is on the value,
// or a trace) into `request`; the exit status of a refusal, else kExitOk.
int readArgument(const QStringList& args, int& i, ExportRequest& request)
{
    const QString& a = args[i];
    auto next = [&]() -> const QString& { return args[++i]; };
    bool ok = true;
    QString range;
    if (a == "-o" || a == "--output") {
        request.output = next();
    } else if (a == "--align") {
        request.align = true;
    } else if (a == "--compare") {
        request.compare = true;
    } else if (a == "--bandwidth") {
        request.bandwidth = next();
    } else if (a == "--scale") {
        request.scale = next().toDouble(&ok), ok = ok && request.scale >= 0.25 && request.scale <= 8;
        range = "0.25 to 8";
    } else if (a == "--from-ms" || a == "--to-ms") {
        auto& target = a == "--from-ms" ? request.fromNs : request.toNs;
        target = parseMs(next());
        ok = target.has_value();
        range = "a finite time in ms, 0 to 9223372036854";
    } else if (a == "--theme") {
        const auto theme = ovs::ui::Theme::parse(next());
        ok = theme && *theme != ovs::ui::ThemeChoice::System;
        request.dark = theme == ovs::ui::ThemeChoice::Dark;
        range = "light or dark";
    } else if (a == "--playhead-ms") {
        request.playheadNs = parseMs(next());
        ok = request.playheadNs.has_value();
        range = "a finite time in ms, 0 to 9223372036854";
    } else if (a == "--what-if") {
        request.whatIf = next();
    } else if (a == "--pinned-rate") {
        std::string error;
        const auto given = ovs::parsePinnedRates(next().toStdString(), &error);
        ok = given.has_value();
        request.pinnedRates = given.value_or(ovs::GivenPinnedRates{});
        range = QString::fromStdString(error);
    } else if (a == "--runs") {
        request.runs = parseRuns(next());
        ok = request.runs.has_value();
        range = "A or A-B, runs counted from 1";
    } else if (a == "--max-trace-mib") {
        const qlonglong mib = next().toLongLong(&ok);
        ok = ok && mib >= 1 && mib <= static_cast<qlonglong>(ovs::kMaxTraceBytesCeiling >> 20);
        request.maxTraceBytes = ok ? static_cast<std::uint64_t>(mib) << 20 : request.maxTraceBytes;
        range = QString("1 to %1").arg(ovs::kMaxTraceBytesCeiling >> 20);
    } else if (a == "--width") {
        request.width = next().toInt(&ok), ok = ok && request.width >= 200 && request.width <= ovs::ui::ExportCaps::kMaxSidePixels;
        range = QString("200 to %1").arg(ovs::ui::ExportCaps::kMaxSidePixels);
    } else if (a == "--height") {
        request.height = next().toInt(&ok), ok = ok && request.height >= 100 && request.height <= ovs::ui::ExportCaps::kMaxSidePixels;
        range = QString("100 to %1").arg(ovs::ui::ExportCaps::kMaxSidePixels);
    } else if (a.startsWith('-')) {
        return fail(kExitUsage, QString("unknown option '%1' (see --help)").arg(a));
    } else if (request.input.isEmpty()) {
        request.input = a;
    } else if (request.compared.isEmpty()) {
        request.compared = a; // refused later unless --compare asked for two traces
    } else {
        return fail(kExitUsage, QString("unexpected argument '%1'").arg(a));
    }
    if (!ok)
        return fail(kExitUsage, QString("bad value '%1' for %2 (%3)").arg(args[i], a, range));
    return kExitOk;
}

// Every argument into `request`, in order; the first refusal's exit status.
int readArguments(const QStringList& args, ExportRequest& request)
{
    QStringList seen;
    for (int i = 0; i < args.size(); ++i) {
        const QString& a = args[i];
        // A repeated option is refused rather than letting the last one win silently.
        if (a.startsWith('-')) {
            const QString name = a == "--output" ? QStringLiteral("-o") : a;
            if (seen.contains(name))
                return fail(kExitUsage, QString("%1 given twice").arg(a));
            seen << name;
        }
        // Checked here, so a missing value returns through main and QApplication.
        if (kValueOptions.contains(a) && i + 1 >= args.size())
            return fail(kExitUsage, QString("%1 needs a value").arg(a));
        if (const int status = readArgument(args, i, request); status != kExitOk)
            return status;
    }
    return kExitOk;
}

// The options together: what goes with what, the formats the paths name.
int checkRequest(const ExportRequest& r)
{
    if (!r.compare && !r.compared.isEmpty())
        return fail(kExitUsage, QString("unexpected argument '%1'").arg(r.compared));
    if (r.compare && (r.compared.isEmpty() || r.output.isEmpty()))
        return fail(kExitUsage, "export --compare needs two traces, BEFORE AFTER, and -o OUT (see --help)");
    if (r.compare && (r.runs || !r.whatIf.isEmpty()))
        return fail(kExitUsage, QString("%1 does not go with --compare").arg(r.runs ? "--runs" : "--what-if"));
    if (r.input.isEmpty() || r.output.isEmpty())
        return fail(kExitUsage, "export needs a trace and -o OUT (see --help)");
    if (r.fromNs.has_value() != r.toNs.has_value() || (r.fromNs && *r.toNs <= *r.fromNs))
        return fail(kExitUsage, "give both --from-ms and --to-ms, with from < to");
    QString error;
    if (!ovs::ui::imageFormatForPath(r.output, &error))
        return fail(kExitUsage, error);
    if (!r.bandwidth.isEmpty() && !ovs::ui::imageFormatForPath(r.bandwidth, &error))
        return fail(kExitUsage, error);
    if (!r.whatIf.isEmpty() && !ovs::ui::isExportWhatIfId(r.whatIf, &error))
        return fail(kExitUsage, error);
    return kExitOk;
}

// Before the trace is read, so that a refused export writes nothing: no
// output may be an input, nor the two outputs one file.
int refuseOutputsThatAreInputs(const ExportRequest& r)
{
    const std::string inputPath = QFile::encodeName(r.input).toStdString();
    const std::string comparedPath = QFile::encodeName(r.compared).toStdString();
    const std::string outputPath = QFile::encodeName(r.output).toStdString();
    const std::string bandwidthPath = QFile::encodeName(r.bandwidth).toStdString();
    for (const std::string& out : {outputPath, bandwidthPath})
        for (const std::string& in : {inputPath, comparedPath}) {
            if (in.empty())
                continue;
            if (const std::string why = ovs::whyOutputIsInput(out, in); !why.empty())
                return fail(kExitUsage, QString::fromStdString(why));
        }
    if (!r.bandwidth.isEmpty() && ovs::sameFile(outputPath, bandwidthPath))
        return fail(kExitUsage, "-o and --bandwidth name the same file: the chart would replace the timeline");
    return kExitOk;
}

// The trace to draw: the input, or with --compare both made into one trace
// (each pair's runs, and the sweeps) and `comparison`; cut to --runs.
int loadRequestedTrace(const ExportRequest& r, std::optional<ovs::Trace>& trace,
                        std::shared_ptr<const ovs::ui::Comparison>& comparison,
                        std::shared_ptr<ovs::ui::RankRead>& ranks)
{
    // A folder: the ranks of one job, read as the window reads them (every
    // rank under RankLoader::kOpenAllBytes, else the slowest and the fastest).
    ovs::TraceLoadResult loaded;
    if (!r.compare && QFileInfo(r.input).isDir()) {
        if (r.runs)
            return fail(kExitUsage, "--runs: not with a folder of ranks");
        QString error;
        ranks = ovs::ui::RankLoader::readNow({r.input}, ovs::ui::RankLoader::kOpenAllBytes, {}, {}, &error);
        if (!ranks)
            return fail(kExitBadInput, error);
        for (const ovs::RankFile& file : ranks->folder.files)
            if (!file.error.empty())
                std::fprintf(stderr, "skipped %s\n", ovs::clippedMessage(file.error).c_str());
        loaded.trace = std::move(ranks->opened);
    } else {
        loaded = ovs::loadTrace(QFile::encodeName(r.input).toStdString(), r.maxTraceBytes);
    }
    if (!loaded.trace)
        return fail(kExitBadInput, QString::fromStdString(loaded.error));
    if (r.compare) {
        auto after = ovs::loadTrace(QFile::encodeName(r.compared).toStdString(), r.maxTraceBytes);
        if (!after.trace)
            return fail(kExitBadInput, QString::fromStdString(after.error));
        ovs::AnalysisOptions options;
        options.pinnedRates = r.pinnedRates;
        ovs::ui::ComparisonBuild build =
            ovs::ui::buildComparison(std::move(*loaded.trace), std::move(*after.trace), r.input, r.compared, options);
        if (!build.trace)
            return fail(kExitUsage, build.error);
        loaded.trace = std::move(build.trace);
        comparison = std::move(build.comparison);
    }
    if (r.runs) {
        auto& all = loaded.trace->runs;
        if (static_cast<std::size_t>(r.runs->first) > all.size())
            return fail(kExitUsage, QString("--runs %1-%2: the trace has %3 runs").arg(r.runs->first).arg(r.runs->second).arg(all.size()));
        all.erase(all.begin() + std::min<std::size_t>(all.size(), static_cast<std::size_t>(r.runs->second)), all.end());
        all.erase(all.begin(), all.begin() + (r.runs->first - 1));
    }
    if (!r.bandwidth.isEmpty() && loaded.trace->sweeps.empty())
        return fail(kExitUsage, "--bandwidth: the trace has no bandwidth sweep to render");
    trace = std::move(loaded.trace);
    return kExitOk;
}

// The view the picture shows: the whole document, --from-ms/--to-ms, the
// playhead, and --what-if's ghost with its framing.
int setUpView(const ExportRequest& r, ovs::ui::TraceDocument& document, ovs::ui::ViewState& view)
{
    ovs::ui::AnalysisCache::of(&document)->setPinnedRates(r.pinnedRates);
    view.setExtent(document.endNs());
    view.resetView();
    if (r.fromNs)
        view.setVisibleRange(*r.fromNs, *r.toNs);
    if (r.playheadNs)
        view.setPlayhead(*r.playheadNs);
    QString error;
    if (!r.whatIf.isEmpty() && !ovs::ui::chooseExportWhatIf(document, view, r.whatIf, &error))
        return fail(kExitUsage, error);
    // A what-if is replayed over the judged span (the loop, not the setup):
    // without a range of its own, the picture frames it as the window opens
    // once the runs are analysed (the judged span is their analysis).
    if (!r.whatIf.isEmpty() && !r.fromNs) {
        ovs::ui::AnalysisCache* cache = ovs::ui::AnalysisCache::of(&document);
        for (int run = 0; run < document.runCount(); ++run)
            cache->analysis(run);
        cache->finishPending();
        if (const ovs::ui::AxisSpan work = ovs::ui::openingView(document, *cache); !work.isEmpty())
            view.setVisibleRange(work.startNs, work.endNs);
    }
    return kExitOk;
}

// The timeline, then --bandwidth's chart.
int writePictures(const ExportRequest& r, ovs::ui::TraceDocument& document, const ovs::ui::ViewState& view)
{
    // Light unless asked: exports are mostly printed or put on slides.
    QApplication::setPalette(ovs::ui::Theme::palette(r.dark));
    ovs::ui::TimelineExportOptions options;
    options.width = r.width;
    options.height = r.height;
    options.scale = r.scale;
    QString error;
    bool overCaps = false;
    if (!ovs::ui::TimelineExport::write(document, view, r.output, options, nullptr, &error, &overCaps))
        return fail(overCaps ? kExitUsage : kExitFailed, error);
    std::fprintf(stderr, "wrote %s\n", qPrintable(r.output));
    if (r.bandwidth.isEmpty())
        return kExitOk;

    ovs::ui::BandwidthChart chart(&document);
    ovs::ui::PlotExportOptions chartOptions;
    chartOptions.width = 1000;
    chartOptions.height = 600;
    chartOptions.scale = r.scale;
    chartOptions.title = "OverlapScope bandwidth sweep";
    chart.resize(chartOptions.width, chartOptions.height);
    if (!ovs::ui::exportPlot(chart, r.bandwidth, chartOptions, &error))
        return fail(kExitFailed, error);
    std::fprintf(stderr, "wrote %s\n", qPrintable(r.bandwidth));
    return kExitOk;
}

} // namespace

int exportTimeline(const QStringList& args)
{
    ExportRequest request;
    if (const int status = readArguments(args, request); status != kExitOk)
        return status;
    if (const int status = checkRequest(request); status != kExitOk)
        return status;
    if (const int status = refuseOutputsThatAreInputs(request); status != kExitOk)
        return status;
    std::optional<ovs::Trace> trace;
    std::shared_ptr<const ovs::ui::Comparison> comparison;
    std::shared_ptr<ovs::ui::RankRead> ranks;
    if (const int status = loadRequestedTrace(request, trace, comparison, ranks); status != kExitOk)
        return status;

    ovs::ui::TraceDocument document;
    // Moved, not copied: a loaded name may be hundreds of MiB.
    if (comparison) {
        document.setComparison(std::move(*trace), comparison); // aligned
    } else if (ranks) {
        document.setRanks(std::move(*trace), ranks->rows, std::move(ranks->folder), request.input);
    } else {
        document.setTrace(std::move(*trace), request.input);
        document.setAlignTimedRegions(request.align);
    }
    trace.reset();
    ovs::ui::ViewState view;
    if (const int status = setUpView(request, document, view); status != kExitOk)
        return status;
    return writePictures(request, document, view);
}
