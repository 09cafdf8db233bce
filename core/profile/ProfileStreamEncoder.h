#pragma once

#include "profile/ProfileRecord.h"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace ovs::profile {

// Builds record-stream bytes (ProfileRecord.h) in memory and writes them to a
// file descriptor in one go. The injection library encodes each CUPTI buffer
// with it; tests write streams with it. Depends on nothing but libc, since
// the injection library compiles it in.
class ProfileStreamEncoder {
public:
    // The 8-byte magic that opens a stream.
    void addMagic();

    template <typename Payload>
    void add(const Payload& payload)
    {
        append(static_cast<std::uint16_t>(Payload::kType), &payload, sizeof payload, {});
    }
    // For payloads followed by text (Begin, String, Note): sets textBytes.
    template <typename Payload>
    void addWithText(Payload payload, std::string_view text)
    {
        payload.textBytes = static_cast<std::uint32_t>(text.size());
        append(static_cast<std::uint16_t>(Payload::kType), &payload, sizeof payload, text);
    }

    // For payloads followed by raw bytes whose count the payload itself
    // says (Stack: its frames).
    template <typename Payload>
    void addWithTail(const Payload& payload, const void* tail, std::size_t tailBytes)
    {
        append(static_cast<std::uint16_t>(Payload::kType), &payload, sizeof payload,
               std::string_view(static_cast<const char*>(tail), tailBytes));
    }

    // Appends another encoder's records.
    void appendRecords(const ProfileStreamEncoder& other)
    {
        m_bytes.insert(m_bytes.end(), other.m_bytes.begin(), other.m_bytes.end());
    }

    const std::vector<std::uint8_t>& bytes() const { return m_bytes; }
    bool empty() const { return m_bytes.empty(); }
    void clear() { m_bytes.clear(); }

    // Writes everything (retrying short writes and EINTR) and clears. On
    // failure returns false with errno set; what was not written is dropped.
    bool writeTo(int fd);

private:
    void append(std::uint16_t type, const void* payload, std::size_t payloadBytes, std::string_view text);

    std::vector<std::uint8_t> m_bytes;
};

} // namespace ovs::profile
