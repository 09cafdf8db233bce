#pragma once

#include "workers/BackgroundWorker.h"

#include "ranks/RankFolder.h"
#include "trace/Trace.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace ovs::ui {

// What a read or an open of ranks hands the document (TraceDocument::
// setRanks, openRanks): the opened ranks' runs, run i showing folder row
// rows[i], and (a read) every rank's summary row.
struct RankRead {
    Trace opened;
    std::vector<std::size_t> rows;
    RankFolder folder; // its files' traces moved out into `opened`
    QString source;    // the folder, or the first file
};

// Reads a folder of ranks (or several files) off the GUI thread, with the
// core's readRanks: every rank's summary row, and whole traces only for the
// ranks the window opens. A folder of at most kOpenAllBytes keeps them all;
// a larger one (128 ranks of 150 MB do not fit in memory) keeps the
// straggler and the fastest rank (the slowest where none stands out),
// read again once the summaries say which they are; the others open on
// demand (open()). Cancel stops before the next file and leaves the
// document as it was. Jobs run one at a time on the loader's worker.
class RankLoader : public QObject {
    Q_OBJECT

public:
    // 1 GiB: a laptop holds about 3-4 times a trace's size as ops and
    // analyses; past this the window opens two ranks, not all.
    static constexpr std::uint64_t kOpenAllBytes = std::uint64_t(1) << 30;

    explicit RankLoader(QObject* parent = nullptr);
    ~RankLoader() override;

    // `paths`: one folder (its files: rankFilesIn), or several files.
    // Returns at once; emits progress() per file, then folderRead(), failed()
    // or cancelled().
    void read(const QStringList& paths, std::uint64_t openAllBytes = kOpenAllBytes);
    // Loads the trace of folder row `row` (its file `path`, the run named
    // `runName` in it); emits opened() or failed().
    void open(std::size_t row, const QString& path, const QString& runName);
    // Stops the job in progress before its next file; it emits cancelled().
    void cancel();
    bool isBusy() const { return m_worker.isBusy(); }

    // What a read does, on the calling thread (the loader's worker, the
    // headless export, the benchmark): the ranks of `paths`, the opened
    // ones' runs taken out of their files' traces in row order. Null with
    // `error` when nothing was readable; null and no error when cancelled.
    static std::shared_ptr<RankRead> readNow(const QStringList& paths, std::uint64_t openAllBytes,
                                             const std::function<bool()>& cancelled,
                                             const std::function<void(std::size_t done, std::size_t total)>& onRead,
                                             QString* error);

    // The read in progress: files done, and in all.
    int doneFiles() const { return m_done.load(); }
    int totalFiles() const { return m_total.load(); }

signals:
    void progress(int done, int total);
    void folderRead(const std::shared_ptr<ovs::ui::RankRead>& ranks);
    void opened(const std::shared_ptr<ovs::ui::RankRead>& ranks);
    // Nothing readable (every file skipped, or no such folder); the message says why.
    void failed(const QString& message);
    void cancelled();

private:
    // On the GUI thread, woken by the reading threads: emits progress().
    Q_INVOKABLE void announceProgress();

    std::shared_ptr<std::atomic<bool>> m_cancel; // the current job's
    std::atomic<int> m_done{0};
    std::atomic<int> m_total{0};
    // Last: destroyed first, it waits for the job, which writes the members above.
    BackgroundWorker m_worker;
};

} // namespace ovs::ui
