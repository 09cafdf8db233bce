#pragma once

#include <QString>
#include <QStringList>

namespace ovs::ui {

// Opens a finding's call site (Finding::sources) where the user edits code:
// the editor $VISUAL names, else $EDITOR's, at the line; with neither set,
// the desktop's handler for the file (which takes no line). Only a file
// that exists on this machine: a trace recorded elsewhere names paths of
// that machine. docs/gui.md, "Call sites".

// The program and arguments that open `file` at `line` in `editor` (the
// variable's text, which may carry arguments: "code --wait"): each editor's
// own way of taking a line ("code -g FILE:LINE", "kate -l LINE FILE",
// "subl FILE:LINE", else the "+LINE FILE" of vi, Emacs, nano and their
// kind). Empty for an empty editor.
QStringList editorCommand(const QString& editor, const QString& file, int line);

// Opens it; false, with why in `why`, where the file is not here or
// nothing could be started.
bool openSource(const QString& file, int line, QString* why = nullptr);

} // namespace ovs::ui
