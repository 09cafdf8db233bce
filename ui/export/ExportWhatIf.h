#pragma once

#include <QString>

namespace ovs::ui {

class TraceDocument;
class ViewState;

// `overlapscope export --what-if ID|all`: the what-if to draw as a ghost in
// a headless export. ID is a finding's kind id as `analyze --json` prints
// it (core's kindId, "pageable-memory"; a combined finding's parts joined
// with '+'); "all" is every fix at once. The first run that has it
// costed by the replay gets its ghost: the document's AnalysisCache analyses
// and replays it (waiting for it: there is no window to keep responsive)
// and the view's what-if is set. False, with the reason, when the ID is
// unknown or no run has it replayed.
bool chooseExportWhatIf(TraceDocument& document, ViewState& view, const QString& id, QString* error);
// Whether `id` is one chooseExportWhatIf knows, before any trace is read;
// false with the ids that are.
bool isExportWhatIfId(const QString& id, QString* error);

} // namespace ovs::ui
