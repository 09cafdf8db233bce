#pragma once


#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace ovs {

// Streams compact JSON into a string without building a tree first, so a
// million-op trace is written without a second copy of it in memory. Commas
// are placed automatically; the caller only nests begin/end calls properly and
// calls key() before each value inside an object.
class JsonWriter {
public:
    // Receives the text written so far; `out` then starts again empty.
    using Drain = std::function<void(std::string_view)>;

    explicit JsonWriter(std::string& out) : m_out(out) {}
    // Streaming: `drain` is called whenever `out` holds more than about
    // kDrainBytes, so a file of any size is written through a small buffer.
    // flush() hands over the rest.
    JsonWriter(std::string& out, Drain drain) : m_out(out), m_drain(std::move(drain)) {}
    void flush();

    void beginObject();
    void endObject();
    void beginArray();
    void endArray();
    void key(std::string_view name);

    void value(std::nullptr_t);
    void value(bool value);
    void value(std::int64_t value);
    void value(std::uint64_t value);
    template <typename T,
              std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool> && !std::is_same_v<T, std::int64_t>
                                   && !std::is_same_v<T, std::uint64_t>,
                               int> = 0>
    void value(T v)
    {
        if constexpr (std::is_signed_v<T>)
            value(static_cast<std::int64_t>(v));
        else
            value(static_cast<std::uint64_t>(v));
    }
    // Shortest text that reads back to the same double; JSON has no NaN or
    // infinity, so those are written as null.
    void value(double value);
    void value(std::string_view text);
    void value(const char* text) { value(std::string_view(text)); }
    void value(const std::string& text) { value(std::string_view(text)); }
    // One string value made of `parts` one after another, without building
    // the joined string first.
    void value(std::initializer_list<std::string_view> parts);
    // scaled / 10^decimals, printed exactly in fixed point: 1234567 with 3
    // decimals is 1234.567 (decimals 0..18). Chrome traces want microseconds;
    // we hold ns.
    void decimal(std::int64_t scaled, int decimals);

    template <typename T>
    void member(std::string_view name, const T& v)
    {
        key(name);
        value(v);
    }

private:
    void beforeValue();

    static constexpr std::size_t kDrainBytes = std::size_t(1) << 20;

    std::string& m_out;
    Drain m_drain;
    // One entry per open array/object: whether it already holds an element.
    std::vector<bool> m_hasElements;
    bool m_afterKey = false;
};

// Appends `text` as a quoted JSON string with the escapes JSON requires.
void appendJsonString(std::string& out, std::string_view text);

} // namespace ovs
