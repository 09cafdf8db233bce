#pragma once

#include "lessons/Lesson.h"

// The lesson definitions, one function each, grouped by theme in
// TransferLessons.cpp, StreamLessons.cpp and PipelineShapeLessons.cpp;
// LessonCatalog.cpp puts them in course order. Internal to core/lessons.
namespace ovs::lessonkit {

Lesson pageableVsPinned();
Lesson pageableAsyncBlocks();
Lesson oneVsSeveralStreams();
Lesson stagingThreads();
Lesson issueOrder();
Lesson legacyDefaultStream();
Lesson allocationInLoop();
Lesson chunkSize();
Lesson copyVsCompute();
Lesson bothDirections();

} // namespace ovs::lessonkit
