#include "style/RegionStyle.h"

#include <cstdint>

namespace ovs::ui {

std::string_view regionFamily(std::string_view name)
{
    std::size_t end = name.size();
    while (end > 0 && name[end - 1] >= '0' && name[end - 1] <= '9')
        --end;
    // A name that is all digits (a bare step number) keeps its own colour.
    return end == 0 ? name : name.substr(0, end);
}

QColor regionColor(std::string_view name, bool dark)
{
    // FNV-1a, not qHash: qHash is seeded per process, and an export must
    // come out the same every time.
    std::uint32_t hash = 2166136261u;
    for (const char c : regionFamily(name)) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 16777619u;
    }
    // 24 hues, far enough apart to tell neighbours in the band apart.
    const int hue = static_cast<int>(hash % 24u) * 15;
    return QColor::fromHsl(hue, dark ? 95 : 120, dark ? 92 : 196);
}

QString regionSourceLabel(RegionSource source)
{
    switch (source) {
    case RegionSource::Nvtx: return QStringLiteral("NVTX range");
    case RegionSource::ProfilerRange: return QStringLiteral("profiler range (cudaProfilerStart/Stop)");
    case RegionSource::Annotation: return QStringLiteral("annotation (record_function)");
    case RegionSource::GpuAnnotation: return QStringLiteral("GPU annotation");
    case RegionSource::ProfilerStep: return QStringLiteral("profiler step");
    case RegionSource::Pipeline: return QStringLiteral("pipeline");
    }
    return QString();
}

} // namespace ovs::ui
