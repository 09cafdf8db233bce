#pragma once

#include <QString>

namespace ovs::ui {

// Loads the resources compiled into the ui library and makes the bundled
// DejaVu Sans the application font, so text (in the window and in headless
// screenshots) renders the same on machines with no fonts installed.
// Returns the family name in use. Call once, after QApplication exists.
QString setUpApplicationFont();

} // namespace ovs::ui
