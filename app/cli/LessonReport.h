#pragma once

#include "lessons/LessonRunner.h"

#include <cstdio>

namespace ovs::cli {

// `lesson --list`: number, id and title of every lesson.
void printLessonList(std::FILE* out);
// The lesson before it runs: title, explanation, the question and its choices.
void printLessonIntro(std::FILE* out, const Lesson& lesson, const DeviceInfo& device);
// After it ran: the runs' table, the sweeps, what to look at, the answer,
// the checks and the takeaway (or why it was not judged).
void printLessonResult(std::FILE* out, const Lesson& lesson, const LessonResult& result);
// The runs' table alone as Markdown, one row per step (docs/lessons.md).
void printLessonMarkdown(std::FILE* out, const Lesson& lesson, const LessonResult& result);

} // namespace ovs::cli
