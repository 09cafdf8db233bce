#include "style/VerificationText.h"

#include "style/DisplayText.h"

#include "pipeline/PipelineConfig.h"

namespace ovs::ui {

bool verificationApplies(const Run& run)
{
    // A run that carries a check (ours, whatever its pipeline id says in a
    // hand-made trace) shows its result.
    return run.verification.checked || pipelineKindFromId(run.pipeline).has_value();
}

VerificationText verificationText(const Run& run)
{
    VerificationText text;
    if (!verificationApplies(run)) {
        text.word = QStringLiteral("\u2014");
        // The run's own reason ("not verified: imported from a Kineto
        // trace"), without the words that read as a failure.
        QString why = displayText(run.verification.message);
        if (why.startsWith(QStringLiteral("not verified: ")))
            why = why.mid(14);
        if (!why.isEmpty())
            why = why.left(1).toUpper() + why.mid(1) + QStringLiteral(". ");
        text.tooltip = why + QStringLiteral("Verification applies only to OverlapScope's own pipelines, which check "
                                            "that every output element equals its input + 1.");
        return text;
    }
    text.tooltip = displayText(run.verification.message);
    if (!run.verification.checked) {
        text.word = QStringLiteral("not verified");
        text.bad = true;
    } else if (run.verification.passed) {
        text.word = QStringLiteral("verified");
    } else {
        text.word = QStringLiteral("FAILED (%1 mismatches)").arg(run.verification.mismatches);
        text.bad = true;
    }
    return text;
}

} // namespace ovs::ui
