#pragma once

#include <QObject>
#include <QTimer>

namespace ovs::ui {

// Coalesces refresh requests: live batches arrive many times a second, and
// the timeline redraws at most once per interval however many came in.
class RefreshThrottle : public QObject {
    Q_OBJECT

public:
    static constexpr int kDefaultIntervalMs = 30;

    explicit RefreshThrottle(QObject* parent = nullptr, int intervalMs = kDefaultIntervalMs);

    // due() follows within the interval; requests meanwhile add nothing.
    void request();
    bool isPending() const { return m_timer.isActive(); }

signals:
    void due();

private:
    QTimer m_timer;
};

} // namespace ovs::ui
