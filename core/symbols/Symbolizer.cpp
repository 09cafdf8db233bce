#include "symbols/Symbolizer.h"

#include <cxxabi.h>

#include <cstdlib>
#include <cstring>
#include <map>

#if OVERLAPSCOPE_HAVE_STACKS
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#endif

namespace ovs {

std::string withoutParameters(const std::string& demangled)
{
    // The first '(' outside template arguments that is not part of
    // "operator()" opens the parameters.
    int depth = 0;
    for (std::size_t i = 0; i < demangled.size(); ++i) {
        const char c = demangled[i];
        if (c == '<')
            ++depth;
        else if (c == '>' && depth > 0)
            --depth;
        else if (c == '(' && depth == 0) {
            if (i >= 8 && demangled.compare(i - 8, 8, "operator") == 0 && i + 1 < demangled.size()
                && demangled[i + 1] == ')') {
                ++i;
                continue;
            }
            // "(anonymous namespace)::f" is a name, not parameters.
            if (demangled.compare(i, 21, "(anonymous namespace)") == 0) {
                i += 20;
                continue;
            }
            return demangled.substr(0, i);
        }
    }
    return demangled;
}

#if OVERLAPSCOPE_HAVE_STACKS

namespace {

std::string demangled(const char* name)
{
    if (!name)
        return {};
    int status = 0;
    char* text = abi::__cxa_demangle(name, nullptr, nullptr, &status);
    if (status != 0 || !text)
        return name;
    std::string out = withoutParameters(text);
    std::free(text);
    return out;
}

} // namespace

struct Symbolizer::State {
    Dwfl_Callbacks callbacks{};
    char* debuginfoPath = nullptr;
    Dwfl* dwfl = nullptr;
    std::vector<NativeModule> pending;
    bool reported = false;
    std::vector<std::string> problems;
    std::map<Dwfl_Module*, bool> usable; // build-id checked
    std::map<Dwfl_Module*, std::string> buildIds;

    State()
    {
        callbacks.find_elf = dwfl_build_id_find_elf;
        callbacks.find_debuginfo = dwfl_standard_find_debuginfo;
        callbacks.section_address = dwfl_offline_section_address;
        callbacks.debuginfo_path = &debuginfoPath;
        dwfl = dwfl_begin(&callbacks);
    }
    ~State()
    {
        if (dwfl)
            dwfl_end(dwfl);
    }

    void report()
    {
        reported = true;
        if (!dwfl)
            return;
        dwfl_report_begin(dwfl);
        for (const NativeModule& m : pending) {
            // add_p_vaddr: the base given is the load bias (libdwfl.h).
            Dwfl_Module* module = dwfl_report_elf(dwfl, m.path.c_str(), m.path.c_str(), -1, m.loadBias, true);
            if (!module) {
                problems.push_back(m.path + ": not read (" + dwfl_errmsg(-1) + ")");
                continue;
            }
            buildIds[module] = m.buildId;
        }
        dwfl_report_end(dwfl, nullptr, nullptr);
        pending.clear();
    }

    // The object's file is the one that ran: the same build-id, where the run said one.
    bool checked(Dwfl_Module* module)
    {
        const auto known = usable.find(module);
        if (known != usable.end())
            return known->second;
        bool ok = true;
        const std::string& expected = buildIds[module];
        const unsigned char* bits = nullptr;
        GElf_Addr vaddr = 0;
        const int bytes = dwfl_module_build_id(module, &bits, &vaddr);
        if (!expected.empty() && bytes > 0) {
            const std::size_t compared = std::min<std::size_t>(expected.size(), static_cast<std::size_t>(bytes));
            ok = std::memcmp(expected.data(), bits, compared) == 0;
        }
        if (!ok) {
            const char* name = dwfl_module_info(module, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
            problems.push_back(std::string(name ? name : "an object") + ": rebuilt since the run (another build-id): "
                               "its frames are not read");
        }
        usable[module] = ok;
        return ok;
    }
};

bool Symbolizer::available()
{
    return true;
}

Symbolizer::Symbolizer() : m_state(std::make_unique<State>()) {}
Symbolizer::~Symbolizer() = default;

void Symbolizer::addModule(const NativeModule& module)
{
    m_state->pending.push_back(module);
}

const std::vector<std::string>& Symbolizer::problems() const
{
    return m_state->problems;
}

namespace {

// A function's name from its DIE: the linkage name demangled, else its own.
std::string dieFunction(Dwarf_Die* die)
{
    Dwarf_Attribute attr;
    for (int name : {DW_AT_linkage_name, DW_AT_MIPS_linkage_name})
        if (dwarf_attr_integrate(die, name, &attr))
            if (const char* text = dwarf_formstring(&attr))
                return demangled(text);
    if (dwarf_attr_integrate(die, DW_AT_name, &attr))
        if (const char* text = dwarf_formstring(&attr))
            return text;
    return {};
}

} // namespace

std::vector<NativeFrame> Symbolizer::frames(std::uint64_t address)
{
    State& s = *m_state;
    if (!s.reported)
        s.report();
    std::vector<NativeFrame> out;
    if (!s.dwfl)
        return out;
    Dwfl_Module* module = dwfl_addrmodule(s.dwfl, address);
    if (!module || !s.checked(module))
        return out;
    NativeFrame innermost;
    // The symbol table's function, for frames without debug information.
    GElf_Off offset = 0;
    GElf_Sym symbol;
    if (const char* name = dwfl_module_addrinfo(module, address, &offset, &symbol, nullptr, nullptr, nullptr)) {
        innermost.function = demangled(name);
        innermost.functionOffset = offset;
    }
    Dwarf_Addr bias = 0;
    dwfl_module_getelf(module, &bias);
    innermost.fileOffset = address - bias;
    if (Dwfl_Line* line = dwfl_module_getsrc(module, address)) {
        int lineNumber = 0;
        if (const char* file = dwfl_lineinfo(line, nullptr, &lineNumber, nullptr, nullptr, nullptr)) {
            innermost.file = file;
            innermost.line = static_cast<std::uint32_t>(std::max(0, lineNumber));
        }
    }

    // The inlined functions around the address, innermost first: each
    // inlined call's own place is where the next frame out is.
    Dwarf_Addr dieBias = 0;
    Dwarf_Die* cu = dwfl_module_addrdie(module, address, &dieBias);
    Dwarf_Die* scopes = nullptr;
    const int scopeCount = cu ? dwarf_getscopes(cu, address - dieBias, &scopes) : 0;
    Dwarf_Files* files = nullptr;
    std::size_t fileCount = 0;
    if (cu && dwarf_getsrcfiles(cu, &files, &fileCount) != 0)
        files = nullptr;
    NativeFrame frame = innermost;
    for (int i = 0; i < scopeCount; ++i) {
        Dwarf_Die* scope = &scopes[i];
        const int tag = dwarf_tag(scope);
        if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram)
            continue;
        if (const std::string name = dieFunction(scope); !name.empty())
            frame.function = name;
        if (tag == DW_TAG_subprogram)
            break;
        out.push_back(frame);
        // The caller's frame: at the inlined call's file and line.
        NativeFrame caller;
        caller.fileOffset = innermost.fileOffset;
        Dwarf_Attribute attr;
        Dwarf_Word value = 0;
        if (files && dwarf_formudata(dwarf_attr(scope, DW_AT_call_file, &attr), &value) == 0)
            if (const char* file = dwarf_filesrc(files, value, nullptr, nullptr))
                caller.file = file;
        if (dwarf_formudata(dwarf_attr(scope, DW_AT_call_line, &attr), &value) == 0)
            caller.line = static_cast<std::uint32_t>(value);
        caller.function = innermost.function; // until an outer scope names it
        frame = caller;
    }
    std::free(scopes);
    out.push_back(frame);
    return out;
}

#else

struct Symbolizer::State {
    std::vector<std::string> problems;
};

bool Symbolizer::available()
{
    return false;
}

Symbolizer::Symbolizer() : m_state(std::make_unique<State>()) {}
Symbolizer::~Symbolizer() = default;

void Symbolizer::addModule(const NativeModule&) {}

std::vector<NativeFrame> Symbolizer::frames(std::uint64_t)
{
    return {};
}

const std::vector<std::string>& Symbolizer::problems() const
{
    return m_state->problems;
}

#endif

} // namespace ovs
