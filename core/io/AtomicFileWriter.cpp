#include "io/AtomicFileWriter.h"

#include "io/PathParts.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <random>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ovs {

namespace {

// Large enough that a stream of small rows costs few system calls.
constexpr std::size_t kBufferBytes = std::size_t(1) << 18;
// Linux gives up at 40 links in a chain; so do we.
constexpr int kMaxSymlinkHops = 40;
// The temporary's name holds the target's; kept short of NAME_MAX (255).
constexpr std::size_t kMaxNameInTemporary = 200;

bool writeAll(int fd, const char* data, std::size_t size)
{
    while (size > 0) {
        const ssize_t n = ::write(fd, data, size);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        if (n == 0) { // no progress and no error: the device is full
            errno = ENOSPC;
            return false;
        }
        data += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

} // namespace

std::string describeFileError(int errnoValue)
{
    switch (errnoValue) {
    case ENOSPC:
        return "disk full";
    case EDQUOT:
        return "disk quota exceeded";
    case EACCES:
    case EPERM:
        return "permission denied";
    case EROFS:
        return "read-only file system";
    case ENOENT:
        return "no such directory";
    case ENOTDIR:
        return "a part of the path is not a folder";
    case EISDIR:
        return "it is a folder";
    case EFBIG:
        return "file too large";
    case ENAMETOOLONG:
        return "file name too long";
    case ELOOP:
        return "too many symbolic links";
    case EIO:
        return "input/output error";
    case EMFILE:
    case ENFILE:
        return "too many open files";
    case EXDEV:
        return "the link and its target are on different file systems";
    default:
        return std::strerror(errnoValue);
    }
}

AtomicFileWriter::~AtomicFileWriter() { discard(); }

bool AtomicFileWriter::open(const std::string& path)
{
    discard();
    m_error.clear();
    m_path = path;
    m_keepMode = false;
    if (path.empty())
        return failWith("cannot save: no file name given");

    // Follow a chain of links to the file they name, so the link stays a link.
    std::string target = path;
    struct stat info {};
    bool exists = false;
    for (int hop = 0;; ++hop) {
        if (::lstat(target.c_str(), &info) != 0) {
            if (errno != ENOENT)
                return fail(errno);
            break;
        }
        if (!S_ISLNK(info.st_mode)) {
            exists = true;
            break;
        }
        if (hop == kMaxSymlinkHops)
            return fail(ELOOP);
        std::string link(PATH_MAX, '\0');
        const ssize_t n = ::readlink(target.c_str(), link.data(), link.size());
        if (n < 0)
            return fail(errno);
        link.resize(static_cast<std::size_t>(n));
        target = link.front() == '/' ? link : parentOf(target) + "/" + link;
    }
    const std::string folder = parentOf(target);
    if (exists) {
        if (S_ISDIR(info.st_mode))
            return failWith("cannot save to '" + path + "': it is a folder");
        // A terminal, /dev/null or a pipe (-o /dev/stdout) is written
        // straight: there is no file to keep, and renaming over the node
        // would replace the device itself.
        if (S_ISCHR(info.st_mode) || S_ISFIFO(info.st_mode)) {
            m_fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC);
            if (m_fd < 0)
                return fail(errno);
            m_target = target;
            return true;
        }
        if (!S_ISREG(info.st_mode))
            return failWith("cannot save to '" + path + "': it is not a regular file");
        // No write bit for anyone means the user marked it read-only; that
        // holds for root too, although the kernel would let root write.
        if ((info.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0)
            return failWith("cannot save to '" + path + "': the file is read-only");
        if (::access(target.c_str(), W_OK) != 0)
            return fail(errno);
        m_keepMode = true;
        m_mode = info.st_mode & 07777;
    } else {
        struct stat folderInfo {};
        if (::stat(folder.c_str(), &folderInfo) != 0)
            return fail(errno);
        if (!S_ISDIR(folderInfo.st_mode))
            return fail(ENOTDIR);
    }

    std::random_device random;
    const std::string stem = folder + "/." + nameOf(target).substr(0, kMaxNameInTemporary) + ".tmp-";
    for (int attempt = 0; attempt < 100; ++attempt) {
        char suffix[16];
        std::snprintf(suffix, sizeof suffix, "%08x", static_cast<unsigned>(random()));
        const std::string temporary = stem + suffix;
        // 0666 under the umask: a new file gets the mode any other tool would give it.
        m_fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (m_fd >= 0) {
            m_temporary = temporary;
            break;
        }
        if (errno != EEXIST)
            return fail(errno);
    }
    if (m_fd < 0)
        return fail(EEXIST);
    if (m_keepMode) {
        if (::fchmod(m_fd, m_mode) != 0)
            return fail(errno);
        if ((info.st_uid != ::geteuid() || info.st_gid != ::getegid())
            && ::fchown(m_fd, info.st_uid, info.st_gid) != 0) {
            // Only root may hand the file back to its owner; anyone else keeps
            // the new file as their own, as editors do.
        }
    }
    m_target = target;
    return true;
}

bool AtomicFileWriter::write(std::string_view bytes)
{
    if (failed())
        return false;
    if (!isOpen())
        return failWith("cannot save: no file is open");
    if (m_buffer.empty() && bytes.size() >= kBufferBytes) {
        if (!writeAll(m_fd, bytes.data(), bytes.size()))
            return fail(errno);
        return true;
    }
    m_buffer.append(bytes);
    return m_buffer.size() < kBufferBytes || flushBuffer();
}

bool AtomicFileWriter::flushBuffer()
{
    if (!writeAll(m_fd, m_buffer.data(), m_buffer.size()))
        return fail(errno);
    m_buffer.clear();
    return true;
}

bool AtomicFileWriter::commit()
{
    if (failed())
        return false;
    if (!isOpen())
        return failWith("cannot save: no file is open");
    if (!m_buffer.empty() && !flushBuffer())
        return false;
    std::string().swap(m_buffer);
    if (m_temporary.empty()) { // a device or a pipe, written straight
        const int fd = m_fd;
        m_fd = -1;
        return ::close(fd) == 0 || fail(errno);
    }
    if (::fsync(m_fd) != 0)
        return fail(errno);
    const int fd = m_fd;
    m_fd = -1;
    if (::close(fd) != 0)
        return fail(errno);
    if (::rename(m_temporary.c_str(), m_target.c_str()) != 0)
        return fail(errno);
    m_temporary.clear();
    // Makes the rename itself durable. The new content is already on disk, so
    // a file system that cannot sync a folder does not fail the save.
    const int folder = ::open(parentOf(m_target).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (folder >= 0) {
        ::fsync(folder);
        ::close(folder);
    }
    return true;
}

void AtomicFileWriter::discard()
{
    if (m_fd >= 0) {
        ::close(m_fd);
        m_fd = -1;
    }
    if (!m_temporary.empty()) {
        ::unlink(m_temporary.c_str());
        m_temporary.clear();
    }
    std::string().swap(m_buffer);
}

bool AtomicFileWriter::fail(int errnoValue)
{
    return failWith("cannot save to '" + m_path + "': " + describeFileError(errnoValue));
}

bool AtomicFileWriter::failWith(std::string message)
{
    discard();
    m_error = std::move(message);
    return false;
}

bool writeFileAtomically(const std::string& path, std::string_view bytes, std::string* error)
{
    AtomicFileWriter writer;
    const bool ok = writer.open(path) && writer.write(bytes) && writer.commit();
    if (!ok && error)
        *error = writer.error();
    return ok;
}

} // namespace ovs
