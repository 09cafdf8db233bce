#include "workers/RankLoader.h"
#include "workers/NativePath.h"

#include "formats/TraceJson.h"

#include <QFile>
#include <QFileInfo>
#include <QMetaObject>

#include <algorithm>
#include <filesystem>
#include <new>
#include <utility>

namespace ovs::ui {

namespace {


// Moves the run of `trace` that shows `row` (by its run's name: a file of
// several runs gives a row per run, in any order) into `into`.
bool takeRun(Trace& trace, const RankSummary& row, std::vector<bool>& taken, Trace& into)
{
    for (std::size_t r = 0; r < trace.runs.size(); ++r) {
        if (taken[r] || trace.runs[r].name != row.runName)
            continue;
        taken[r] = true;
        into.runs.push_back(std::move(trace.runs[r]));
        if (into.tool.empty()) {
            into.tool = trace.tool;
            into.createdUtc = trace.createdUtc;
        }
        return true;
    }
    return false;
}

// The kept files' runs, in row order, into `read.opened`.
void takeKeptRuns(RankRead& read)
{
    std::vector<std::vector<bool>> taken(read.folder.files.size());
    for (std::size_t row = 0; row < read.folder.ranks.size(); ++row) {
        RankFile& file = read.folder.files[read.folder.ranks[row].file];
        if (!file.trace)
            continue;
        auto& used = taken[read.folder.ranks[row].file];
        used.resize(file.trace->runs.size(), false);
        if (takeRun(*file.trace, read.folder.ranks[row], used, read.opened))
            read.rows.push_back(row);
    }
    for (RankFile& file : read.folder.files)
        file.trace.reset();
}

// The rows opened when not all are: the straggler (else the slowest) and
// the fastest rank, by median step.
std::vector<std::size_t> rowsToOpen(const RankFolder& folder)
{
    if (folder.ranks.empty())
        return {};
    const std::size_t slow = folder.straggler.row.value_or(folder.straggler.slowestRow);
    std::size_t fast = 0;
    for (std::size_t i = 1; i < folder.ranks.size(); ++i)
        if (folder.ranks[i].stepMedianNs < folder.ranks[fast].stepMedianNs)
            fast = i;
    std::vector<std::size_t> rows{std::min(slow, fast), std::max(slow, fast)};
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    return rows;
}

} // namespace

RankLoader::RankLoader(QObject* parent) : QObject(parent), m_cancel(std::make_shared<std::atomic<bool>>(false)) {}

RankLoader::~RankLoader()
{
    // The worker's destructor waits for the job: let it stop at the next file.
    m_cancel->store(true);
}

void RankLoader::cancel()
{
    m_cancel->store(true);
}

void RankLoader::announceProgress()
{
    emit progress(m_done.load(), m_total.load());
}

std::shared_ptr<RankRead> RankLoader::readNow(const QStringList& paths, std::uint64_t openAllBytes,
                                             const std::function<bool()>& cancelled,
                                             const std::function<void(std::size_t, std::size_t)>& onRead,
                                             QString* error)
{
    std::vector<std::string> files;
    std::string why;
    if (paths.size() == 1 && QFileInfo(paths.front()).isDir()) {
        files = rankFilesIn(nativePath(paths.front()), &why);
    } else {
        for (const QString& path : paths)
            files.push_back(nativePath(path));
    }
    if (files.empty()) {
        *error = why.empty() ? tr("no files to read as ranks") : QString::fromStdString(why);
        return nullptr;
    }
    std::uint64_t bytes = 0;
    for (const std::string& file : files) {
        std::error_code ec;
        const auto size = std::filesystem::file_size(file, ec);
        bytes += ec ? 0 : size;
    }
    const bool openAll = bytes <= openAllBytes;
    if (onRead)
        onRead(0, files.size());

    RankReadOptions options;
    options.keep = [openAll](std::size_t) { return openAll; };
    if (onRead)
        options.onRead = [&onRead](std::size_t done, std::size_t total, const RankFile&) { onRead(done, total); };
    options.cancelled = cancelled;
    auto result = std::make_shared<RankRead>();
    result->folder = readRanks(files, options);
    result->source = paths.size() == 1 ? paths.front() : QFileInfo(paths.front()).absolutePath();
    const auto stopped = [&cancelled] { return cancelled && cancelled(); };
    if (stopped())
        return nullptr;
    if (result->folder.ranks.empty()) {
        *error = tr("No file of %1 could be read as a trace:").arg(result->source);
        for (const RankFile& file : result->folder.files)
            *error += '\n' + QString::fromStdString(file.error);
        return nullptr;
    }
    // A rank summary (docs/ranks.md, "Ranks past one machine") keeps no
    // trace, whatever the budget: a folder of them opens as a large folder
    // does, its two ranks worth a first look read from the traces their
    // summaries name.
    const bool allKept = std::all_of(result->folder.ranks.begin(), result->folder.ranks.end(),
                                     [&](const RankSummary& r) { return result->folder.files[r.file].trace.has_value(); });
    if (!openAll || !allKept) {
        // The two ranks worth a first look, read again now that the
        // summaries say which they are.
        for (std::size_t row : rowsToOpen(result->folder)) {
            if (stopped())
                return nullptr;
            RankFile& file = result->folder.files[result->folder.ranks[row].file];
            if (!file.trace)
                file.trace = std::move(loadTrace(file.path).trace);
        }
    }
    takeKeptRuns(*result);
    return result;
}

void RankLoader::read(const QStringList& paths, std::uint64_t openAllBytes)
{
    m_cancel->store(true); // a read replaces the one in progress
    auto cancelFlag = std::make_shared<std::atomic<bool>>(false);
    m_cancel = cancelFlag;
    m_done = 0;
    m_total = 0;
    m_worker.post([this, paths, openAllBytes, cancelFlag]() -> BackgroundWorker::Delivery {
        try {
            QString error;
            auto result = readNow(
                paths, openAllBytes, [cancelFlag] { return cancelFlag->load(); },
                [this](std::size_t done, std::size_t total) {
                    m_done = static_cast<int>(done);
                    m_total = static_cast<int>(total);
                    QMetaObject::invokeMethod(this, "announceProgress", Qt::QueuedConnection);
                },
                &error);
            if (!result && error.isEmpty())
                return [this] { emit cancelled(); };
            if (!result)
                return [this, error] { emit failed(error); };
            return [this, result, cancelFlag] {
                // Cancelled after the work was done but before it arrived:
                // the old document stays all the same.
                if (cancelFlag->load())
                    emit cancelled();
                else
                    emit folderRead(result);
            };
        } catch (const std::bad_alloc&) {
            return [this] { emit failed(tr("not enough memory to read these ranks")); };
        } catch (const std::exception& e) {
            return [this, message = QString::fromStdString(e.what())] { emit failed(message); };
        }
    });
}

void RankLoader::open(std::size_t row, const QString& path, const QString& runName)
{
    m_worker.post([this, row, path, runName]() -> BackgroundWorker::Delivery {
        try {
            TraceLoadResult loaded = loadTrace(nativePath(path));
            if (!loaded.trace)
                return [this, message = QString::fromStdString(loaded.error)] { emit failed(message); };
            auto result = std::make_shared<RankRead>();
            RankSummary wanted;
            wanted.runName = runName.toStdString();
            std::vector<bool> taken(loaded.trace->runs.size(), false);
            if (!takeRun(*loaded.trace, wanted, taken, result->opened))
                return [this, path, runName] {
                    emit failed(tr("%1 no longer holds the run %2").arg(path, runName));
                };
            result->rows.push_back(row);
            result->source = path;
            return [this, result] { emit opened(result); };
        } catch (const std::bad_alloc&) {
            return [this] { emit failed(tr("not enough memory to open this rank")); };
        } catch (const std::exception& e) {
            return [this, message = QString::fromStdString(e.what())] { emit failed(message); };
        }
    });
}

} // namespace ovs::ui
