#pragma once

#include "symbols/NativeFrame.h"

#include <string_view>

namespace ovs {

// Which frames of a C++ program's call stack are the user's own code, for
// the site of a CUDA call: the innermost frame that is (docs/profiling.md,
// "Call sites", C++ programs). A frame is not the user's when
// - its object is a library the user did not write (libraryObject): the
//   CUDA runtime, driver and CUPTI, the injection library, NVTX, the C and
//   C++ runtimes and the loader, Python, anything in an installed package
//   (site-packages, dist-packages) or in a system folder (/usr/lib, /lib,
//   /usr/bin, the CUDA toolkit); the program's own executable and its own
//   libraries elsewhere are the user's;
// - its source file is a system or toolkit header (libraryHeader): a
//   template of <vector> or cuda_runtime.h's cudaMalloc<T> inlined into the
//   user's function, or compiled into the executable at -O0;
// - it has no line and its function is the CUDA runtime's
//   (cudaRuntimeFunction): a program links libcudart statically by
//   default, so the runtime's code sits in the user's own executable.
bool libraryObject(std::string_view path);
bool libraryHeader(std::string_view sourceFile);
bool cudaRuntimeFunction(std::string_view function);
// A frame of an object that is not a library object.
bool usersFrame(const NativeFrame& frame);

} // namespace ovs
