#include "base/HostMemory.h"

#include <charconv>
#include <fstream>
#include <iterator>
#include <string>

#include <unistd.h>

namespace ovs {

std::optional<std::uint64_t> memAvailableBytes(std::string_view meminfo)
{
    constexpr std::string_view key = "MemAvailable:";
    std::size_t at = 0;
    while ((at = meminfo.find(key, at)) != std::string_view::npos) {
        if (at == 0 || meminfo[at - 1] == '\n')
            break;
        at += key.size();
    }
    if (at == std::string_view::npos)
        return std::nullopt;
    std::size_t i = at + key.size();
    while (i < meminfo.size() && meminfo[i] == ' ')
        ++i;
    std::uint64_t kib = 0;
    const char* end = meminfo.data() + meminfo.size();
    const auto [next, ec] = std::from_chars(meminfo.data() + i, end, kib);
    if (ec != std::errc() || next == meminfo.data() + i)
        return std::nullopt;
    const std::string_view unit = std::string_view(next, static_cast<std::size_t>(end - next)).substr(0, 3);
    if (unit != " kB" || kib > UINT64_MAX / 1024)
        return std::nullopt;
    return kib * 1024;
}

std::uint64_t availableHostMemoryBytes()
{
    std::ifstream file("/proc/meminfo");
    const std::string meminfo((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    if (const auto bytes = memAvailableBytes(meminfo))
        return *bytes;
    const long pages = sysconf(_SC_AVPHYS_PAGES);
    const long pageSize = sysconf(_SC_PAGESIZE);
    return pages > 0 && pageSize > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(pageSize) : 0;
}

} // namespace ovs
