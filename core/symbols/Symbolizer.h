#pragma once

#include "symbols/NativeFrame.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ovs {

// Addresses of a profiled process's objects, read back as source lines and
// functions after the run, with elfutils' libdw: the line table and the
// inlined functions of an object with debug information (its own, or a
// separate debug file found by build-id or debuglink as libdw finds them),
// else its symbol table's function and the offset into it. Nothing of this
// runs in the profiled program.
class Symbolizer {
public:
    // Whether this build reads objects at all (it was built with libdw);
    // where not, frames() answers nothing.
    static bool available();

    Symbolizer();
    ~Symbolizer();
    Symbolizer(const Symbolizer&) = delete;
    Symbolizer& operator=(const Symbolizer&) = delete;

    // An object to read: before the first frames().
    void addModule(const NativeModule& module);
    // The frames at `address`, the process's address of an instruction (a
    // return address less 1 points into its call), innermost inlined
    // function first; empty where no object that was added holds it.
    std::vector<NativeFrame> frames(std::uint64_t address);
    // Objects that could not be read as they were in the run, in words
    // ("/home/me/app: rebuilt since the run (another build-id)").
    const std::vector<std::string>& problems() const;

private:
    struct State;
    std::unique_ptr<State> m_state;
};

// "ns::Class::method" of a demangled "ns::Class::method(int) const": the
// parameters go (the line says which overload).
std::string withoutParameters(const std::string& demangled);

} // namespace ovs
