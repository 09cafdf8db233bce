#pragma once

#include "trace/KernelShape.h"

#include <cstdint>
#include <map>
#include <vector>

namespace ovs {

// The distinct launch shapes of a run as importers meet them: a program
// launches the same few shapes thousands of times, so a run keeps each once
// (Run::kernelShapes) and its ops an id (Run::opShapes).
class KernelShapeTable {
public:
    // The shape's id, 1 + its index in shapes(); 0 (no shape) for one that
    // is not valid().
    std::uint32_t add(const KernelShape& shape);
    const std::vector<KernelShape>& shapes() const { return m_shapes; }
    bool empty() const { return m_shapes.empty(); }

private:
    std::map<KernelShape, std::uint32_t> m_ids;
    std::vector<KernelShape> m_shapes;
};

} // namespace ovs
