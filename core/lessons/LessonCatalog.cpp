#include "lessons/LessonCatalog.h"

namespace ovs {

const std::vector<Lesson>& lessons()
{
    static const std::vector<Lesson> all = [] {
        using namespace lessonkit;
        std::vector<Lesson> list = {pageableVsPinned(), pageableAsyncBlocks(), oneVsSeveralStreams(),
                                    stagingThreads(),   issueOrder(),          legacyDefaultStream(),
                                    allocationInLoop(), chunkSize(),           copyVsCompute(),
                                    bothDirections()};
        for (std::size_t i = 0; i < list.size(); ++i)
            list[i].number = static_cast<int>(i) + 1;
        return list;
    }();
    return all;
}

} // namespace ovs
