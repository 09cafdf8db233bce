#pragma once

#include <QFont>
#include <QList>
#include <QObject>
#include <QPalette>

class QAction;
class QWidget;

namespace ovs::ui {

// Presentation mode (View > Presentation mode, F5): the window full screen,
// its font scaled kScale (the timeline's axis, labels, legend and rows, the
// summary and the panels all follow the window font) and a high-contrast
// palette; the dock panels (run controls, op details) are hidden so the
// timeline and summary get the screen, except those marked kKeepDockProperty. Esc or F5 leaves and restores the
// window as it was.
class PresentationMode : public QObject {
    Q_OBJECT

public:
    static constexpr double kScale = 1.6;
    // A dock with this property set to true stays shown (the Lessons panel:
    // the class reads it); every other dock is hidden while presenting.
    static constexpr const char* kKeepDockProperty = "keepWhenPresenting";

    explicit PresentationMode(QWidget* window);

    QAction* toggleAction() const { return m_toggle; }
    bool isActive() const { return m_active; }
    void setActive(bool active);

    // The font presentation mode gives a widget whose font is `base`.
    static QFont scaledFont(const QFont& base);

signals:
    void activeChanged(bool active);

private:
    QWidget* m_window;
    QAction* m_toggle;
    QAction* m_leave;
    bool m_active = false;
    // What to restore on leaving.
    Qt::WindowStates m_previousState;
    QFont m_previousFont;
    QPalette m_previousPalette;
    bool m_hadOwnFont = false;
    bool m_hadOwnPalette = false;
    QList<QWidget*> m_hiddenDocks;
};

} // namespace ovs::ui
