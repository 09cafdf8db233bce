// What fresh memory costs to fault in on this machine, in transparent huge
// pages and in 4 KiB pages (docs/timeline-performance.md, "Huge pages
// where the host takes freed memory back"): each row maps MIB of anonymous
// memory, asks for huge pages (madvise MADV_HUGEPAGE, as jemalloc's
// thp:always does) or turns them off for the process (PR_SET_THP_DISABLE,
// as app/allocator/MallocConf.cpp does where the host takes freed memory
// back), writes a byte per 4 KiB page, and unmaps it. Rows alternate.
//
//     overlapscope-fault-bench [--mib 1024] [--rounds 4]
//
// Linux only: elsewhere it says so and exits.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#ifdef __linux__
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

namespace {

#ifdef __linux__
long hugePagesFaulted()
{
    long count = -1;
    if (std::FILE* f = std::fopen("/proc/vmstat", "r")) {
        char line[256];
        while (std::fgets(line, sizeof line, f))
            if (std::strncmp(line, "thp_fault_alloc ", 16) == 0)
                count = std::atol(line + 16);
        std::fclose(f);
    }
    return count;
}

// One row, in a child process (PR_SET_THP_DISABLE cannot be undone for
// what it already decided): seconds to fault in `bytes`, and huge pages.
void row(std::size_t bytes, bool huge)
{
    std::fflush(stdout);
    const pid_t child = fork();
    if (child != 0) {
        int status = 0;
        waitpid(child, &status, 0);
        return;
    }
    if (!huge && prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) != 0)
        std::_Exit(1);
    void* memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) {
        std::printf("| %s | mmap failed |\n", huge ? "huge pages" : "4 KiB pages");
        std::_Exit(1);
    }
    if (huge)
        madvise(memory, bytes, MADV_HUGEPAGE);
    char* bytesAt = static_cast<char*>(memory);
    const long before = hugePagesFaulted();
    const auto started = std::chrono::steady_clock::now();
    for (std::size_t at = 0; at < bytes; at += 4096)
        bytesAt[at] = 1;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const long after = hugePagesFaulted();
    std::printf("| %s | %zu | %.3f | %.0f | %ld |\n", huge ? "huge pages (MADV_HUGEPAGE)" : "4 KiB pages (THP off)",
                bytes >> 20, seconds, static_cast<double>(bytes >> 20) / seconds,
                before >= 0 && after >= 0 ? after - before : -1);
    std::fflush(stdout);
    std::_Exit(0);
}
#endif

} // namespace

int main(int argc, char** argv)
{
    std::size_t mib = 1024;
    int rounds = 4;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--mib" && i + 1 < argc)
            mib = std::strtoul(argv[++i], nullptr, 10);
        else if (arg == "--rounds" && i + 1 < argc)
            rounds = std::atoi(argv[++i]);
        else {
            std::fprintf(stderr, "usage: overlapscope-fault-bench [--mib N] [--rounds N]\n");
            return 2;
        }
    }
    if (mib == 0 || rounds <= 0) {
        std::fprintf(stderr, "--mib and --rounds take a positive number\n");
        return 2;
    }
#ifdef __linux__
    std::printf("| pages | MiB | fault-in s | MiB/s | huge pages faulted |\n|---|---:|---:|---:|---:|\n");
    for (int r = 0; r < rounds; ++r) {
        row(mib << 20, true);
        row(mib << 20, false);
    }
    return 0;
#else
    std::fprintf(stderr, "overlapscope-fault-bench measures Linux's page faults only\n");
    return 1;
#endif
}
