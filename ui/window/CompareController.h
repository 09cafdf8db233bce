#pragma once

#include "document/Comparison.h"

#include <QObject>
#include <QString>

#include <deque>
#include <memory>

namespace ovs {
struct Trace;
}

namespace ovs::ui {

class BackgroundWorker;
class TraceLoader;

// File > Compare…: reads two traces with the background loader (in order:
// before, then after), then pairs and analyses their runs on a worker
// (buildComparison replays every finding), and hands the result over; the
// GUI thread never waits for either. A second compare() while one is in
// progress replaces it: the older one's results are dropped.
class CompareController : public QObject {
    Q_OBJECT

public:
    explicit CompareController(QObject* parent = nullptr);
    ~CompareController() override;

    // Returns at once; emits ready() or failed().
    void compare(const QString& beforePath, const QString& afterPath);
    bool isBusy() const;

signals:
    // The document's trace and what the comparison found
    // (TraceDocument::setComparison takes both).
    void ready(const std::shared_ptr<ovs::Trace>& trace, const std::shared_ptr<const ovs::ui::Comparison>& comparison);
    // A trace could not be read, or no run pairs; the message says which.
    void failed(const QString& message);

private:
    struct Expected {
        int generation = 0;
        bool before = false;
    };
    void onLoaded(const std::shared_ptr<Trace>& trace);
    void onFailed(const QString& message);

    TraceLoader* m_loader;
    std::unique_ptr<BackgroundWorker> m_worker;
    std::deque<Expected> m_expected; // the loads asked for, in the loader's order
    int m_generation = 0;            // the compare() in progress; older results are dropped
    int m_failedGeneration = -1;
    QString m_beforePath;
    QString m_afterPath;
    std::shared_ptr<Trace> m_before;
};

} // namespace ovs::ui
