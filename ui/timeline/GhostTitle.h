#pragma once

#include "models/WhatIfGhost.h"

#include "replay/Fix.h"

#include <QString>

namespace ovs::ui {

// The title row of a what-if ghost: the fixes, the replayed span against
// the replay of the run as it was (the measured span beside it), and the
// saving, which is the finding's cost: "what if: pin host memory — replay
// 6.10 ms vs 262 ms unchanged (measured 262 ms): saves 256 ms (97.7%)".
QString ghostTitle(FixSet fixes, const WhatIfGhost& ghost);

} // namespace ovs::ui
