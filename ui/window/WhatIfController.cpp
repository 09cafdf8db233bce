#include "window/WhatIfController.h"

#include "document/TraceDocument.h"
#include "document/ViewState.h"
#include "models/AnalysisCache.h"

#include <QAction>

namespace ovs::ui {

namespace {

// The fixes of every finding of the run, when it was replayed; 0 if none.
FixSet allFixesOf(const AnalysisCache& cache, int run)
{
    const auto analysed = cache.analysisIfReady(run);
    if (!analysed)
        return 0;
    const WhatIfSummary& summary = analysed->analysis.findings.whatIf;
    return summary.replayed ? summary.allFixes : 0;
}

} // namespace

WhatIfController::WhatIfController(TraceDocument* document, ViewState* view, QObject* parent)
    : QObject(parent), m_document(document), m_view(view), m_cache(AnalysisCache::of(document)),
      m_allFixes(new QAction(tr("What if: &all fixes"), this))
{
    m_allFixes->setCheckable(true);
    m_allFixes->setToolTip(tr("Draw the run replayed with the fixes of all its findings under it"));
    connect(m_allFixes, &QAction::triggered, this, [this](bool on) {
        if (!on)
            m_view->clearWhatIf();
        else if (!chooseAllFixes())
            m_allFixes->setChecked(false);
    });
    connect(m_view, &ViewState::whatIfChanged, this, &WhatIfController::updateAction);
    connect(m_cache, &AnalysisCache::analysed, this, &WhatIfController::updateAction);
    connect(m_cache, &AnalysisCache::invalidated, this, &WhatIfController::updateAction);
    connect(m_cache, &AnalysisCache::whatIfReady, this, &WhatIfController::onReady);
    updateAction();
}

void WhatIfController::choose(int run, FixSet fixes)
{
    if (run < 0 || fixes == 0) {
        m_view->clearWhatIf();
        return;
    }
    m_cache->requestWhatIf(run, fixes);
    m_view->setWhatIf({run, fixes});
}

bool WhatIfController::chooseAllFixes(int run)
{
    if (run < 0 && allFixesOf(*m_cache, m_view->whatIf().run) != 0)
        run = m_view->whatIf().run;
    for (int i = 0; run < 0 && i < m_document->runCount(); ++i)
        if (allFixesOf(*m_cache, i) != 0)
            run = i;
    const FixSet fixes = run >= 0 ? allFixesOf(*m_cache, run) : 0;
    if (fixes == 0)
        return false;
    choose(run, fixes);
    return true;
}

void WhatIfController::updateAction()
{
    bool any = false;
    for (int i = 0; i < m_document->runCount() && !any; ++i)
        any = allFixesOf(*m_cache, i) != 0;
    m_allFixes->setEnabled(any);
    const WhatIfChoice choice = m_view->whatIf();
    m_allFixes->setChecked(choice.isValid() && choice.fixes == allFixesOf(*m_cache, choice.run));
}

void WhatIfController::onReady(int run, quint32 fixes)
{
    const WhatIfChoice choice = m_view->whatIf();
    if (choice.run != run || choice.fixes != fixes)
        return;
    if (const auto ghost = m_cache->whatIf(run, fixes); ghost && !ghost->run)
        emit notice(tr("No what-if for %1: %2")
                        .arg(QString::fromStdString(describeFixes(fixes)), QString::fromStdString(ghost->why)));
}

} // namespace ovs::ui
