#include "base/ChildHugePages.h"

#ifdef __linux__
#include <sys/prctl.h>
#endif

namespace ovs {

namespace {
std::mutex g_starting;
}

ChildHugePages::ChildHugePages() : m_lock(g_starting)
{
#ifdef __linux__
    if (prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0) == 1)
        m_cleared = prctl(PR_SET_THP_DISABLE, 0, 0, 0, 0) == 0;
#endif
}

ChildHugePages::~ChildHugePages()
{
#ifdef __linux__
    if (m_cleared)
        prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
#endif
}

} // namespace ovs
