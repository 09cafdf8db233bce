#pragma once

#include "trace/Op.h"

#include <qcustomplot.h>

#include <QPointer>

#include <array>
#include <vector>

namespace ovs::ui {

class TraceDocument;

// Achieved GB/s of every copy and staging op of the document's runs, against
// when the op started: pinned copies cluster near the link's rate while host
// staging sits far below it, which is the overlapped path's bottleneck made
// visible. One scatter series per (run, kind), in the op colours; runs differ
// by marker shape. Follows live runs batch by batch. In a comparison (File >
// Compare…) times count from each run's timed region, so before and after
// overlay as the timeline aligns them.
class OpRateChart : public QCustomPlot {
    Q_OBJECT

public:
    // The op kinds drawn, in legend order: the ones that move bytes.
    static constexpr std::array<OpKind, 4> kKinds = {OpKind::Upload, OpKind::Download, OpKind::StageIn,
                                                     OpKind::StageOut};

    explicit OpRateChart(TraceDocument* document, QWidget* parent = nullptr);

    // The series of `run` and `kind` (one of kKinds); nullptr if none.
    QCPGraph* series(int run, OpKind kind) const;
    // Points drawn over all series.
    int pointCount() const;
    bool isShowingEmptyState() const;

    // The rate of one op: bytes over the time the engine spent on it where
    // that was recorded (queueing behind another stream's copy is not
    // transfer time), else over its recorded interval. 0 when it has no
    // duration or moves no bytes.
    static double opRate(const Op& op);

private:
    void rebuildAll();
    void updateRun(int run);
    void updateAxes();

    QPointer<TraceDocument> m_document;
    QCPItemText* m_emptyText;
    std::vector<std::array<QCPGraph*, kKinds.size()>> m_series;
};

} // namespace ovs::ui
