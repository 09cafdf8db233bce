#include "formats/TraceFile.h"

#include "base/MessageText.h"

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

// The first 16 bytes of every SQLite database, as an Nsight Systems export
// (nsys export --type sqlite) is.
constexpr std::string_view kSqliteHeader("SQLite format 3\0", 16);

// Reads into `buffer` from `fd` until it holds `want` bytes or the file
// ends; false with errno on a read error.
bool readUpTo(int fd, char* buffer, std::size_t want, std::size_t& done)
{
    while (done < want) {
        const ssize_t n = ::read(fd, buffer + done, want - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return false;
        if (n == 0)
            break;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

// readUpTo in blocks, telling `progress` after each and stopping at a cancel.
bool readInBlocks(int fd, char* buffer, std::size_t want, std::size_t& done, const ReadProgress& progress)
{
    constexpr std::size_t kBlock = std::size_t(16) << 20;
    while (done < want) {
        progress.throwIfCancelled();
        const std::size_t before = done;
        if (!readUpTo(fd, buffer, std::min(want, done + kBlock), done))
            return false;
        progress.report(done, want);
        if (done == before)
            break; // the file ended
    }
    return true;
}

} // namespace

std::string whyNotJsonTrace(std::string_view head, bool whole)
{
    if (head.starts_with(kSqliteHeader))
        return "it is an SQLite database (an Nsight Systems export?), not JSON text: open it as a file";
    if (head.starts_with("\x1f\x8b"))
        return "it is gzip-compressed: decompress it first (gunzip)";
    if (head.starts_with("\xff\xfe") || head.starts_with("\xfe\xff"))
        return "it is UTF-16 text: a trace is UTF-8 JSON";
    if (head.starts_with("\xef\xbb\xbf"))
        return "it starts with a UTF-8 byte order mark, which JSON does not allow: save it without one";
    std::size_t i = 0;
    while (i < head.size() && (head[i] == ' ' || head[i] == '\t' || head[i] == '\n' || head[i] == '\r'))
        ++i;
    if (i == head.size())
        return whole ? std::string() : "its first " + std::to_string(head.size() / 1024) + " KiB are white space: not a trace";
    if (head[i] == '{' || head[i] == '[')
        return {};
    // The bytes as they are where they read as text, else in hex ("00 00 00 00").
    const std::string_view start = head.substr(i, 16);
    const bool text = std::all_of(start.begin(), start.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return (u >= 0x20 && u != 0x7f) || c == '\t' || c == '\n' || c == '\r';
    });
    std::string shown;
    if (text) {
        shown = quotedMessageText(head.substr(i, 17), 16); // the 17th says it goes on ("…")
    } else {
        char hex[4];
        for (std::size_t k = 0; k < start.size() && k < 8; ++k) {
            std::snprintf(hex, sizeof hex, "%02x", static_cast<unsigned char>(start[k]));
            shown += (k ? " " : "bytes ") + std::string(hex);
        }
    }
    return "not a JSON trace: it starts with " + shown + ", where a trace starts with '{' or '['";
}

TraceFile TraceFile::read(const std::string& path, std::uint64_t maxBytes, const ReadProgress& progress)
{
    TraceFile file;
    const auto failWith = [&file](std::string message) {
        file.error = std::move(message);
        return std::move(file);
    };
    const auto failWithErrno = [&failWith](const char* what) { return failWith(what + std::string(std::strerror(errno))); };
    maxBytes = std::min(maxBytes, kMaxTraceBytesCeiling);
    const std::string raiseLimit =
        maxBytes < kMaxTraceBytesCeiling ? "; raise the limit with --max-trace-mib (CLI, export) to read it" : "";

    struct stat info {};
    if (::stat(path.c_str(), &info) != 0)
        return failWithErrno("cannot open: ");
    if (!S_ISREG(info.st_mode))
        return failWith(std::string("cannot open: ") + notRegularFile(info.st_mode));

    // Non-blocking: if the path became a FIFO since stat, open still returns.
    const Descriptor fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
    if (fd.get() < 0)
        return failWithErrno("cannot open: ");
    if (::fstat(fd.get(), &info) != 0)
        return failWithErrno("cannot read: ");
    if (!S_ISREG(info.st_mode))
        return failWith(std::string("cannot open: ") + notRegularFile(info.st_mode));

    // The first bytes say what the file is before the rest is read.
    std::string head(kTraceHeadBytes, '\0');
    std::size_t headBytes = 0;
    if (!readUpTo(fd.get(), head.data(), head.size(), headBytes))
        return failWithErrno("cannot read: ");
    head.resize(headBytes);
    if (headBytes == 0)
        return failWith("the file is empty: not a trace");
    const bool whole = headBytes < kTraceHeadBytes;
    if (head.starts_with(kSqliteHeader)) { // whatever its size: the size limit is JSON's
        file.sqlite = true;
        return file;
    }
    const std::string notJson = whyNotJsonTrace(head, whole);
    // Files of /proc and the like give a size of 0 and hold more: their size
    // is known once they are read.
    const auto statSize = static_cast<std::uint64_t>(info.st_size);
    const bool sizeKnown = statSize >= headBytes;
    const std::uint64_t leastSize = sizeKnown ? statSize : headBytes;
    if (leastSize > maxBytes)
        return failWith("the file is " + sizeText(leastSize) + ", above the size limit for traces of " + sizeText(maxBytes)
                        + raiseLimit);
    if (!notJson.empty())
        return failWith(notJson);

    if (whole) {
        file.text = simdjson::padded_string(head.data(), headBytes);
        return file;
    }
    if (!sizeKnown) {
        // Streamed, the buffer doubling as it fills; one byte past the limit tells.
        const std::size_t most = static_cast<std::size_t>(maxBytes) + 1;
        std::string text = std::move(head);
        std::size_t done = headBytes;
        while (done == text.size() && text.size() < most) {
            progress.throwIfCancelled();
            text.resize(std::min(most, text.size() * 2));
            if (!readUpTo(fd.get(), text.data(), text.size(), done))
                return failWithErrno("cannot read: ");
        }
        if (done > maxBytes)
            return failWith("the file holds more than the size limit for traces of " + sizeText(maxBytes) + raiseLimit);
        file.text = simdjson::padded_string(text.data(), done);
        return file;
    }

    simdjson::padded_string text(static_cast<std::size_t>(statSize));
    if (!text.data())
        return failWith("not enough memory to read the file (" + sizeText(statSize) + ")");
    std::memcpy(text.data(), head.data(), headBytes);
    std::string().swap(head);
    std::size_t done = headBytes;
    if (!readInBlocks(fd.get(), text.data(), static_cast<std::size_t>(statSize), done, progress))
        return failWithErrno("cannot read: ");
    if (done < statSize) {
        // The file shrank while we read it: parse what is there, keeping
        // simdjson's padding contract for the shorter text.
        simdjson::padded_string shorter(text.data(), done);
        text = std::move(shorter);
    }
    file.text = std::move(text);
    return file;
}

} // namespace ovs
