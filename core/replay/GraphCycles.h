#pragma once

#include "replay/RunGraph.h"

#include <string>

namespace ovs {

// What breakCycles did: the waits it dropped, and whether the graph holds
// (false: a cycle of edges none of which may be dropped; `why` says which).
struct CycleBreak {
    int dropped = 0;
    bool acyclic = true;
    std::string why;
};

// Whether an edge may be dropped to break a cycle: only waits the trace
// does not name (an inferred wait, a legacy stream's barrier). Stream
// order, launches, host order and blocking calls are what the trace says.
bool isDroppable(const GraphEdge& e);

// Makes `g` acyclic by dropping, one at a time, the weakest droppable edge
// of a cycle among the points that can never become ready, until every
// point can (docs/what-if.md, "Waits that contradict each other"). The
// weakest: an inferred wait before a legacy stream's barrier; within a kind,
// one the run's own times contradict (its waiter began before its cause
// ended), the most contradicted first; else the one with the largest gap
// between its cause and its waiter in the run (the longer ago the cause
// ended, the less it explains the wait); the first added on a tie.
// Adds the count to g.droppedWaits. Linear where the graph has no cycle.
CycleBreak breakCycles(RunGraph& g);
// Whether `g` holds no cycle: breakCycles's first walk, reading the graph
// only (its edges and its count of nodes), so that it can run beside what
// changes the graph's nodes and model.
bool isAcyclic(const RunGraph& g);

} // namespace ovs
