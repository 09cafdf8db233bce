#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

namespace ovs {

// A file read a window at a time into one buffer that simdjson can parse in
// place: a few bytes of room before the text for a prefix, and after any
// cut a suffix and simdjson's padding. Reading a trace this way holds one
// window of text and its index at a time, whatever the file's size, and
// touches the same pages again for every window instead of new ones.
class FileWindow {
public:
    static constexpr std::size_t kRoom = 8; // for a prefix, and for a suffix
    // `fd` stays the caller's and may be shared: reading is positioned
    // (pread), from file offset `from`.
    FileWindow(int fd, std::size_t bytes, std::uint64_t from = 0);

    // Reads until the window is full or the file (or the limit) ends; false
    // on a read error.
    bool fill();
    // Reads no further than file offset `end`: the window then ends there as
    // at the end of the file (atEnd, atLimit).
    void limitTo(std::uint64_t end) { m_limit = end; }
    // Whether text() ends at the limit, not at the end of the file.
    bool atLimit() const { return m_end && !m_fileEnded; }
    // The text held, from file offset start().
    std::string_view text() const { return {m_text, m_held}; }
    std::uint64_t start() const { return m_start; }
    // Whether text() reaches the end of the file.
    bool atEnd() const { return m_end; }
    std::size_t capacity() const { return m_capacity; }

    // The document prefix + text()[0, cut) + suffix, padded; the bytes after
    // the cut are saved and put back by the next call that changes the
    // window. Prefix and suffix are at most kRoom bytes.
    std::string_view document(std::string_view prefix, std::size_t cut, std::string_view suffix);
    // Forgets the first n bytes of text() (read), keeping the rest.
    void drop(std::size_t n);
    // Twice the room, for a piece larger than the window.
    void grow();

private:
    void restore();

    int m_fd;
    std::size_t m_capacity;
    std::unique_ptr<char[]> m_buffer;
    char* m_text = nullptr;
    std::size_t m_held = 0;
    std::uint64_t m_start = 0;
    std::uint64_t m_limit = ~std::uint64_t(0);
    bool m_end = false;
    bool m_fileEnded = false;
    // What document() wrote over, and where.
    std::size_t m_cut = 0;
    std::size_t m_savedBytes = 0;
    char m_saved[2 * kRoom + 64];
};

} // namespace ovs
