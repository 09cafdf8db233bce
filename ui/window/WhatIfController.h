#pragma once

#include "replay/Fix.h"

#include <QObject>
#include <QString>

class QAction;

namespace ovs::ui {

class AnalysisCache;
class TraceDocument;
class ViewState;

// Which what-if the window draws as a ghost under its run: the finding the
// user chose (the findings view's choice), or every fix at once (View >
// What if: all fixes). It asks the document's AnalysisCache to replay it
// and puts the choice into the ViewState, which the timeline and the
// exports draw from.
class WhatIfController : public QObject {
    Q_OBJECT

public:
    WhatIfController(TraceDocument* document, ViewState* view, QObject* parent = nullptr);

    // Checkable; enabled while some run was replayed with fixes to apply.
    QAction* allFixesAction() const { return m_allFixes; }

    // A finding's what-if (run -1 or fixes 0: none).
    void choose(int run, ovs::FixSet fixes);
    // Every fix of `run` (-1: of the run of the what-if shown, else of the
    // first run that has any); false when no run has one.
    bool chooseAllFixes(int run = -1);

signals:
    // Something to tell the user (a replay that could not be made).
    void notice(const QString& text);

private:
    void updateAction();
    void onReady(int run, quint32 fixes);

    TraceDocument* m_document;
    ViewState* m_view;
    AnalysisCache* m_cache;
    QAction* m_allFixes;
};

} // namespace ovs::ui
