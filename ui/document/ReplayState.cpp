#include "document/ReplayState.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace ovs::ui {

namespace {

constexpr std::array<double, 7> kSpeeds = {0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0};

} // namespace

void ReplayState::setLanes(std::vector<std::vector<std::int64_t>> laneStarts, std::int64_t extentNs)
{
    updateLanes(std::move(laneStarts), extentNs);
    m_playheadNs = 0;
    m_carryNs = 0;
    m_playing = false;
}

void ReplayState::updateLanes(std::vector<std::vector<std::int64_t>> laneStarts, std::int64_t extentNs)
{
    m_lanes = std::move(laneStarts);
    for (auto& lane : m_lanes)
        if (!std::is_sorted(lane.begin(), lane.end()))
            std::sort(lane.begin(), lane.end());
    m_extentNs = std::max<std::int64_t>(0, extentNs);
    m_playheadNs = std::clamp<std::int64_t>(m_playheadNs, 0, m_extentNs);
}

void ReplayState::setPlayhead(std::int64_t ns)
{
    m_playheadNs = std::clamp<std::int64_t>(ns, 0, m_extentNs);
    m_carryNs = 0;
}

void ReplayState::setSpeed(double speed)
{
    if (!std::isfinite(speed))
        return;
    m_speed = std::clamp(speed, kMinSpeed, kMaxSpeed);
}

void ReplayState::faster()
{
    const auto next = std::upper_bound(kSpeeds.begin(), kSpeeds.end(), m_speed + 1e-9);
    setSpeed(next == kSpeeds.end() ? kMaxSpeed : *next);
}

void ReplayState::slower()
{
    const auto first = std::lower_bound(kSpeeds.begin(), kSpeeds.end(), m_speed - 1e-9);
    setSpeed(first == kSpeeds.begin() ? kMinSpeed : *(first - 1));
}

void ReplayState::play()
{
    if (atEnd())
        setPlayhead(0);
    m_playing = m_extentNs > 0;
}

void ReplayState::pause()
{
    m_playing = false;
}

void ReplayState::togglePlaying()
{
    if (m_playing)
        pause();
    else
        play();
}

void ReplayState::toStart()
{
    setPlayhead(0);
}

bool ReplayState::advance(double wallSeconds)
{
    if (!m_playing || !(wallSeconds > 0) || m_extentNs <= 0)
        return false;
    m_carryNs += wallSeconds * m_speed * static_cast<double>(m_extentNs) / kBaseSeconds;
    const double whole = std::floor(m_carryNs);
    m_carryNs -= whole;
    const std::int64_t before = m_playheadNs;
    const double target = static_cast<double>(m_playheadNs) + whole;
    m_playheadNs = target >= static_cast<double>(m_extentNs) ? m_extentNs : static_cast<std::int64_t>(target);
    if (atEnd()) {
        m_playing = false;
        m_carryNs = 0;
    }
    return m_playheadNs != before;
}

bool ReplayState::stepNext()
{
    m_playing = false;
    bool found = false;
    std::int64_t best = 0;
    for (const auto& lane : m_lanes) {
        const auto it = std::upper_bound(lane.begin(), lane.end(), m_playheadNs);
        if (it != lane.end() && (!found || *it < best)) {
            best = *it;
            found = true;
        }
    }
    if (found)
        setPlayhead(best);
    return found && m_playheadNs == best;
}

bool ReplayState::stepPrevious()
{
    m_playing = false;
    bool found = false;
    std::int64_t best = 0;
    for (const auto& lane : m_lanes) {
        const auto it = std::lower_bound(lane.begin(), lane.end(), m_playheadNs);
        if (it != lane.begin() && (!found || *(it - 1) > best)) {
            best = *(it - 1);
            found = true;
        }
    }
    if (found)
        setPlayhead(best);
    return found;
}

} // namespace ovs::ui
