#include "trace/TraceFile.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ovs {

static_assert(kMaxTraceBytesCeiling == simdjson::SIMDJSON_MAXSIZE_BYTES);

namespace {

const char* notRegularFile(mode_t mode)
{
    if (S_ISDIR(mode))
        return "it is a folder, not a trace file";
    if (S_ISFIFO(mode))
        return "it is a FIFO (named pipe), not a regular file; save the trace to a file first";
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return "it is a device, not a regular file";
    if (S_ISSOCK(mode))
        return "it is a socket, not a regular file";
    return "it is not a regular file";
}

std::string sizeText(std::uint64_t bytes)
{
    char text[64];
    // MiB below a GiB: the limit is given in MiB (--max-trace-mib).
    const bool gib = bytes >= (std::uint64_t(1) << 30);
    std::snprintf(text, sizeof text, "%.1f %s (%llu bytes)", static_cast<double>(bytes) / (gib ? 1u << 30 : 1u << 20),
                  gib ? "GiB" : "MiB", static_cast<unsigned long long>(bytes));
    return text;
}

class Descriptor {
public:
    explicit Descriptor(int fd) : m_fd(fd) {}
    ~Descriptor()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;
    int get() const { return m_fd; }

private:
    int m_fd;
};

} // namespace

TraceFile TraceFile::read(const std::string& path, std::uint64_t maxBytes)
{
    TraceFile file;
    const auto failWith = [&file](std::string message) {
        file.error = std::move(message);
        return std::move(file);
    };
    maxBytes = std::min(maxBytes, kMaxTraceBytesCeiling);

    struct stat info {};
    if (::stat(path.c_str(), &info) != 0)
        return failWith(std::string("cannot open: ") + std::strerror(errno));
    if (!S_ISREG(info.st_mode))
        return failWith(std::string("cannot open: ") + notRegularFile(info.st_mode));

    // Non-blocking: if the path became a FIFO since stat, open still returns.
    const Descriptor fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
    if (fd.get() < 0)
        return failWith(std::string("cannot open: ") + std::strerror(errno));
    if (::fstat(fd.get(), &info) != 0)
        return failWith(std::string("cannot read: ") + std::strerror(errno));
    if (!S_ISREG(info.st_mode))
        return failWith(std::string("cannot open: ") + notRegularFile(info.st_mode));

    const auto size = static_cast<std::uint64_t>(info.st_size);
    if (size == 0)
        return failWith("the file is empty: not a trace");
    if (size > maxBytes)
        return failWith("the file is " + sizeText(size) + ", above the size limit for traces of " + sizeText(maxBytes)
                        + (maxBytes < kMaxTraceBytesCeiling ? "; raise the limit with --max-trace-mib (CLI, export) to read it" : ""));

    simdjson::padded_string text(static_cast<std::size_t>(size));
    if (!text.data())
        return failWith("not enough memory to read the file (" + sizeText(size) + ")");
    std::size_t done = 0;
    while (done < size) {
        const ssize_t n = ::read(fd.get(), text.data() + done, static_cast<std::size_t>(size - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return failWith(std::string("cannot read: ") + std::strerror(errno));
        if (n == 0)
            break; // the file shrank while we read it: parse what is there
        done += static_cast<std::size_t>(n);
    }
    if (done == 0)
        return failWith("the file is empty: not a trace");
    if (done < size) {
        // Keep simdjson's padding contract for the shorter text.
        simdjson::padded_string shorter(text.data(), done);
        text = std::move(shorter);
    }
    file.text = std::move(text);
    return file;
}

} // namespace ovs
