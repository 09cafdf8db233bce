#include "formats/FileWindow.h"

#include <simdjson.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <unistd.h>

namespace ovs {

namespace {

constexpr std::size_t kTail = FileWindow::kRoom + simdjson::SIMDJSON_PADDING;

} // namespace

FileWindow::FileWindow(int fd, std::size_t bytes, std::uint64_t from)
    : m_fd(fd), m_capacity(bytes), m_buffer(new char[kRoom + bytes + kTail]), m_text(m_buffer.get() + kRoom),
      m_start(from)
{
    static_assert(sizeof m_saved >= kTail);
}

bool FileWindow::fill()
{
    restore();
    while (!m_end && m_held < m_capacity) {
        const std::uint64_t at = m_start + m_held;
        if (at >= m_limit) {
            m_end = true;
            break;
        }
        const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(m_capacity - m_held, m_limit - at));
        const ssize_t n = ::pread(m_fd, m_text + m_held, want, static_cast<off_t>(at));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return false;
        if (n == 0)
            m_end = m_fileEnded = true;
        m_held += static_cast<std::size_t>(n);
    }
    return true;
}

std::string_view FileWindow::document(std::string_view prefix, std::size_t cut, std::string_view suffix)
{
    restore();
    cut = std::min(cut, m_held);
    m_cut = cut;
    m_savedBytes = suffix.size() + simdjson::SIMDJSON_PADDING;
    std::memcpy(m_saved, m_text + cut, m_savedBytes);
    std::memcpy(m_text + cut, suffix.data(), suffix.size());
    std::memset(m_text + cut + suffix.size(), 0, simdjson::SIMDJSON_PADDING);
    char* begin = m_text - prefix.size();
    std::memcpy(begin, prefix.data(), prefix.size());
    return {begin, prefix.size() + cut + suffix.size()};
}

void FileWindow::restore()
{
    if (m_savedBytes == 0)
        return;
    std::memcpy(m_text + m_cut, m_saved, m_savedBytes);
    m_savedBytes = 0;
}

void FileWindow::drop(std::size_t n)
{
    restore();
    n = std::min(n, m_held);
    std::memmove(m_text, m_text + n, m_held - n);
    m_held -= n;
    m_start += n;
}

void FileWindow::grow()
{
    restore();
    const std::size_t capacity = m_capacity * 2;
    std::unique_ptr<char[]> buffer(new char[kRoom + capacity + kTail]);
    std::memcpy(buffer.get() + kRoom, m_text, m_held);
    m_buffer = std::move(buffer);
    m_text = m_buffer.get() + kRoom;
    m_capacity = capacity;
}

} // namespace ovs
