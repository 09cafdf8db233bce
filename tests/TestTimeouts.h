#pragma once
// How long a test waits for work on other threads.

#include <QtGlobal>

// `ms`, times OVERLAPSCOPE_TEST_TIMEOUT_SCALE when set (1 to 20). The
// sanitizer builds run 5 to 20 times slower and set it (scripts/sanitize.sh),
// so that a wait there fails only when the work really does not finish, not
// for the speed.
inline int ovsTestTimeoutMs(int ms)
{
    bool ok = false;
    const int scale = qEnvironmentVariableIntValue("OVERLAPSCOPE_TEST_TIMEOUT_SCALE", &ok);
    return ok && scale >= 1 && scale <= 20 ? ms * scale : ms;
}
