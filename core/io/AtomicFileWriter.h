#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ovs {

// Writes a file so that, whatever happens, the path holds either its old
// content or the complete new one: the bytes go to a temporary file in the
// target's folder, which is flushed to disk (fsync) and renamed over the
// target, and the folder is flushed so the rename survives a power cut.
//
// - A symbolic link is followed: its target is replaced and the link kept.
// - An existing target that is read-only, or that we may not write, is
//   refused rather than replaced; a replaced target keeps its mode.
// - A character device or a pipe (/dev/null, -o /dev/stdout) is written
//   straight, as there is no file to keep; other non-regular files are refused.
// - Errors are one line, in words ("disk full", "permission denied").
//
// Streaming use: open(), write() any number of chunks, commit(). A writer
// that is destroyed or discarded before commit() removes its temporary file
// and leaves the target as it was. After the first error every call fails
// and error() says why.
class AtomicFileWriter {
public:
    AtomicFileWriter() = default;
    ~AtomicFileWriter();
    AtomicFileWriter(const AtomicFileWriter&) = delete;
    AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

    bool open(const std::string& path);
    bool write(std::string_view bytes);
    bool commit();
    void discard();

    bool isOpen() const { return m_fd >= 0; }
    bool failed() const { return !m_error.empty(); }
    const std::string& error() const { return m_error; }

private:
    bool flushBuffer();
    bool fail(int errnoValue);
    bool failWith(std::string message);

    std::string m_path;      // as the caller named it, for messages
    std::string m_target;    // the file that is replaced (symlinks resolved)
    std::string m_temporary; // empty when there is none to clean up
    std::string m_buffer;    // small writes gathered into large ones
    std::string m_error;
    int m_fd = -1;
    bool m_keepMode = false;
    unsigned m_mode = 0;
};

// One-shot form: the whole of `bytes` through an AtomicFileWriter. On failure
// returns false and, when `error` is given, says why.
bool writeFileAtomically(const std::string& path, std::string_view bytes, std::string* error);

// The words our messages use for an errno value, e.g. "disk full" for ENOSPC.
std::string describeFileError(int errnoValue);

} // namespace ovs
