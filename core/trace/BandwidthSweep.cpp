#include "trace/BandwidthSweep.h"

#include <algorithm>

namespace ovs {

double medianOf(std::vector<double> samples)
{
    if (samples.empty())
        return 0;
    std::sort(samples.begin(), samples.end());
    return samples[samples.size() / 2];
}

} // namespace ovs
