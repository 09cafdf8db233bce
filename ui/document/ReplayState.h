#pragma once

#include <cstdint>
#include <vector>

namespace ovs::ui {

// A run played back: where the playhead is (ns on the document's time axis),
// how fast it moves, whether it is playing, and stepping from op start to op
// start across all lanes. No Qt, no window: the window's ReplayController
// drives it with a timer and puts the playhead into the ViewState.
//
// Speed 1x plays the whole extent in kBaseSeconds of wall time, whatever the
// run's length (a 3 ms pipeline in real time would be over in a blink);
// speeds run from 0.1x to 10x.
class ReplayState {
public:
    static constexpr double kBaseSeconds = 10.0;
    static constexpr double kMinSpeed = 0.1;
    static constexpr double kMaxSpeed = 10.0;

    // Op start times per lane (document axis). Each lane is sorted here;
    // nothing is merged, so 1M ops cost one copy and steps stay
    // O(lanes * log ops). Resets the playhead to 0, paused.
    void setLanes(std::vector<std::vector<std::int64_t>> laneStarts, std::int64_t extentNs);
    // Keeps the playhead (clamped) and speed: the document changed under a replay.
    void updateLanes(std::vector<std::vector<std::int64_t>> laneStarts, std::int64_t extentNs);

    std::int64_t playheadNs() const { return m_playheadNs; }
    std::int64_t extentNs() const { return m_extentNs; }
    double speed() const { return m_speed; }
    bool isPlaying() const { return m_playing; }
    bool atEnd() const { return m_playheadNs >= m_extentNs; }

    void setPlayhead(std::int64_t ns); // clamped to [0, extent]
    void setSpeed(double speed);       // clamped to [kMinSpeed, kMaxSpeed]
    // One step along 0.1, 0.25, 0.5, 1, 2, 5, 10.
    void faster();
    void slower();

    // Playing from the end starts again from the beginning.
    void play();
    void pause();
    void togglePlaying();
    void toStart(); // playhead 0, keeps playing or not

    // Moves the playhead by `wallSeconds` of playback at the current speed;
    // stops at the end. Returns whether the playhead moved.
    bool advance(double wallSeconds);

    // The next op start after the playhead (any lane), or the previous one
    // before it. Pause; returns false (and leaves the playhead) when none.
    bool stepNext();
    bool stepPrevious();

    // Ops with start <= playhead have appeared.
    bool hasAppeared(std::int64_t opStartNs) const { return opStartNs <= m_playheadNs; }

private:
    std::vector<std::vector<std::int64_t>> m_lanes;
    std::int64_t m_extentNs = 0;
    std::int64_t m_playheadNs = 0;
    double m_speed = 1.0;
    bool m_playing = false;
    // Sub-ns progress carried between ticks, so slow speeds on short runs
    // still move.
    double m_carryNs = 0;
};

} // namespace ovs::ui
