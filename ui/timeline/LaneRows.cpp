#include "timeline/LaneRows.h"

#include <algorithm>

namespace ovs::ui {

bool LaneRows::groupsByDevice(const Run& run)
{
    if (run.deviceCount() > 1)
        return true;
    return std::any_of(run.lanes.begin(), run.lanes.end(),
                       [](const Lane& lane) { return lane.kind == LaneKind::Stream && lane.device != 0; });
}

QString LaneRows::deviceHeader(const Run& run, int device)
{
    const QString gpu = QStringLiteral("GPU %1").arg(device);
    if (device >= run.deviceCount())
        return gpu;
    return gpu + QStringLiteral(" \u00b7 ") + QString::fromStdString(run.deviceAt(device).label());
}

LaneRows LaneRows::of(const Run& run)
{
    return of(run, RegionTracks::of(run));
}

LaneRows LaneRows::of(const Run& run, const RegionTracks& tracks)
{
    LaneRows rows;
    const int laneCount = static_cast<int>(run.lanes.size());
    rows.rowOfLane.assign(static_cast<std::size_t>(laneCount), 0);
    rows.regionRows = tracks.count();
    rows.laneAtRow.assign(static_cast<std::size_t>(rows.regionRows), -1);
    if (!groupsByDevice(run)) {
        for (int lane = 0; lane < laneCount; ++lane) {
            rows.rowOfLane[static_cast<std::size_t>(lane)] = rows.rowCount();
            rows.laneAtRow.push_back(lane);
        }
        return rows;
    }
    int devices = run.deviceCount();
    for (const Lane& lane : run.lanes)
        if (lane.kind == LaneKind::Stream)
            devices = std::max(devices, static_cast<int>(lane.device) + 1);
    // One group per device in device order, then the host's; lanes keep
    // their recorded order inside a group.
    const auto addGroup = [&](int device, const QString& text, auto&& belongs) {
        bool headed = false;
        for (int lane = 0; lane < laneCount; ++lane) {
            if (!belongs(run.lanes[static_cast<std::size_t>(lane)]))
                continue;
            if (!headed) {
                rows.headers.push_back({rows.rowCount(), device, text});
                rows.laneAtRow.push_back(-1);
                headed = true;
            }
            rows.rowOfLane[static_cast<std::size_t>(lane)] = rows.rowCount();
            rows.laneAtRow.push_back(lane);
        }
    };
    for (int device = 0; device < devices; ++device)
        addGroup(device, deviceHeader(run, device),
                 [device](const Lane& lane) { return lane.kind == LaneKind::Stream && lane.device == device; });
    addGroup(-1, hostHeader(), [](const Lane& lane) { return lane.kind != LaneKind::Stream; });
    return rows;
}

const LaneRows::Header* LaneRows::headerAt(int row) const
{
    for (const Header& header : headers)
        if (header.row == row)
            return &header;
    return nullptr;
}

std::vector<QString> LaneRows::headerTexts() const
{
    std::vector<QString> texts;
    for (const Header& header : headers)
        texts.push_back(QString::number(header.row) + QLatin1Char(':') + header.text);
    return texts;
}

} // namespace ovs::ui
