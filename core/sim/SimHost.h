#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <vector>

namespace ovs {

// The one host several simulated GPUs share (sim:h200x2): its memory
// bandwidth, which every GPU's staging memcpys and every DMA read or write of
// host memory draw on, and the one virtual clock their host threads keep.
//
// Each GPU's pipeline runs on its own host thread with its own SimDevice, the
// unchanged pipeline body on each. To stay deterministic whatever the OS
// does with those threads, the devices advance as a conservative discrete-
// event simulation: before a device books host memory it calls turn(), which
// lets it go on only when no other running device is at an earlier virtual
// time (ties: the lower device index first). Bookings therefore happen in
// virtual-time order, the same order on every run.
//
// Sharing model: a booking takes the rate it wants where the bandwidth left
// by earlier bookings allows, and less where it does not (never below 5% of
// what it wants, so everything finishes). Earlier bookings are never slowed
// down afterwards, as the single device's bidirectional model does: simple,
// deterministic, and conservative in the total.
class SimHost {
public:
    // `memoryGBps`: host memory traffic (bytes read plus bytes written) all
    // clients together can reach; 0 means unlimited.
    explicit SimHost(double memoryGBps);

    double memoryGBps() const { return m_memoryGBps; }

    // A device joins the shared clock at `startNs` (every device of a run
    // before any of them starts) and leaves it when its thread is done.
    // A device that has not joined never waits.
    int attach();
    void join(int device, std::int64_t startNs);
    void leave(int device);
    // Blocks until `device`, now at `nowNs`, is the earliest of the joined devices.
    void turn(int device, std::int64_t nowNs);

    // When a transfer of `trafficBytes` of host memory traffic that starts at
    // `startNs` and wants `wantedGBps` ends, given the earlier bookings.
    // `commit` books it; without, it only answers.
    std::int64_t transfer(std::int64_t startNs, double trafficBytes, double wantedGBps, bool commit);

private:
    struct Participant {
        bool joined = false;
        std::int64_t clockNs = 0;
    };
    struct Segment {
        std::int64_t startNs;
        std::int64_t endNs;
        double gbps;
    };
    bool isEarliest(int device) const;
    double loadAt(double t) const;
    double nextBoundaryAfter(double t) const;

    const double m_memoryGBps;
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    std::vector<Participant> m_participants;
    std::vector<Segment> m_booked;
};

} // namespace ovs
