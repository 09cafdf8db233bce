#include "device/DeviceTypes.h"

namespace ovs {

const char* toString(CopyDirection direction)
{
    return direction == CopyDirection::HostToDevice ? "HtoD" : "DtoH";
}

} // namespace ovs
