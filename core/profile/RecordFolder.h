#pragma once

#include <string>

namespace ovs::profile {

// The folder the profiled processes write their record streams into: a
// folder the user asked to keep (it must hold no streams yet: those of
// another profile would become runs of this one), or a temporary one,
// removed with this object.
class RecordFolder {
public:
    // Throws std::runtime_error saying why the folder cannot be used.
    explicit RecordFolder(const std::string& keep);
    ~RecordFolder();
    RecordFolder(const RecordFolder&) = delete;
    RecordFolder& operator=(const RecordFolder&) = delete;

    const std::string& path() const { return m_path; }

private:
    std::string m_path;
    bool m_keep = false;
};

} // namespace ovs::profile
