#include "Commands.h"

#include "ExitStatus.h"

#include "devicefactory/DeviceFactory.h"
#include "pipeline/PipelineConfig.h"

namespace ovs::cli {

std::string usage()
{
    return std::string(R"(overlapscope-cli: record and compare CUDA copy/compute overlap

Usage: overlapscope-cli COMMAND [options]

Commands:
  devices              list the devices this build can use
  device-classes       the pinned rates assumed for a device class where a trace measured none
                       (docs/what-if.md, "Rates a trace does not carry")
  bench                transfer bandwidth sweep (pageable and pinned, HtoD and DtoH, bidirectional)
  pipeline             run the pipelines and print the seed's table (serialized, overlapped, speedup)
  record -o FILE       run the pipelines and the sweep, write a trace (native JSON)
  convert IN -o OUT    convert a trace: --to chrome (Perfetto / chrome://tracing), csv, or native
  analyze TRACE        per run: engine busy time, overlap, GB/s, the bound it could reach, diagnosis
  analyze DIR | A B... the ranks of a distributed job (every trace in a folder, or several files):
                       a table per rank (step time, GPU busy, overlap, top finding), the clocks'
                       alignment and the straggler with the finding that differs on it (docs/ranks.md);
                       rank summaries (below) merge as their traces would
  analyze --rank-summary TRACE [-o S.json]
                       one trace's rank summary (a few KB: what the ranks table keeps of it), made
                       where the trace is; 'analyze S1.json S2.json ...' merges them (docs/ranks.md)
  diff BEFORE AFTER    compare two traces (before and after a fix), run by run: wall time, active span,
                       overlap achieved and possible, each engine's busy time, every finding resolved,
                       new or changed with its cost before and after, and what the active span saved.
                       Runs pair by name (a profiled program's, whatever its pid and arguments);
                       --run A --run B picks one of each (a name, or a position counted from 1)
  lesson NAME          run a lesson (see --list): its question, its runs' table, what to look at,
                       the answer the measurement gives, its checks and the takeaway with the numbers
                       (--chunk-mib N sizes its chunks, default 32; -o FILE also writes its runs as a
                       trace; --markdown FILE writes its table for docs/lessons.md). A check that
                       does not hold is a finding, printed as such; the exit status is the runs'.
  lesson --list        the lessons, in course order
  profile -- PROGRAM   run any CUDA program and record its copies, kernels and API calls
                       (see 'overlapscope-cli profile --help'; it has its own options and exit codes)

Device:
  --device SPEC        auto (default: the CUDA GPU if one answers, else the simulated H200),
                       or one of: )") + deviceSpecSyntax() + R"(
                       pipeline, record and bench also take several GPUs of one host:
                       )" + multiDeviceSpecSyntax() + R"(.
                       A pipeline then spreads its chunks over them (docs/multi-gpu.md); the
                       sweep measures each device alone, then the peer-to-peer matrix (every
                       pair, both directions, peer access on and off, at the largest size).

Pipeline options (pipeline, record):
  --pipelines LIST     comma-separated strategies, or 'all' (default serialized,overlapped):
                         serialized         the seed's serialized path over pageable memory
                         overlapped         the seed's slots with pinned staging buffers
                         registered         the user's buffers cudaHostRegister'ed (cost timed), no staging
                         pinned-data        data already in pinned memory, no staging
                         pageable-async     cudaMemcpyAsync on pageable memory (the driver stages it)
                         pinned-one-stream  data already pinned, every chunk on one stream
  --chunks N           chunks (default 8)
  --chunk-mib N        chunk size in MiB (default 32); or --chunk-bytes N (multiple of 4)
  --slots N            slots (streams + staging buffers) of the overlapped path, and streams of
                       registered, pinned-data and pageable-async (default 3)
  --staging-threads N  host threads sharing each staging copy of the overlapped path, 1..)"
           + std::to_string(kMaxStagingThreads) + R"( (default 1)
  --kernel-repeats N   increment passes per chunk (default 1)
  --no-op-timing       record only each run's wall time: no per-op events, no CUPTI (measures
                       what recording costs; see overlapscope-observer-bench)
  Variants of registered, pinned-data, pageable-async and pinned-one-stream (the lessons'):
  --issue-order O      depth-first (default) or breadth-first (a round's uploads, kernels, downloads)
  --stream-sync S      non-blocking (default) or blocking (cudaStreamCreate's default streams)
  --default-stream-op D  none (default), legacy or per-thread: a one-float kernel per chunk there
  --loop-allocation A  none (default), malloc (cudaMalloc per chunk) or malloc-free (and cudaFree)

Benchmark options (bench, record):
  --sizes LIST         transfer sizes in MiB (default 1,4,16,64,256)
  --warmups N          warm-up copies per cell (default 3)
  --samples N          timed copies per cell (default 10; the median is reported)
  --no-bench           record: skip the sweep

Other:
  -o, --output FILE    where to write (record, convert; pipeline: optional trace; analyze
                       --rank-summary: the summary, else stdout)
  --to FORMAT          convert: chrome, csv or native
  --max-trace-mib N    convert, analyze, diff: read traces up to N MiB (default 2048, at most 4095)
  --json               analyze: the findings, their replayed costs and the what-if, as JSON on stdout
                       (schema: docs/what-if.md); diff: the comparison as JSON (the same page)
  --region NAME|REGEX  analyze: judge the regions of that name (NVTX ranges, profiler steps,
                       record_function), or whose whole name the regular expression matches: each
                       one on its own, and from the first to the last. Default: the steps, else the
                       outermost range around most GPU work, else the steady state (the repeated
                       GPU work, setup apart; docs/profiling.md, "What is judged")
  --pinned-rate H2D,D2H  analyze, diff: judge every run at these pinned rates (GB/s; one figure: both
                       ways) instead of the trace's or the device class table's; prices pinning the
                       pageable copies of a trace that measured no pinned rate
  --quiet              no progress on stderr
  --help, --version

)" + cli::kExitStatusHelp;
}

const std::vector<std::string> kValueOptions = {"--device",     "--pipelines", "--chunks",  "--chunk-mib",
                                                "--chunk-bytes", "--slots",     "--kernel-repeats", "--staging-threads",
                                                "--sizes",      "--warmups",   "--samples", "-o",
                                                "--output",     "--to",        "--markdown",
                                                "--issue-order", "--stream-sync", "--default-stream-op",
                                                "--loop-allocation", "--max-trace-mib", "--region",
                                                "--pinned-rate"};
const std::vector<std::string> kFlagOptions = {"--quiet",   "--no-bench",     "--help", "-h",
                                               "--version", "--no-op-timing", "--list", "--json",
                                               "--rank-summary"};

} // namespace ovs::cli
