#include "timeline/RefreshThrottle.h"

namespace ovs::ui {

RefreshThrottle::RefreshThrottle(QObject* parent, int intervalMs) : QObject(parent)
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(intervalMs);
    connect(&m_timer, &QTimer::timeout, this, &RefreshThrottle::due);
}

void RefreshThrottle::request()
{
    if (!m_timer.isActive())
        m_timer.start();
}

} // namespace ovs::ui
