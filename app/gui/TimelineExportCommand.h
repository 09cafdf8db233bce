#pragma once

#include <QStringList>

// `overlapscope export TRACE -o OUT ...` and `export --compare BEFORE AFTER
// -o OUT ...`: the timeline (and --bandwidth's sweep chart) drawn without a
// display by the window's own renderer. Returns the exit status.
int exportTimeline(const QStringList& args);
