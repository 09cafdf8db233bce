#include "window/RanksController.h"

#include "document/TraceDocument.h"
#include "document/ViewState.h"
#include "panels/RanksPanel.h"
#include "style/DisplayText.h"
#include "timeline/TimelinePlot.h"
#include "workers/RankLoader.h"

#include <QFile>
#include <QFileInfo>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QStatusBar>
#include <QTimer>

#include <utility>
#include <vector>

namespace ovs::ui {

namespace {

QString localPath(const std::string& path)
{
    return QFile::decodeName(QByteArray::fromStdString(path));
}

} // namespace

RanksController::RanksController(TraceDocument* document, ViewState* view, TimelinePlot* timeline,
                                 QScrollArea* timelineArea, QStatusBar* statusBar, QObject* parent)
    : QObject(parent), m_document(document), m_view(view), m_timeline(timeline), m_timelineArea(timelineArea),
      m_loader(new RankLoader(this)), m_panel(new RanksPanel(document)), m_progress(new QProgressBar),
      m_cancel(new QPushButton(tr("Cancel")))
{
    m_progress->setObjectName("rankProgress");
    m_progress->setMaximumWidth(220);
    m_cancel->setObjectName("rankCancel");
    statusBar->addPermanentWidget(m_progress);
    statusBar->addPermanentWidget(m_cancel);
    setBusy(false);

    connect(m_cancel, &QPushButton::clicked, this, &RanksController::cancel);
    connect(m_loader, &RankLoader::progress, this, [this](int done, int total) {
        m_progress->setRange(0, total);
        m_progress->setValue(done);
    });
    connect(m_loader, &RankLoader::folderRead, this, &RanksController::onRead);
    connect(m_loader, &RankLoader::opened, this, &RanksController::onOpened);
    connect(m_loader, &RankLoader::failed, this, [this](const QString& message) {
        setBusy(false);
        m_showAfterOpen.reset();
        emit error(tr("Could not read the ranks"), message);
    });
    connect(m_loader, &RankLoader::cancelled, this, [this] {
        setBusy(false);
        emit notice(tr("Cancelled reading the ranks: the window shows what it showed before."));
    });
    connect(m_panel, &RanksPanel::rankChosen, this, &RanksController::showRank);
}

RanksController::~RanksController() = default;

bool RanksController::isBusy() const
{
    return m_loader->isBusy();
}

void RanksController::setBusy(bool busy)
{
    m_progress->setVisible(busy);
    m_cancel->setVisible(busy);
    if (busy) {
        m_progress->setRange(0, 0); // busy until the files are counted
        m_progress->setFormat(tr("rank %v of %m"));
    }
}

void RanksController::read(const QStringList& paths)
{
    read(paths, RankLoader::kOpenAllBytes);
}

void RanksController::read(const QStringList& paths, std::uint64_t openAllBytes)
{
    m_showAfterOpen.reset();
    setBusy(true);
    emit notice(tr("Reading ranks from %1…").arg(paths.size() == 1 ? paths.front() : tr("%1 files").arg(paths.size())));
    m_loader->read(paths, openAllBytes);
}

void RanksController::cancel()
{
    m_loader->cancel();
}

void RanksController::onRead(const std::shared_ptr<RankRead>& read)
{
    setBusy(false);
    QStringList skipped;
    for (const RankFile& file : read->folder.files)
        if (!file.error.empty())
            skipped << displayText(file.error);
    const std::size_t ranks = read->folder.ranks.size();
    const std::size_t shown = read->rows.size();
    const QString source = QFileInfo(read->source).fileName();
    m_document->setRanks(std::move(read->opened), read->rows, std::move(read->folder), read->source);
    emit opened();
    QString message = shown == ranks
                          ? tr("Opened %1: %2 ranks").arg(source).arg(ranks)
                          : tr("Opened %1: %2 ranks, %3 shown (the slowest and the fastest); choose a rank in the "
                               "Ranks panel to open it")
                                .arg(source)
                                .arg(ranks)
                                .arg(shown);
    if (!skipped.isEmpty())
        message += tr("; skipped %1 file(s): %2").arg(skipped.size()).arg(skipped.join("; "));
    emit notice(message);
}

void RanksController::onOpened(const std::shared_ptr<RankRead>& read)
{
    setBusy(false);
    const RankJob* job = m_document->ranks();
    if (!job)
        return; // the document was replaced meanwhile
    // Run indices change (the new run goes in by rank): the zoom and the
    // folded ranks are kept by time and by rank across the reset.
    const std::int64_t start = m_view->visibleStartNs();
    const std::int64_t end = m_view->visibleEndNs();
    std::vector<std::size_t> foldedRows;
    for (const int run : m_view->collapsedRuns())
        if (static_cast<std::size_t>(run) < job->rowOfRun.size())
            foldedRows.push_back(job->rowOfRun[static_cast<std::size_t>(run)]);
    m_document->openRanks(std::move(read->opened), read->rows);
    m_view->setExtent(m_document->endNs());
    m_view->setVisibleRange(start, end);
    for (const std::size_t row : foldedRows)
        m_view->setCollapsed(job->runOfRow[row], true);
    if (const auto row = std::exchange(m_showAfterOpen, std::nullopt))
        showRank(*row);
}

void RanksController::showRank(std::size_t row)
{
    const RankJob* job = m_document->ranks();
    if (!job || row >= job->folder.ranks.size())
        return;
    if (job->isOpen(row)) {
        const int run = job->runOfRow[row];
        m_view->setCollapsed(run, false);
        scrollToRun(run);
        return;
    }
    if (m_showAfterOpen == row)
        return; // already on its way
    const RankSummary& rank = job->folder.ranks[row];
    m_showAfterOpen = row;
    setBusy(true);
    emit notice(tr("Opening %1…").arg(displayText(rank.label)));
    m_loader->open(row, localPath(job->folder.files[rank.file].path), QString::fromStdString(rank.runName));
}

void RanksController::scrollToRun(int run)
{
    // After the event loop has laid the timeline out at its new height
    // (folds and new runs change it): its title at the top of the area.
    QTimer::singleShot(0, this, [this, run] {
        if (run >= m_document->runCount())
            return;
        m_timeline->replot(QCustomPlot::rpImmediateRefresh);
        m_timelineArea->verticalScrollBar()->setValue(m_timeline->runTitleRect(run).top());
    });
}

} // namespace ovs::ui
