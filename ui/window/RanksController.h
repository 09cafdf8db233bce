#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

class QProgressBar;
class QPushButton;
class QScrollArea;
class QStatusBar;

namespace ovs::ui {

class RankLoader;
class RanksPanel;
class TimelinePlot;
class TraceDocument;
class ViewState;
struct RankRead;

// The window's folder of ranks (issue 21): File > Open folder… and several
// files at once read on the RankLoader, with a progress bar and Cancel in
// the status bar; the result replaces the document (its old content stays
// until then, and after a Cancel). The ranks panel's choice scrolls the
// timeline to that rank's run, opening its trace first where it was not
// kept; folded runs stay folded and the zoom stays as it was.
class RanksController : public QObject {
    Q_OBJECT

public:
    RanksController(TraceDocument* document, ViewState* view, TimelinePlot* timeline, QScrollArea* timelineArea,
                    QStatusBar* statusBar, QObject* parent = nullptr);
    ~RanksController() override;

    RanksPanel* panel() const { return m_panel; }
    RankLoader* loader() const { return m_loader; }
    bool isBusy() const;

    // Reads a folder (one path) or several files as ranks. Returns at once.
    void read(const QStringList& paths, std::uint64_t openAllBytes);
    void read(const QStringList& paths);
    void cancel();
    // Scrolls the timeline to folder row `row`'s run, unfolded; opens it first
    // (in the background) where its trace was not kept.
    void showRank(std::size_t row);

signals:
    void notice(const QString& message);
    void error(const QString& title, const QString& message);
    // The document became a folder of ranks (after its reset).
    void opened();

private:
    void setBusy(bool busy);
    void onRead(const std::shared_ptr<RankRead>& read);
    void onOpened(const std::shared_ptr<RankRead>& read);
    void scrollToRun(int run);

    TraceDocument* m_document;
    ViewState* m_view;
    TimelinePlot* m_timeline;
    QScrollArea* m_timelineArea;
    RankLoader* m_loader;
    RanksPanel* m_panel;
    QProgressBar* m_progress;
    QPushButton* m_cancel;
    std::optional<std::size_t> m_showAfterOpen; // the row to scroll to once its trace is in
};

} // namespace ovs::ui
