#include "window/PresentationMode.h"

#include "style/Theme.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QKeySequence>
#include <QWidget>

#include <utility>

namespace ovs::ui {

PresentationMode::PresentationMode(QWidget* window) : QObject(window), m_window(window)
{
    m_toggle = new QAction(tr("&Presentation mode"), this);
    m_toggle->setObjectName("presentationAction");
    m_toggle->setCheckable(true);
    m_toggle->setShortcut(QKeySequence(Qt::Key_F5));
    m_toggle->setToolTip(tr("Full screen, large text, high contrast, for a lecture hall; Esc leaves"));
    connect(m_toggle, &QAction::toggled, this, &PresentationMode::setActive);
    window->addAction(m_toggle);

    // Esc leaves, but only while presenting: otherwise Esc keeps its
    // timeline meaning (clear the measurement).
    m_leave = new QAction(tr("Leave presentation mode"), this);
    m_leave->setShortcut(QKeySequence(Qt::Key_Escape));
    m_leave->setShortcutContext(Qt::WindowShortcut);
    m_leave->setEnabled(false);
    connect(m_leave, &QAction::triggered, this, [this] { setActive(false); });
    window->addAction(m_leave);
}

QFont PresentationMode::scaledFont(const QFont& base)
{
    QFont font = base;
    if (base.pointSizeF() > 0)
        font.setPointSizeF(base.pointSizeF() * kScale);
    else if (base.pixelSize() > 0)
        font.setPixelSize(static_cast<int>(base.pixelSize() * kScale + 0.5));
    return font;
}

void PresentationMode::setActive(bool active)
{
    if (active == m_active)
        return;
    m_active = active;
    if (m_toggle->isChecked() != active)
        m_toggle->setChecked(active);
    m_leave->setEnabled(active);
    if (active) {
        m_previousState = m_window->windowState();
        m_hadOwnFont = m_window->testAttribute(Qt::WA_SetFont);
        m_hadOwnPalette = m_window->testAttribute(Qt::WA_SetPalette);
        m_previousFont = m_window->font();
        m_previousPalette = m_window->palette();
        // Children inherit the window's font and palette, so one change
        // reaches every panel; the timeline restyles on the change events.
        m_window->setFont(scaledFont(m_window->font()));
        m_window->setPalette(Theme::highContrastPalette(Theme::paletteIsDark(QApplication::palette())));
        for (QDockWidget* dock : m_window->findChildren<QDockWidget*>()) {
            if (dock->isVisible() && !dock->property(kKeepDockProperty).toBool()) {
                dock->hide();
                m_hiddenDocks << dock;
            }
        }
        m_window->setWindowState(m_previousState | Qt::WindowFullScreen);
    } else {
        // Back to inheriting from the application where the window did.
        m_window->setFont(m_hadOwnFont ? m_previousFont : QFont());
        m_window->setPalette(m_hadOwnPalette ? m_previousPalette : QPalette());
        m_window->setWindowState(m_previousState & ~Qt::WindowFullScreen);
        for (QWidget* dock : std::exchange(m_hiddenDocks, {}))
            dock->show();
    }
    emit activeChanged(active);
}

} // namespace ovs::ui
