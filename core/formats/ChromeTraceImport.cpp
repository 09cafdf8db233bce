#include "formats/ChromeTraceImport.h"

#include "formats/ChromeTraceImporter.h"
#include "formats/ChromeTraceWindowedRead.h"

#include <algorithm>
#include <limits>
#include <new>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ovs {

ChromeTraceImport ChromeTraceImport::read(JsonReader& json)
{
    return ChromeTraceImporter(json).read();
}

std::optional<ChromeTraceImport> ChromeTraceImport::readFile(const std::string& path, std::uint64_t maxBytes,
                                                             std::size_t windowBytes, const ReadProgress& progress)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return std::nullopt;
    // Closed however the read ends, a cancel (RunCancelled) included.
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } const closer{fd};
    struct stat info {};
    if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode) || static_cast<std::uint64_t>(info.st_size) > maxBytes
        || static_cast<std::uint64_t>(info.st_size) <= windowBytes)
        return std::nullopt;
    const auto size = static_cast<std::uint64_t>(info.st_size);
    try {
        return readChromeTraceInWindows(fd, size, windowBytes, progress);
    } catch (const JsonReadError&) {
        return std::nullopt;
    } catch (const std::bad_alloc&) {
        return std::nullopt;
    }
}

bool microsecondsTextToNs(std::string_view text, std::int64_t& ns)
{
    std::size_t i = 0;
    const bool negative = i < text.size() && text[i] == '-';
    if (negative)
        ++i;
    // The digits, without the point, and where the point was (on the
    // stack: every event has two such numbers).
    char digitText[64];
    std::size_t digitCount = 0;
    std::int64_t pointAt = -1;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (c >= '0' && c <= '9') {
            if (digitCount < sizeof digitText)
                digitText[digitCount++] = c;
            else if (pointAt < 0)
                return false; // over 64 integer digits
        } else if (c == '.' && pointAt < 0) {
            pointAt = static_cast<std::int64_t>(digitCount);
        } else {
            break;
        }
    }
    const std::string_view digits(digitText, digitCount);
    if (digits.empty())
        return false;
    if (pointAt < 0)
        pointAt = static_cast<std::int64_t>(digits.size());
    std::int64_t exponent = 0;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        const bool negativeExponent = i < text.size() && text[i] == '-';
        if (i < text.size() && (text[i] == '+' || text[i] == '-'))
            ++i;
        if (i >= text.size())
            return false;
        for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i)
            exponent = std::min<std::int64_t>(exponent * 10 + (text[i] - '0'), 100'000);
        if (negativeExponent)
            exponent = -exponent;
    }
    if (i != text.size())
        return false;
    // ns = 0.digits * 10^(pointAt + exponent + 3)
    const std::int64_t integerDigits = pointAt + exponent + 3;
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    std::int64_t value = 0;
    std::int64_t k = 0;
    for (; k < integerDigits; ++k) {
        const int digit = k < static_cast<std::int64_t>(digits.size()) ? digits[static_cast<std::size_t>(k)] - '0' : 0;
        if (value > (kMax - digit) / 10)
            return false;
        value = value * 10 + digit;
    }
    // Round half away from zero on the first dropped digit.
    if (integerDigits >= 0 && k < static_cast<std::int64_t>(digits.size()) && digits[static_cast<std::size_t>(k)] >= '5') {
        if (value == kMax)
            return false;
        ++value;
    }
    ns = negative ? -value : value;
    return true;
}

} // namespace ovs
