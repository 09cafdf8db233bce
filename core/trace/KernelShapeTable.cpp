#include "trace/KernelShapeTable.h"

namespace ovs {

std::uint32_t KernelShapeTable::add(const KernelShape& shape)
{
    if (!shape.valid())
        return 0;
    const auto [it, added] = m_ids.emplace(shape, static_cast<std::uint32_t>(m_shapes.size() + 1));
    if (added)
        m_shapes.push_back(shape);
    return it->second;
}

} // namespace ovs
