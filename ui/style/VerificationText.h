#pragma once

#include "trace/Run.h"

#include <QString>

namespace ovs::ui {

// How a run's verification reads in the window and its exports. Only our
// pipelines check their output (every element equals input + 1), so only
// they say "verified" or "not verified"; a profiled or imported run has
// nothing of ours to check and shows a dash, with why in the tooltip,
// never a red "not verified" as if it had failed.
struct VerificationText {
    QString word;    // "verified", "not verified", "FAILED (3 mismatches)", or "\u2014"
    QString tooltip; // the whole sentence
    bool bad = false; // one of our pipelines that did not verify
};

// Whether verification applies to the run: one of our pipelines' runs, or
// any run that was checked.
bool verificationApplies(const Run& run);
VerificationText verificationText(const Run& run);

} // namespace ovs::ui
