#include "profile/ProfileStreamEncoder.h"

#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace ovs::profile {

void ProfileStreamEncoder::addMagic()
{
    m_bytes.insert(m_bytes.end(), kStreamMagic, kStreamMagic + sizeof kStreamMagic);
}

void ProfileStreamEncoder::append(std::uint16_t type, const void* payload, std::size_t payloadBytes,
                                  std::string_view text)
{
    // Padding keeps every record 8-byte aligned, so a reader may copy
    // payloads out with plain loads.
    const std::size_t unpadded = sizeof(RecordHeader) + payloadBytes + text.size();
    const std::size_t size = (unpadded + 7) & ~std::size_t(7);
    RecordHeader header;
    header.type = type;
    header.size = static_cast<std::uint32_t>(size);
    const std::size_t at = m_bytes.size();
    m_bytes.resize(at + size, 0);
    std::memcpy(m_bytes.data() + at, &header, sizeof header);
    std::memcpy(m_bytes.data() + at + sizeof header, payload, payloadBytes);
    if (!text.empty())
        std::memcpy(m_bytes.data() + at + sizeof header + payloadBytes, text.data(), text.size());
}

bool ProfileStreamEncoder::writeTo(int fd)
{
    const std::uint8_t* data = m_bytes.data();
    std::size_t left = m_bytes.size();
    while (left > 0) {
        const ssize_t written = ::write(fd, data, left);
        if (written < 0) {
            if (errno == EINTR)
                continue;
            const int error = errno;
            m_bytes.clear();
            errno = error;
            return false;
        }
        data += written;
        left -= static_cast<std::size_t>(written);
    }
    m_bytes.clear();
    return true;
}

} // namespace ovs::profile
