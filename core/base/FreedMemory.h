#pragma once

// The allocator's free pages handed back to the system, where the program
// says how (app/allocator/MallocConf.cpp sets it for jemalloc; elsewhere
// this does nothing).
//
// Why: the command-line programs keep every page they free for reuse (no
// decay), so that a later phase's arrays take the pages an earlier one
// freed instead of faulting fresh ones. Where what is free lies in pieces too
// small for the next phase's arrays of hundreds of megabytes, it stays
// resident beside them and only raises the peak: the what-if hands it back
// between building a big graph and replaying it (WhatIf.cpp), which took
// the 2 GB trace's peak down by about 90 MB at no cost in time
// (docs/timeline-performance.md).

namespace ovs {

using FreedMemoryRelease = void (*)();
// Set once, before any thread calls releaseFreedMemory (a program's static
// initialisation).
void setFreedMemoryRelease(FreedMemoryRelease release);
void releaseFreedMemory();

} // namespace ovs
