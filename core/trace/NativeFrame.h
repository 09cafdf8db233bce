#pragma once

#include <string>
#include <string_view>

namespace ovs {

// The rule that picks the user's own frame from a native call chain (an
// Nsight Systems report's CUDA backtraces), as PythonFrame.h's does from a
// Python stack: docs/profiling.md, "Call sites". A frame is a function as
// the profiler symbolized it ("cudaError cudaMalloc<double>(double**,
// unsigned long)", "main") and the module that holds it (a shared object
// or the program, by path).

// The function's name without its return type, template arguments and
// parameters: "cudaMalloc" for "cudaError cudaMalloc<double>(double**,
// unsigned long)", "ns::Solver::step" for "void ns::Solver<float>::step(int)
// const". What tells a function apart from CUDA's and from a kernel's stub.
std::string nativeFunctionName(std::string_view symbol);

// A module that is no code of the user's (Nsight's call chains and a
// profiled program's stacks, core/symbols/NativeSiteRule, alike): CUDA's libraries (libcuda,
// libcudart, libcupti, libcublas, libnvidia-*, NCCL, ...), Nsight's own,
// the C and C++ runtimes and the dynamic loader, anything under /lib,
// /lib64, /usr/lib or /usr/lib64, MPI and its transports, and the Python
// interpreter and installed Python packages (PyTorch's libtorch_cuda.so
// among them). An empty module, or a pseudo-module ("[vdso]"), is none of
// the user's either.
bool isLibraryModule(std::string_view module);

// A function of CUDA's own that is compiled into the program: the runtime
// API's inline templates from cuda_runtime.h ("cudaMalloc<double>"), a
// statically linked runtime (cuda*, cu* driver calls, cudart::), nvcc's
// registration and launch helpers (__cuda*, __device_stub_*).
bool isCudaFunction(std::string_view symbol);

// The frame is the user's by the rule: resolved, in none of the library
// modules, not CUDA's own function, and not nvcc's host stub of the kernel
// the call launched (a function of the kernel's name; `launchedKernel` is
// that kernel's name, or empty).
bool isUserNativeFrame(std::string_view symbol, std::string_view module, std::string_view launchedKernel);

} // namespace ovs
