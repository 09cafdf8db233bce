#include "replay/Replay.h"

#include "replay/Replayer.h"

namespace ovs {

ReplayResult replayGraph(const RunGraph& graph)
{
    Replayer replayer;
    replayer.replay(graph);
    return std::move(replayer).result();
}

} // namespace ovs
