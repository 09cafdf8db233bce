#pragma once

#include <string>

namespace ovs::inject {

// A whole small file from /proc (a command line, a thread's name), at most
// about 64 KiB; empty when unreadable.
std::string readSmallFile(const char* path);

} // namespace ovs::inject
