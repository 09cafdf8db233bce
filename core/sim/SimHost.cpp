#include "sim/SimHost.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ovs {

SimHost::SimHost(double memoryGBps) : m_memoryGBps(memoryGBps) {}

int SimHost::attach()
{
    std::lock_guard lock(m_mutex);
    m_participants.push_back({});
    return static_cast<int>(m_participants.size()) - 1;
}

void SimHost::join(int device, std::int64_t startNs)
{
    std::lock_guard lock(m_mutex);
    auto& p = m_participants.at(static_cast<std::size_t>(device));
    p.joined = true;
    p.clockNs = startNs;
    m_changed.notify_all();
}

void SimHost::leave(int device)
{
    std::lock_guard lock(m_mutex);
    m_participants.at(static_cast<std::size_t>(device)).joined = false;
    // The last one out: the next run starts on an idle host.
    if (std::none_of(m_participants.begin(), m_participants.end(), [](const Participant& p) { return p.joined; }))
        m_booked.clear();
    m_changed.notify_all();
}

bool SimHost::isEarliest(int device) const
{
    const auto& me = m_participants[static_cast<std::size_t>(device)];
    for (std::size_t j = 0; j < m_participants.size(); ++j) {
        const auto& other = m_participants[j];
        if (static_cast<int>(j) == device || !other.joined)
            continue;
        if (other.clockNs < me.clockNs || (other.clockNs == me.clockNs && static_cast<int>(j) < device))
            return false;
    }
    return true;
}

void SimHost::turn(int device, std::int64_t nowNs)
{
    std::unique_lock lock(m_mutex);
    auto& me = m_participants.at(static_cast<std::size_t>(device));
    if (!me.joined)
        return;
    me.clockNs = std::max(me.clockNs, nowNs);
    m_changed.notify_all(); // a later clock may let another device go
    m_changed.wait(lock, [&] { return isEarliest(device); });
    // Nothing can be booked before the earliest running clock any more.
    std::int64_t earliest = me.clockNs;
    for (const auto& p : m_participants)
        if (p.joined)
            earliest = std::min(earliest, p.clockNs);
    std::erase_if(m_booked, [earliest](const Segment& s) { return s.endNs < earliest; });
}

double SimHost::loadAt(double t) const
{
    double load = 0;
    for (const auto& s : m_booked)
        if (static_cast<double>(s.startNs) <= t && t < static_cast<double>(s.endNs))
            load += s.gbps;
    return load;
}

double SimHost::nextBoundaryAfter(double t) const
{
    double next = std::numeric_limits<double>::infinity();
    for (const auto& s : m_booked) {
        const auto a = static_cast<double>(s.startNs);
        const auto b = static_cast<double>(s.endNs);
        if (a > t)
            next = std::min(next, a);
        if (b > t)
            next = std::min(next, b);
    }
    return next;
}

std::int64_t SimHost::transfer(std::int64_t startNs, double trafficBytes, double wantedGBps, bool commit)
{
    std::lock_guard lock(m_mutex);
    if (trafficBytes <= 0 || wantedGBps <= 0)
        return startNs;
    if (m_memoryGBps <= 0)
        return startNs + static_cast<std::int64_t>(std::llround(trafficBytes / wantedGBps));
    // Walk the load profile from the start: in each stretch between booking
    // boundaries, go at what is left (GB/s = bytes per ns).
    std::vector<Segment> mine;
    double t = static_cast<double>(startNs);
    double left = trafficBytes;
    while (left > 0) {
        const double rate = std::max(std::min(wantedGBps, m_memoryGBps - loadAt(t)), 0.05 * wantedGBps);
        const double until = nextBoundaryAfter(t);
        const double finish = t + left / rate;
        const double stop = std::min(finish, until);
        const auto a = static_cast<std::int64_t>(std::llround(t));
        const auto b = static_cast<std::int64_t>(std::llround(stop));
        if (b > a)
            mine.push_back({a, b, rate});
        left -= (stop - t) * rate;
        t = stop;
        if (stop >= finish)
            break;
    }
    const auto end = static_cast<std::int64_t>(std::llround(t));
    if (commit)
        m_booked.insert(m_booked.end(), mine.begin(), mine.end());
    return end;
}

} // namespace ovs
