#pragma once

// Whether the program's memory is backed by transparent huge pages
// (app/allocator/MallocConf.cpp decides it as the program starts): in
// words, for what the benches print beside the allocator.
namespace ovs {

const char* hugePagesInWords();

} // namespace ovs
