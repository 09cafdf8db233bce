#include "cupti/BufferLoss.h"

namespace ovs::cupti {

std::vector<std::string> lossWords(const BufferLoss& loss)
{
    std::vector<std::string> words;
    if (loss.dropped > 0)
        words.push_back("CUPTI dropped " + std::to_string(loss.dropped) + " records (out of activity buffers)");
    if (loss.unreadBuffers > 0)
        words.push_back(std::to_string(loss.unreadBuffers)
                        + (loss.unreadBuffers == 1 ? " CUPTI activity buffer" : " CUPTI activity buffers")
                        + " could not be read to the end"
                        + (loss.firstReadError.empty() ? "" : " (" + loss.firstReadError + ")")
                        + ": their later records are lost");
    return words;
}

} // namespace ovs::cupti
