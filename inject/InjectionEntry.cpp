// liboverlapscope-inject.so: the CUDA driver loads it into a program when
// CUDA_INJECTION64_PATH names it, and calls InitializeInjection while CUDA
// initializes (cuInit), before any CUDA work of the program runs.
// `overlapscope-cli profile` sets that variable and OVERLAPSCOPE_PROFILE_OUT;
// see docs/profiling.md.

#include "CuptiTracer.h"

#include <atomic>

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void)
{
    // The driver calls this once per process; the guard covers a driver that
    // would call it again (it must not start a second tracer).
    static std::atomic<bool> started{false};
    if (!started.exchange(true))
        ovs::inject::CuptiTracer::instance().start();
    // Success even when tracing could not start: the program must run
    // either way, and the reason is already on stderr and in the stream.
    return 1;
}
