#include "profile/ProfileStreamDecoder.h"

namespace ovs::profile {
namespace {
// No record we write comes near this; a larger size means a corrupt stream,
// not a reason to buffer gigabytes waiting for its end.
constexpr std::uint32_t kMaxRecordBytes = 1u << 20;
} // namespace

std::optional<std::string_view> DecodedRecord::text(std::size_t payloadBytes, std::uint32_t textBytes) const
{
    if (payloadBytes > bodyBytes || textBytes > bodyBytes - payloadBytes)
        return std::nullopt;
    return std::string_view(reinterpret_cast<const char*>(body) + payloadBytes, textBytes);
}

void ProfileStreamDecoder::feed(const void* data, std::size_t size)
{
    if (!m_error.empty() || size == 0)
        return;
    // Drops what was consumed before growing, so a long stream read in small
    // pieces does not keep all its bytes.
    if (m_offset > 0 && m_offset * 2 >= m_bytes.size()) {
        m_bytes.erase(m_bytes.begin(), m_bytes.begin() + static_cast<std::ptrdiff_t>(m_offset));
        m_offset = 0;
    }
    const auto* bytes = static_cast<const std::uint8_t*>(data);
    m_bytes.insert(m_bytes.end(), bytes, bytes + size);
}

bool ProfileStreamDecoder::next(DecodedRecord& out)
{
    if (!m_error.empty())
        return false;
    if (!m_sawMagic) {
        if (pendingBytes() < sizeof kStreamMagic)
            return false;
        if (std::memcmp(m_bytes.data() + m_offset, kStreamMagic, sizeof kStreamMagic) != 0) {
            m_error = "not an OverlapScope record stream (bad magic)";
            return false;
        }
        m_sawMagic = true;
        m_offset += sizeof kStreamMagic;
        m_consumed += sizeof kStreamMagic;
    }
    if (pendingBytes() < sizeof(RecordHeader))
        return false;
    RecordHeader header;
    std::memcpy(&header, m_bytes.data() + m_offset, sizeof header);
    if (header.size < sizeof header || header.size % 8 != 0 || header.size > kMaxRecordBytes) {
        m_error = "corrupt record stream: a record of " + std::to_string(header.size) + " bytes at offset "
                  + std::to_string(m_consumed);
        return false;
    }
    if (pendingBytes() < header.size)
        return false;
    out.type = static_cast<RecordType>(header.type);
    out.body = m_bytes.data() + m_offset + sizeof header;
    out.bodyBytes = header.size - static_cast<std::uint32_t>(sizeof header);
    m_offset += header.size;
    m_consumed += header.size;
    return true;
}

} // namespace ovs::profile
