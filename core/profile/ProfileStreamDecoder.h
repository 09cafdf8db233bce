#pragma once

#include "profile/ProfileRecord.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ovs::profile {

// One record of a stream, pointing into the decoder's buffer: valid until the
// next feed().
struct DecodedRecord {
    RecordType type = RecordType::Begin;
    const std::uint8_t* body = nullptr; // the payload, then text and padding
    std::uint32_t bodyBytes = 0;

    // The fixed payload, when the record is long enough to hold one.
    template <typename Payload>
    std::optional<Payload> payload() const
    {
        if (bodyBytes < sizeof(Payload))
            return std::nullopt;
        Payload p;
        std::memcpy(&p, body, sizeof p);
        return p;
    }
    // The text after a payload of `payloadBytes` (nullopt when it does not fit).
    std::optional<std::string_view> text(std::size_t payloadBytes, std::uint32_t textBytes) const;
};

// Reads a record stream incrementally: feed() it bytes as they arrive (a
// file being written by a running process), take complete records with
// next(). A record cut off at the end stays pending until its rest arrives;
// when the writer is gone for good, pendingBytes() > 0 says the stream ends
// inside a record.
class ProfileStreamDecoder {
public:
    void feed(const void* data, std::size_t size);
    // The next complete record; false when none is complete yet or the
    // stream is corrupt (then error() says why and nothing more is read).
    bool next(DecodedRecord& out);

    const std::string& error() const { return m_error; }
    std::size_t pendingBytes() const { return m_bytes.size() - m_offset; }
    // Bytes consumed so far (magic and complete records).
    std::uint64_t consumedBytes() const { return m_consumed; }

private:
    std::vector<std::uint8_t> m_bytes;
    std::size_t m_offset = 0;
    std::uint64_t m_consumed = 0;
    bool m_sawMagic = false;
    std::string m_error;
};

} // namespace ovs::profile
