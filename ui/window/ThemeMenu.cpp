#include "window/ThemeMenu.h"

#include <QActionGroup>
#include <QGuiApplication>
#include <QStyleHints>
#include <QtGlobal>

namespace ovs::ui {

ThemeMenu::ThemeMenu(QWidget* parent) : QMenu(tr("&Theme"), parent), m_group(new QActionGroup(this))
{
    setObjectName("themeMenu");
    const std::pair<ThemeChoice, QString> entries[] = {
        {ThemeChoice::System, tr("&System (follow the desktop)")},
        {ThemeChoice::Light, tr("&Light")},
        {ThemeChoice::Dark, tr("&Dark")},
    };
    for (const auto& [choice, text] : entries) {
        QAction* action = addAction(text);
        action->setObjectName("theme-" + Theme::name(choice));
        action->setCheckable(true);
        m_group->addAction(action);
        connect(action, &QAction::triggered, this, [this, choice = choice] {
            choose(choice);
            Theme::save(choice);
        });
    }
#if QT_VERSION >= QT_VERSION_CHECK(6, 5, 0)
    connect(QGuiApplication::styleHints(), &QStyleHints::colorSchemeChanged, this, [this] {
        if (m_choice == ThemeChoice::System)
            Theme::apply(ThemeChoice::System);
    });
#endif
    choose(Theme::load());
}

void ThemeMenu::choose(ThemeChoice choice)
{
    m_choice = choice;
    for (QAction* action : m_group->actions())
        action->setChecked(action->objectName() == "theme-" + Theme::name(choice));
    Theme::apply(choice);
}

} // namespace ovs::ui
