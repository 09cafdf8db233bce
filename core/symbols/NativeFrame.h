#pragma once

#include <cstdint>
#include <string>

namespace ovs {

// A loaded ELF object of a profiled process (profile's ModuleRecord): the
// file and where it sat in memory.
struct NativeModule {
    std::string path;
    std::uint64_t loadBias = 0;    // run-time address = the file's address + loadBias
    std::uint64_t lowAddress = 0;  // its loaded segments span [lowAddress, highAddress)
    std::uint64_t highAddress = 0;
    std::string buildId; // raw bytes; empty where the object had none
};

// One frame of a native call stack as the symbolizer reads it: a function
// inlined into another is a frame of its own (innermost first), as a
// debugger shows it.
struct NativeFrame {
    std::string file;       // the source file; empty where the object has no line table for it
    std::uint32_t line = 0; // 0 with no file
    // "ovs::Pipeline::run" (demangled, without its parameters) from the debug
    // information or the symbol table; empty where neither names it.
    std::string function;
    std::uint64_t functionOffset = 0; // from the function's start (frames without a line)
    std::uint64_t fileOffset = 0;     // the address in the object's own terms (its file's addresses)
};

} // namespace ovs
