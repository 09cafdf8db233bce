#pragma once

#include "trace/Run.h"

#include <vector>

namespace ovs {

// Gives each region its nesting depth on its lane (0 outermost: a region
// inside another's span on the same lane is one deeper) and sorts them by
// (begin, depth), as Run::regions keeps them. Push/pop ranges nest by
// construction; a start/end range that overlaps another without nesting
// sits one below it, as it would on a timeline's stack.
void nestRegions(std::vector<Region>& regions);

} // namespace ovs
