#pragma once

#include "trace/Json.h"

#include <optional>
#include <string>
#include <string_view>

namespace ovs {

// Deeper input is refused rather than risking the stack.
inline constexpr int kJsonMaxDepth = 256;

struct JsonParseResult {
    std::optional<Json> value;
    // "line 12, column 5: expected ',' or ']'"; empty on success.
    std::string error;
    // Where the error is, counting from 1; columns count characters, not bytes.
    int line = 0;
    int column = 0;
};

// Strict RFC 8259: one value, optionally surrounded by whitespace. No comments,
// trailing commas, NaN, leading zeros, raw control characters, invalid UTF-8,
// unpaired surrogates or duplicate keys. Integers that fit int64 stay exact;
// other numbers become doubles, and a number a double cannot hold is an error.
// Never crashes: any byte sequence gives either a value or a message.
JsonParseResult parseJson(std::string_view text);

} // namespace ovs
