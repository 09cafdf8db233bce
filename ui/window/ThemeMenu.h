#pragma once

#include "style/Theme.h"

#include <QMenu>

class QActionGroup;

namespace ovs::ui {

// View > Theme: System, Light, Dark. Applies the remembered choice when
// built, saves every change in QSettings, and with "System" follows the
// desktop when it switches (Qt 6.5+ reports that; older Qt reads the
// desktop palette once, at start).
class ThemeMenu : public QMenu {
    Q_OBJECT

public:
    explicit ThemeMenu(QWidget* parent = nullptr);

    ThemeChoice choice() const { return m_choice; }
    void choose(ThemeChoice choice);

private:
    QActionGroup* m_group;
    ThemeChoice m_choice = ThemeChoice::System;
};

} // namespace ovs::ui
