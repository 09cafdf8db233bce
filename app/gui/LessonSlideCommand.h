#pragma once

#include <QStringList>

// `overlapscope export --lesson NAME -o DIR ...`: runs a lesson headless and
// writes its numbered slides (ui/export/LessonSlides) and DIR/index.md.
// Returns the exit status.
int exportLessonSlides(const QStringList& args);
