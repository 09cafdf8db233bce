#pragma once

#include "workers/CoreMetaTypes.h"
#include "workers/RunRequest.h"

#include <QList>
#include <QString>
#include <QWidget>

#include <vector>

class QCheckBox;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QVBoxLayout;

namespace ovs::ui {

// The knobs of a run: device, pipelines, chunk count and size, slots, staging
// threads, kernel work, the optional bandwidth sweep; Run and Cancel; progress. Problems with
// the parameters are shown under the knobs as they are typed (and Run stays
// disabled), never in a dialog.
//
// Children carry object names for tests and scripting: "device", "pipeline:ID"
// (per ovs::pipelineKinds()), "chunks", "chunkMiB", "slots", "stagingThreads", "kernelRepeats",
// "bench", "benchSizes", "problem", "run", "cancel", "progress", "status".
class ControlPanel : public QWidget {
    Q_OBJECT

public:
    explicit ControlPanel(QWidget* parent = nullptr);

    // The request the knobs describe now (whether or not it can run).
    RunRequest request() const;
    // Why Run is disabled, as shown under the knobs; empty when the request can run.
    QString problem() const { return m_problemText; }
    bool isRunning() const { return m_running; }

    // "1, 4, 16" (MiB) -> bytes; on a bad entry returns nothing and says why.
    static std::vector<std::uint64_t> parseSizes(const QString& text, QString* error);

public slots:
    // Replaces the device list (from RunController::devicesListed). Keeps the
    // current choice when it is still listed; until the user has picked one,
    // prefers the first available GPU.
    void setDevices(const QList<ovs::DeviceListing>& devices);
    // Locks the knobs and enables Cancel while a run is going.
    void setRunning(bool running);
    // fraction in [0, 1], or negative when the end cannot be known (a
    // profiled program runs until it exits): the bar then shows it is busy.
    void setProgress(double fraction, const QString& what);
    // The end of a run: its closing message under the progress bar.
    void showFinished(bool ok, const QString& message);
    // What the Run button does: emits runRequested(request()) when the
    // request can run and none is going; otherwise does nothing.
    void requestRun();

signals:
    void runRequested(const ovs::ui::RunRequest& request);
    void cancelRequested();

protected:
    // Enter anywhere in the panel runs, Escape cancels: the children pass
    // those keys on rather than using them.
    void keyPressEvent(QKeyEvent* event) override;

private:
    // The constructor's parts: each group of widgets, how they are laid
    // out, and what they change.
    void buildDevice();
    QVBoxLayout* buildPipelines();
    void buildSpinBoxes();
    QHBoxLayout* buildBench();
    QHBoxLayout* buildButtonsAndStatus();
    void layOut(QVBoxLayout* pipelineBox, QHBoxLayout* benchRow, QHBoxLayout* buttons);
    void connectInputs();
    void updateProblem();
    void updateEnabled();

    QComboBox* m_device;
    std::vector<QCheckBox*> m_pipelines;
    QSpinBox* m_chunks;
    QSpinBox* m_chunkMiB;
    QSpinBox* m_slots;
    QSpinBox* m_stagingThreads;
    QSpinBox* m_kernelRepeats;
    QCheckBox* m_bench;
    QLineEdit* m_benchSizes;
    QLabel* m_problem;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QProgressBar* m_progress;
    QLabel* m_status;
    QString m_problemText;
    bool m_running = false;
    bool m_cancelling = false;
    bool m_deviceChosenByUser = false;
};

} // namespace ovs::ui
