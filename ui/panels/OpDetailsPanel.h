#pragma once

#include "document/ViewState.h"

#include <QPointer>
#include <QString>
#include <QWidget>

#include <utility>
#include <vector>

class QLabel;

namespace ovs::ui {

class TraceDocument;

// Everything recorded about the op selected in the timeline: what it was,
// where it ran, when, how many bytes at what rate, and (where the engine's
// own interval is known) how long it queued before it ran.
class OpDetailsPanel : public QWidget {
    Q_OBJECT

public:
    OpDetailsPanel(TraceDocument* document, ViewState* view, QWidget* parent = nullptr);

    // What the panel shows, as plain "Name: value" lines, or the hint when
    // nothing is selected.
    QString detailsText() const;

private:
    void refresh();
    // (name, value) rows for the selection; empty when it names no op.
    std::vector<std::pair<QString, QString>> rows() const;

    QPointer<TraceDocument> m_document;
    QPointer<ViewState> m_view;
    QLabel* m_label;
    QString m_text;
};

} // namespace ovs::ui
