#pragma once

#include <QPalette>
#include <QString>

#include <optional>

namespace ovs::ui {

// Light and dark themes, and which one the user chose (View > Theme),
// remembered in QSettings. "System" follows the desktop: QStyleHints'
// colour scheme on Qt 6.5+, else the lightness of the desktop palette's
// window colour (captured before any theme replaced it).
enum class ThemeChoice { System, Light, Dark };

namespace Theme {

QString name(ThemeChoice choice);                  // "system", "light", "dark"
std::optional<ThemeChoice> parse(const QString& text); // case-insensitive; nullopt if unknown

// Records the desktop's palette as it is now; call once before the first
// apply() (later calls keep the first). apply() captures it if nobody did.
void captureSystemPalette();
// Whether the desktop asks for dark: the colour scheme where Qt knows it,
// the palette path explicitly.
bool systemPrefersDark();
bool paletteIsDark(const QPalette& palette);
bool isDark(ThemeChoice choice);

QPalette palette(bool dark);
// A stark black-on-white or white-on-black palette, for presentation mode.
QPalette highContrastPalette(bool dark);

// Sets the application palette for `choice`; widgets follow (the timeline
// restyles on PaletteChange).
void apply(ThemeChoice choice);

ThemeChoice load(); // System when unset or unreadable
void save(ThemeChoice choice);

} // namespace Theme

} // namespace ovs::ui
