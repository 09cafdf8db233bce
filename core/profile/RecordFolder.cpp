#include "profile/RecordFolder.h"

#include "profile/ProfileRecord.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace ovs::profile {

RecordFolder::RecordFolder(const std::string& keep)
{
    if (!keep.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(keep, ec);
        if (ec)
            throw std::runtime_error("cannot make " + keep + ": " + ec.message());
        for (const auto& entry : std::filesystem::directory_iterator(keep, ec))
            if (entry.path().string().ends_with(kStreamSuffix))
                throw std::runtime_error(keep + " already holds record streams (" + entry.path().filename().string()
                                         + "): give --records an empty or new folder");
        m_path = std::filesystem::absolute(keep).string();
        m_keep = true;
        return;
    }
    std::string pattern = (std::filesystem::temp_directory_path() / "overlapscope-profile-XXXXXX").string();
    if (!::mkdtemp(pattern.data()))
        throw std::runtime_error("cannot make a temporary folder for the record streams: "
                                 + std::string(std::strerror(errno)));
    m_path = pattern;
}

RecordFolder::~RecordFolder()
{
    if (m_keep)
        return;
    std::error_code ec;
    std::filesystem::remove_all(m_path, ec);
}

} // namespace ovs::profile
