#pragma once

#include <QString>

namespace ovs::ui {

// Loads the resources compiled into the ui library and makes the bundled
// DejaVu Sans the application font, so text (in the window and in headless
// screenshots) renders the same on machines with no fonts installed.
// Returns the family name in use. Call once, after QApplication exists.
QString setUpApplicationFont();

// Where XDG_RUNTIME_DIR is unset (servers, containers, sudo), points it at a
// private directory of this user's (mode 0700), so Qt neither warns at every
// start nor falls back to a shared one. Call before QApplication exists.
void setUpRuntimeDirectory();

} // namespace ovs::ui
