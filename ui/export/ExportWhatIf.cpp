#include "export/ExportWhatIf.h"

#include "document/TraceDocument.h"
#include "document/ViewState.h"
#include "export/ExportError.h"
#include "models/AnalysisCache.h"

#include "findings/Findings.h"

#include <QStringList>

#include <string>

namespace ovs::ui {

namespace {

// Whether every part of `id` is a kind id.
bool knownId(const QString& id, QStringList* all)
{
    for (int k = 0; k < kFindingKindCount; ++k)
        *all << QString::fromLatin1(kindId(static_cast<FindingKind>(k)));
    for (const QString& part : id.split(QLatin1Char('+')))
        if (!all->contains(part))
            return false;
    return true;
}

} // namespace

bool isExportWhatIfId(const QString& id, QString* error)
{
    QStringList ids;
    if (id == QLatin1String("all") || knownId(id, &ids))
        return true;
    return exportFailed(error, QStringLiteral("--what-if: unknown finding '%1' (a kind id: %2; parts of a combined "
                                              "finding joined with '+'; or all)")
                                   .arg(id, ids.join(QStringLiteral(", "))));
}

bool chooseExportWhatIf(TraceDocument& document, ViewState& view, const QString& id, QString* error)
{
    if (!isExportWhatIfId(id, error))
        return false;
    const bool everyFix = id == QLatin1String("all");
    AnalysisCache* cache = AnalysisCache::of(&document);
    QString why = everyFix ? QStringLiteral("no run has a finding with a fix to replay")
                           : QStringLiteral("no run has the finding '%1'").arg(id);
    for (int run = 0; run < document.runCount(); ++run) {
        cache->analysis(run);
        cache->finishPending();
        const auto analysed = cache->analysisIfReady(run);
        if (!analysed)
            continue; // a live run: none in a loaded trace
        const RunFindings& findings = analysed->analysis.findings;
        FixSet fixes = everyFix ? findings.whatIf.allFixes : 0;
        bool found = everyFix;
        bool replayCosted = everyFix;
        for (const Finding& f : findings.findings)
            if (!everyFix && !found && findingId(f) == id.toStdString()) {
                found = true;
                fixes = f.fixes;
                replayCosted = f.costSource == CostSource::Replay;
            }
        if (!found)
            continue;
        if (fixes == 0) {
            why = everyFix ? why : QStringLiteral("the finding '%1' has no replayable fix: its cost is an estimate").arg(id);
            continue;
        }
        if (!replayCosted && findings.whatIf.replayed) {
            why = QStringLiteral("the replay could not apply the fix of '%1': its cost is an estimate").arg(id);
            continue;
        }
        if (!findings.whatIf.replayed) {
            why = QStringLiteral("the run could not be replayed: %1").arg(QString::fromStdString(findings.whatIf.why));
            continue;
        }
        cache->requestWhatIf(run, fixes);
        cache->finishPending();
        const auto ghost = cache->whatIf(run, fixes);
        if (!ghost || !ghost->run) {
            why = QStringLiteral("the run could not be replayed: %1")
                      .arg(ghost ? QString::fromStdString(ghost->why) : QStringLiteral("no result"));
            continue;
        }
        view.setWhatIf({run, fixes});
        return true;
    }
    return exportFailed(error, QStringLiteral("--what-if %1: %2").arg(id, why));
}

} // namespace ovs::ui
