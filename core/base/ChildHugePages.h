#pragma once

// A program this process starts gets the system's transparent huge pages,
// not this process's own setting.
//
// Why: the programs turn huge pages off for themselves on a virtual
// machine that hands freed memory back to its host (PR_SET_THP_DISABLE,
// app/allocator/MallocConf.cpp), and Linux hands that flag down to every
// child, across fork and exec. A program profiled under the profiler (or
// an editor opened on a source line) would run with our memory setting,
// not its own. While a ChildHugePages lives, the flag is cleared (the
// child is started then), and it is set again after; where it was not set,
// nothing changes. One at a time (a mutex): two threads starting programs
// at once would otherwise set it back under each other.

#include <mutex>

namespace ovs {

class ChildHugePages {
public:
    ChildHugePages();
    ~ChildHugePages();
    ChildHugePages(const ChildHugePages&) = delete;
    ChildHugePages& operator=(const ChildHugePages&) = delete;

private:
    std::unique_lock<std::mutex> m_lock;
    bool m_cleared = false; // this process had huge pages off, and has them back until the destructor
};

} // namespace ovs
