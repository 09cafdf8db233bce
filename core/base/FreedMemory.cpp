#include "base/FreedMemory.h"

namespace ovs {

namespace {
FreedMemoryRelease g_release = nullptr;
}

void setFreedMemoryRelease(FreedMemoryRelease release)
{
    g_release = release;
}

void releaseFreedMemory()
{
    if (g_release)
        g_release();
}

} // namespace ovs
