#include "style/Theme.h"

#include <QApplication>
#include <QGuiApplication>
#include <QSettings>
#include <QStyleHints>
#include <QtGlobal>

namespace ovs::ui::Theme {

namespace {

const char* kSettingsKey = "view/theme";

std::optional<QPalette>& systemPalette()
{
    static std::optional<QPalette> captured;
    return captured;
}

void setGroups(QPalette& p, QPalette::ColorRole role, const QColor& color)
{
    p.setColor(QPalette::All, role, color);
}

} // namespace

QString name(ThemeChoice choice)
{
    switch (choice) {
    case ThemeChoice::System: return QStringLiteral("system");
    case ThemeChoice::Light: return QStringLiteral("light");
    case ThemeChoice::Dark: return QStringLiteral("dark");
    }
    return {};
}

std::optional<ThemeChoice> parse(const QString& text)
{
    const QString t = text.trimmed().toLower();
    for (ThemeChoice c : {ThemeChoice::System, ThemeChoice::Light, ThemeChoice::Dark})
        if (t == name(c))
            return c;
    return std::nullopt;
}

void captureSystemPalette()
{
    if (!systemPalette())
        systemPalette() = QGuiApplication::palette();
}

bool paletteIsDark(const QPalette& palette)
{
    // The window colour, as the desktop paints it; text lighter than the
    // window means a dark scheme even for a mid-grey window.
    const QColor window = palette.color(QPalette::Window);
    const QColor text = palette.color(QPalette::WindowText);
    return window.lightness() < 128 || (window.lightness() < 160 && text.lightness() > window.lightness());
}

bool systemPrefersDark()
{
#if QT_VERSION >= QT_VERSION_CHECK(6, 5, 0)
    if (const QStyleHints* hints = QGuiApplication::styleHints()) {
        const Qt::ColorScheme scheme = hints->colorScheme();
        if (scheme != Qt::ColorScheme::Unknown)
            return scheme == Qt::ColorScheme::Dark;
    }
#endif
    captureSystemPalette();
    return paletteIsDark(*systemPalette());
}

bool isDark(ThemeChoice choice)
{
    switch (choice) {
    case ThemeChoice::Light: return false;
    case ThemeChoice::Dark: return true;
    case ThemeChoice::System: return systemPrefersDark();
    }
    return false;
}

QPalette palette(bool dark)
{
    QPalette p;
    if (!dark) {
        setGroups(p, QPalette::Window, QColor(0xef, 0xef, 0xef));
        setGroups(p, QPalette::WindowText, QColor(0x1a, 0x1a, 0x1a));
        setGroups(p, QPalette::Base, Qt::white);
        setGroups(p, QPalette::AlternateBase, QColor(0xf5, 0xf5, 0xf5));
        setGroups(p, QPalette::Text, QColor(0x1a, 0x1a, 0x1a));
        setGroups(p, QPalette::Button, QColor(0xe6, 0xe6, 0xe6));
        setGroups(p, QPalette::ButtonText, QColor(0x1a, 0x1a, 0x1a));
        setGroups(p, QPalette::ToolTipBase, QColor(0xff, 0xff, 0xe8));
        setGroups(p, QPalette::ToolTipText, Qt::black);
        setGroups(p, QPalette::Highlight, QColor(0x30, 0x8c, 0xc6));
        setGroups(p, QPalette::HighlightedText, Qt::white);
        setGroups(p, QPalette::Link, QColor(0x1e, 0x6f, 0xd9));
        setGroups(p, QPalette::PlaceholderText, QColor(0x80, 0x80, 0x80));
        p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x9a, 0x9a, 0x9a));
        p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x9a, 0x9a, 0x9a));
        p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x9a, 0x9a, 0x9a));
    } else {
        setGroups(p, QPalette::Window, QColor(0x2b, 0x2d, 0x30));
        setGroups(p, QPalette::WindowText, QColor(0xe6, 0xe6, 0xe6));
        setGroups(p, QPalette::Base, QColor(0x1e, 0x1f, 0x22));
        setGroups(p, QPalette::AlternateBase, QColor(0x26, 0x28, 0x2b));
        setGroups(p, QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
        setGroups(p, QPalette::Button, QColor(0x35, 0x37, 0x3b));
        setGroups(p, QPalette::ButtonText, QColor(0xe6, 0xe6, 0xe6));
        setGroups(p, QPalette::ToolTipBase, QColor(0x35, 0x37, 0x3b));
        setGroups(p, QPalette::ToolTipText, QColor(0xf0, 0xf0, 0xf0));
        setGroups(p, QPalette::Highlight, QColor(0x3d, 0x8e, 0xe0));
        setGroups(p, QPalette::HighlightedText, Qt::white);
        setGroups(p, QPalette::Link, QColor(0x6c, 0xb0, 0xff));
        setGroups(p, QPalette::PlaceholderText, QColor(0x8a, 0x8a, 0x8a));
        p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x70, 0x70, 0x70));
        p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x70, 0x70, 0x70));
        p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x70, 0x70, 0x70));
    }
    return p;
}

QPalette highContrastPalette(bool dark)
{
    // Pure black and white carry to the back of a lecture hall and survive
    // washed-out projectors; the highlight stays a saturated blue.
    const QColor ink = dark ? Qt::white : Qt::black;
    const QColor paper = dark ? Qt::black : Qt::white;
    QPalette p = palette(dark);
    for (auto role : {QPalette::Window, QPalette::Base, QPalette::AlternateBase, QPalette::Button, QPalette::ToolTipBase})
        setGroups(p, role, paper);
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText, QPalette::ToolTipText})
        setGroups(p, role, ink);
    setGroups(p, QPalette::Highlight, dark ? QColor(0x5a, 0xa9, 0xff) : QColor(0x00, 0x4c, 0xc2));
    setGroups(p, QPalette::HighlightedText, paper);
    return p;
}

void apply(ThemeChoice choice)
{
    captureSystemPalette();
    QApplication::setPalette(palette(isDark(choice)));
}

ThemeChoice load()
{
    return parse(QSettings().value(kSettingsKey).toString()).value_or(ThemeChoice::System);
}

void save(ThemeChoice choice)
{
    QSettings().setValue(kSettingsKey, name(choice));
}

} // namespace ovs::ui::Theme
