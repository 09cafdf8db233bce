#pragma once

// The findings room's own: the findings' rules, one function each
// (FindingRules.cpp), each adding to `out` the finding it names in the
// run, with its ops and its estimated cost (the replay may cost it again:
// Findings.cpp). docs/profiling.md ("Findings") says each rule in words.

#include "findings/FindingContext.h"

#include <vector>

namespace ovs {
struct DemandMigrations;
struct RunGraph;
} // namespace ovs

namespace ovs::findings {

void pageableCopies(const Context& c, std::vector<Finding>& out);
void syncCopies(const Context& c, std::vector<Finding>& out);
void legacyDefaultStream(const Context& c, std::vector<Finding>& out);
// `graph`: the run's replay graph (its chunks), null where none was built.
void oneStream(const Context& c, const RunGraph* graph, std::vector<Finding>& out);
void syncInLoop(const Context& c, std::vector<Finding>& out);
void allocInLoop(const Context& c, std::vector<Finding>& out);
void managedMigration(const Context& c, const DemandMigrations& demand, std::vector<Finding>& out);
void smallCopies(const Context& c, std::vector<Finding>& out);
// Reads the run's verdict: queueing costs no more than its distance from
// its bound. (What bounds the run is the verdict's, Verdict.h; the Bound
// finding says it.)
void copyEngineQueue(const Context& c, const Verdict& verdict, std::vector<Finding>& out);

} // namespace ovs::findings
