#pragma once

// The record stream that liboverlapscope-inject writes, one file per traced
// process, and ProfileStreamDecoder reads back (docs/profiling.md).
//
// Both ends run on the same machine, so records are plain structs in host
// byte order. A stream is the 8-byte magic followed by records; a record is a
// RecordHeader, its fixed payload and, for some types, text, padded to a
// multiple of 8 bytes. A reader skips record types it does not know (by their
// size), so types can be added without breaking older readers; a change to a
// payload's layout needs a new kStreamVersion.
//
// This header is shared with the injection library, which links nothing of
// core: keep it free of includes beyond <cstdint> and cupti/RecordValues.h
// (which is as plain).

#include "cupti/RecordValues.h"

#include <cstdint>

namespace ovs::profile {

inline constexpr char kStreamMagic[8] = {'O', 'V', 'S', 'P', 'R', 'O', 'F', '\n'};
inline constexpr std::uint32_t kStreamVersion = 1;
// Stream files are named "<pid>-<n>" + this, in the directory named by the
// environment variable below.
inline constexpr const char* kStreamSuffix = ".ovsprof";
inline constexpr const char* kOutputDirVariable = "OVERLAPSCOPE_PROFILE_OUT";
// Set (to 1) by `profile --sync-records`: the injection library then records
// CUPTI's synchronization records too (what each wait waited for).
inline constexpr const char* kSyncRecordsVariable = "OVERLAPSCOPE_PROFILE_SYNC";
// NVTX (NVTX3 header-only use and libnvToolsExt alike) loads the library this
// names at a program's first NVTX call and calls its InitializeInjectionNvtx2;
// profile points it at the injection library, which records the ranges.
inline constexpr const char* kNvtxInjectionVariable = "NVTX_INJECTION64_PATH";
// Set by `profile --stacks`: "sync" (a call stack at the calls a finding can
// point at: synchronizations, copies and memsets, allocations and frees,
// registrations), "all" (launches too) or "off" (unset: off).
inline constexpr const char* kStacksVariable = "OVERLAPSCOPE_PROFILE_STACKS";

enum class RecordType : std::uint16_t {
    Begin = 1, // always first
    Clock,
    String,
    Device,
    Context,
    Stream,
    Thread,
    Memcpy,
    Memset,
    Kernel,
    Api,
    Sync,
    Loss,
    Note,
    End, // absent when the process died or was killed before exit handlers ran
    Range, // NVTX; added after End, so older readers skip it
    UnifiedMemory, // CUPTI's unified-memory counters; added after Range, so older readers skip it
    Rank, // the process's place in a distributed job; added after UnifiedMemory, so older readers skip it
    UnreadBuffers, // CUPTI buffers that could not be read to the end; added after Rank, so older readers skip it
    // Call stacks (docs/profiling.md, "Call sites"); added after
    // UnreadBuffers, so older readers skip them.
    StackState, // what the capture is set to, and what it dropped so far
    Module,     // a loaded ELF object: where it sits in memory
    Stack,      // one distinct call stack's return addresses
    CallStack,  // the stack an API call was made from
};

struct RecordHeader {
    std::uint16_t type = 0;
    std::uint16_t reserved = 0;
    std::uint32_t size = 0; // the whole record: header, payload, text, padding
};

// Text follows: the process's command line, arguments separated by '\0'.
struct BeginRecord {
    static constexpr RecordType kType = RecordType::Begin;
    std::uint32_t version = kStreamVersion;
    std::uint32_t pid = 0;
    std::uint32_t parentPid = 0;
    std::uint32_t textBytes = 0;
};

// One reading of CUPTI's clock and the host clocks, taken together. Every
// time in the records below is on CUPTI's clock; these pairs place them on
// CLOCK_MONOTONIC (std::chrono::steady_clock), the clock of whoever reads the
// stream.
struct ClockRecord {
    static constexpr RecordType kType = RecordType::Clock;
    std::uint64_t cuptiNs = 0;
    std::int64_t monotonicNs = 0;
    std::int64_t realtimeNs = 0;
};

// Names are sent once and referred to by id (ids start at 1). Text follows.
struct StringRecord {
    static constexpr RecordType kType = RecordType::String;
    std::uint32_t id = 0;
    std::uint32_t textBytes = 0;
};

struct DeviceRecord {
    static constexpr RecordType kType = RecordType::Device;
    std::uint32_t deviceId = 0;
    std::uint32_t nameId = 0;
    std::uint32_t computeMajor = 0;
    std::uint32_t computeMinor = 0;
    std::uint32_t copyEngines = 0;
    std::uint32_t multiprocessors = 0;
    std::uint64_t memoryBytes = 0;
};

struct ContextRecord {
    static constexpr RecordType kType = RecordType::Context;
    std::uint32_t contextId = 0;
    std::uint32_t deviceId = 0;
    std::uint32_t nullStreamId = 0; // the legacy default stream of this context
    std::uint32_t reserved = 0;
};

// CUPTI's stream flag: 1 default (blocking: synchronizes with the legacy
// default stream), 2 non-blocking, 3 the null stream.
struct StreamRecord {
    static constexpr RecordType kType = RecordType::Stream;
    std::uint32_t contextId = 0;
    std::uint32_t streamId = 0;
    std::uint32_t flag = 0;
    std::int32_t priority = 0;
};

inline constexpr std::uint32_t kStreamFlagBlocking = 1;
inline constexpr std::uint32_t kStreamFlagNonBlocking = 2;
inline constexpr std::uint32_t kStreamFlagNull = 3;

// A host thread's name (/proc/self/task/TID/comm), sent when the thread
// first makes a traced call.
struct ThreadRecord {
    static constexpr RecordType kType = RecordType::Thread;
    std::uint32_t threadId = 0;
    std::uint32_t nameId = 0;
};

// Copy and memory kinds are stored as CUPTI writes them (cupti/RecordValues.h).
using cupti::MemcpyKind;
using cupti::MemoryKind;
using enum cupti::MemcpyKind;
using enum cupti::MemoryKind;
inline constexpr std::uint8_t kMemcpyFlagAsync = 1; // CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC
inline constexpr std::uint8_t kMemcpyFlagPeer = 2;  // from a peer-to-peer record

struct MemcpyRecord {
    static constexpr RecordType kType = RecordType::Memcpy;
    std::uint64_t startNs = 0;
    std::uint64_t endNs = 0;
    std::uint64_t bytes = 0;
    std::uint32_t deviceId = 0;
    std::uint32_t contextId = 0;
    std::uint32_t streamId = 0;
    std::uint32_t correlationId = 0;
    std::uint32_t srcDeviceId = 0; // peer copies only
    std::uint32_t dstDeviceId = 0;
    std::uint32_t graphId = 0; // 0: not part of a CUDA graph
    std::uint8_t copyKind = 0;
    std::uint8_t srcKind = 0;
    std::uint8_t dstKind = 0;
    std::uint8_t flags = 0;
};

struct MemsetRecord {
    static constexpr RecordType kType = RecordType::Memset;
    std::uint64_t startNs = 0;
    std::uint64_t endNs = 0;
    std::uint64_t bytes = 0;
    std::uint32_t deviceId = 0;
    std::uint32_t contextId = 0;
    std::uint32_t streamId = 0;
    std::uint32_t correlationId = 0;
    std::uint32_t graphId = 0;
    std::uint16_t memoryKind = 0;
    std::uint16_t flags = 0;
};

struct KernelRecord {
    static constexpr RecordType kType = RecordType::Kernel;
    std::uint64_t startNs = 0;
    std::uint64_t endNs = 0;
    std::uint32_t deviceId = 0;
    std::uint32_t contextId = 0;
    std::uint32_t streamId = 0;
    std::uint32_t correlationId = 0;
    std::uint32_t nameId = 0; // demangled
    std::int32_t grid[3] = {};
    std::int32_t block[3] = {};
    std::uint32_t sharedMemoryBytes = 0; // static + dynamic
    std::uint32_t graphId = 0;
    std::uint16_t registersPerThread = 0;
    std::uint16_t reserved = 0;
};

enum ApiDomain : std::uint8_t { kApiRuntime = 1, kApiDriver = 2 };

struct ApiRecord {
    static constexpr RecordType kType = RecordType::Api;
    std::uint64_t startNs = 0;
    std::uint64_t endNs = 0;
    std::uint32_t threadId = 0; // the kernel's thread id (gettid)
    std::uint32_t correlationId = 0;
    std::uint32_t nameId = 0; // "cudaMemcpyAsync", without CUPTI's _vNNNN suffix
    std::uint32_t returnValue = 0;
    std::uint32_t callbackId = 0;
    std::uint8_t domain = 0;
    std::uint8_t reserved[3] = {};
};

// CUpti_ActivitySynchronizationType values.
enum SyncType : std::uint32_t {
    kSyncUnknown = 0, kSyncEvent = 1, kSyncStreamWaitEvent = 2, kSyncStream = 3, kSyncContext = 4,
};

struct SyncRecord {
    static constexpr RecordType kType = RecordType::Sync;
    std::uint64_t startNs = 0;
    std::uint64_t endNs = 0;
    std::uint32_t type = 0;
    std::uint32_t correlationId = 0;
    std::uint32_t contextId = 0;
    std::uint32_t streamId = 0;
    std::uint32_t eventId = 0;
    std::uint32_t reserved = 0;
};

// What was lost so far (totals, not increments): records CUPTI dropped for
// want of a buffer, and records it handed back without times (work still in
// flight at a forced flush, e.g. at exit).
struct LossRecord {
    static constexpr RecordType kType = RecordType::Loss;
    std::uint64_t dropped = 0;
    std::uint64_t untimed = 0;
};

enum NoteSeverity : std::uint32_t {
    kNoteInfo = 0,
    kNoteWarning = 1,
    kNoteNotRecorded = 2, // tracing could not start: the process runs untraced
};

// Activity buffers whose reading stopped at an error (a total, not an
// increment): their later records are lost, uncounted, since CUPTI cannot
// say how many (cupti/BufferLoss.h, the one error policy of both CUPTI
// users). Text follows: CUPTI's words for the first error.
struct UnreadBuffersRecord {
    static constexpr RecordType kType = RecordType::UnreadBuffers;
    std::uint64_t buffers = 0;
    std::uint32_t textBytes = 0;
    std::uint32_t reserved = 0;
};

// A message for the user. Text follows.
struct NoteRecord {
    static constexpr RecordType kType = RecordType::Note;
    std::uint32_t severity = 0;
    std::uint32_t textBytes = 0;
};

struct EndRecord {
    static constexpr RecordType kType = RecordType::End;
    std::uint64_t dropped = 0;
    std::uint64_t untimed = 0;
};

// What an NVTX call did to a range.
enum RangeAction : std::uint16_t {
    kRangePush = 1,  // nvtxRangePush*, nvtxDomainRangePushEx: text is its message
    kRangePop = 2,   // nvtxRangePop, nvtxDomainRangePop
    kRangeStart = 3, // nvtxRangeStart*, nvtxDomainRangeStartEx: text is its message
    kRangeEnd = 4,   // nvtxRangeEnd, nvtxDomainRangeEnd
};

// One NVTX range call, written as it happens. Its time is CLOCK_MONOTONIC
// (the reader's clock), not CUPTI's: NVTX calls may come before CUDA (and
// CUPTI) starts, and the library keeps them until the stream opens. Text
// follows for pushes and starts: the range's message (empty when it has
// none), so no string id is shared with the CUPTI records.
struct RangeRecord {
    static constexpr RecordType kType = RecordType::Range;
    std::int64_t monotonicNs = 0;
    std::uint64_t rangeId = 0; // start/end: NVTX's range id; push/pop: 0
    std::uint32_t threadId = 0; // gettid of the calling thread
    std::uint32_t domainId = 0; // 0: NVTX's default domain; else one per domain the process made
    std::uint16_t action = 0;   // RangeAction
    std::uint16_t reserved = 0;
    std::uint32_t textBytes = 0;
};

// CUpti_ActivityUnifiedMemoryCounterKind values: the counters the library
// asks CUPTI for.
enum UnifiedMemoryCounter : std::uint32_t {
    kUmBytesHtoD = 1,      // a migration to a GPU: value is its bytes
    kUmBytesDtoH = 2,      // a migration to the host: value is its bytes
    kUmCpuPageFault = 3,   // one CPU page fault (value is CUPTI's program counter: not kept)
    kUmGpuPageFault = 4,   // value is the number of fault groups the driver handled at once
    kUmThrashing = 5,      // value is the bytes of the region the processors fought over
    kUmThrottling = 6,     // the driver held a processor back to stop thrashing
};

// CUpti_ActivityUnifiedMemoryMigrationCause values: why a migration moved
// pages. A migration on a fault is what prefetching saves (the
// managed-migration finding); one the program asked for is its fix at work.
enum UnifiedMemoryCause : std::uint32_t {
    kUmCauseUnknown = 0,
    kUmCauseUser = 1,           // the program asked for it (cudaMemPrefetchAsync, as CUPTI 13 reports it)
    kUmCauseCoherence = 2,      // on a fault, to keep the pages coherent
    kUmCausePrefetch = 3,       // the driver's prefetching (around faults)
    kUmCauseEviction = 4,       // a GPU out of memory evicted them
    kUmCauseAccessCounters = 5, // the driver's access counters moved them
};

// One unified-memory counter record, on CUPTI's clock. `deviceId` is the
// GPU it concerns (the destination of a migration to a GPU, the source of a
// migration to the host, the faulting GPU); CPU page faults name none
// (UINT32_MAX). CPU faults and thrashing have no duration (endNs = startNs).
struct UnifiedMemoryRecord {
    static constexpr RecordType kType = RecordType::UnifiedMemory;
    std::uint64_t startNs = 0;
    std::uint64_t endNs = 0;
    std::uint64_t value = 0;
    std::uint64_t address = 0; // virtual address of the first page
    std::uint32_t counter = 0; // UnifiedMemoryCounter
    std::uint32_t deviceId = 0;
    std::uint32_t cause = kUmCauseUnknown; // migrations only: UnifiedMemoryCause
    std::uint32_t reserved = 0;
};

inline constexpr std::uint32_t kUmNoDevice = UINT32_MAX;

// A process of a distributed job, as its launcher (torchrun, mpirun, srun,
// any that sets RANK) told it in its environment: written after Begin when
// RANK is set. -1 where a variable is unset or not a number.
struct RankRecord {
    static constexpr RecordType kType = RecordType::Rank;
    std::int32_t rank = -1;       // RANK
    std::int32_t localRank = -1;  // LOCAL_RANK
    std::int32_t worldSize = -1;  // WORLD_SIZE
    std::uint32_t reserved = 0;
};

// Call stacks, captured at a CUDA call's entry by the injection library and
// symbolized by the profiler after the run (core/symbols). Each distinct
// stack travels once (Stack), each call names its stack (CallStack), and
// the loaded objects the addresses fall in travel once each (Module).
enum StackMode : std::uint32_t {
    kStacksOff = 0,
    kStacksSync = 1, // the calls a finding can point at (trace/ApiNames.h roles; StackCapture.h)
    kStacksAll = 2,  // and every launch
};

// Sent when the capture starts, and again when a total below grew.
struct StackStateRecord {
    static constexpr RecordType kType = RecordType::StackState;
    std::uint32_t mode = kStacksOff; // StackMode
    std::uint32_t maxFrames = 0;     // deeper stacks keep their innermost this many
    std::uint32_t maxStacks = 0;     // distinct stacks kept at most
    std::uint32_t stacks = 0;        // distinct stacks so far
    std::uint64_t callsWithoutStack = 0; // the table was full, or the unwinder found no frame
    std::uint64_t truncatedStacks = 0;   // distinct stacks cut at maxFrames
};

// A loaded ELF object, as dl_iterate_phdr saw it. Text follows: its path
// (the program's own for the executable). Addresses are the process's.
struct ModuleRecord {
    static constexpr RecordType kType = RecordType::Module;
    std::uint64_t loadBias = 0;    // run-time address = the file's address + loadBias
    std::uint64_t lowAddress = 0;  // its loaded segments span [lowAddress, highAddress)
    std::uint64_t highAddress = 0;
    std::uint8_t buildId[20] = {}; // GNU build-id, its first buildIdBytes bytes
    std::uint32_t buildIdBytes = 0;
    std::uint32_t textBytes = 0;
};

// One distinct call stack: frameCount return addresses (8 bytes each,
// innermost first, the capture's own frames left out) follow.
struct StackRecord {
    static constexpr RecordType kType = RecordType::Stack;
    std::uint32_t stackId = 0; // from 1
    std::uint32_t frameCount = 0;
};

// An API call (ApiRecord::correlationId) was made from stack `stackId`.
struct CallStackRecord {
    static constexpr RecordType kType = RecordType::CallStack;
    std::uint32_t correlationId = 0;
    std::uint32_t stackId = 0;
};

} // namespace ovs::profile
