#include "trace/NativeFrame.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace ovs {

namespace {

bool startsWithAny(std::string_view text, std::initializer_list<std::string_view> prefixes)
{
    return std::any_of(prefixes.begin(), prefixes.end(), [text](std::string_view p) { return text.starts_with(p); });
}

std::string lower(std::string_view text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

} // namespace

std::string nativeFunctionName(std::string_view symbol)
{
    std::string_view t = symbol;
    // GCC's copies of a function: "train(int) [clone .constprop.0]".
    if (const std::size_t clone = t.find(" [clone "); clone != std::string_view::npos)
        t = t.substr(0, clone);
    while (!t.empty() && t.back() == ' ')
        t.remove_suffix(1);
    // Qualifiers after the parameters: "step(int) const", "get() &&".
    for (bool cut = true; cut;) {
        cut = false;
        for (std::string_view q : {" const", " volatile", " &&", " &", " noexcept"})
            if (t.ends_with(q)) {
                t.remove_suffix(q.size());
                cut = true;
            }
    }
    // The parameters: the last ')' back to its '('.
    if (!t.empty() && t.back() == ')') {
        int depth = 0;
        for (std::size_t i = t.size(); i-- > 0;) {
            if (t[i] == ')')
                ++depth;
            else if (t[i] == '(' && --depth == 0) {
                if (i > 0) // "(anonymous namespace)" alone is a name
                    t = t.substr(0, i);
                break;
            }
        }
    }
    // The return type: whatever stands before the last space outside
    // template arguments and parentheses ("cudaError cudaMalloc<double>").
    int depth = 0;
    std::size_t nameBegins = 0;
    for (std::size_t i = 0; i < t.size(); ++i) {
        const char c = t[i];
        if (c == '<' || c == '(')
            ++depth;
        else if ((c == '>' || c == ')') && depth > 0)
            --depth;
        else if (c == ' ' && depth == 0)
            nameBegins = i + 1;
    }
    t = t.substr(nameBegins);
    // The template arguments, wherever they stand in the qualified name.
    std::string name;
    depth = 0;
    for (const char c : t) {
        if (c == '<')
            ++depth;
        else if (c == '>' && depth > 0)
            --depth;
        else if (depth == 0)
            name += c;
    }
    if (name.starts_with("::"))
        name.erase(0, 2);
    return name;
}

bool isLibraryModule(std::string_view module)
{
    if (module.empty() || module.front() == '[') // [vdso], [heap], [unknown]
        return true;
    const std::string path = lower(module);
    if (path.find("/site-packages/") != std::string::npos || path.find("/dist-packages/") != std::string::npos)
        return true;
    // The system's folders, CUDA's toolkit and NVIDIA's HPC SDK, Nsight's own installation.
    if (startsWithAny(path, {"/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/", "/usr/local/cuda", "/opt/nvidia/"}))
        return true;
    if (path.find("nsight-systems") != std::string::npos || path.find("nsight_systems") != std::string::npos)
        return true;
    const std::size_t slash = module.find_last_of('/');
    const std::string_view file = slash == std::string_view::npos ? module : module.substr(slash + 1);
    return startsWithAny(file, {// CUDA and its libraries: libcuda, libcudart, libcupti, libcublas, libcufft,
                                // libcurand, libcusparse, libcusolver, libcudnn; libnvidia-*, libnvrtc,
                                // libnvToolsExt, libnvJitLink; NCCL, NPP; Nsight's injection.
                                "libcu", "libnv", "libnccl", "libnpp", "libToolsInjection",
                                // The C and C++ runtimes, the loader, OpenMP and TBB.
                                "libc.so", "libc-", "libstdc++", "libgcc_s", "libpthread", "libm.so", "libm-",
                                "libdl", "librt", "ld-linux", "ld-", "libgomp", "libomp", "libiomp", "libtbb",
                                // MPI and its transports.
                                "libmpi", "libucp", "libucs", "libuct", "libucm", "libfabric", "libopen-pal",
                                "libopen-rte", "libpmi",
                                // Python and PyTorch built outside site-packages.
                                "libpython", "python2", "python3", "libtorch", "libc10",
                                // The profiler's own, in the profiled process: our injection
                                // library and the unwinder it loads.
                                "liboverlapscope-inject", "libunwind"});
}

bool isCudaFunction(std::string_view symbol)
{
    const std::string name = nativeFunctionName(symbol);
    const auto upperAt = [&name](std::size_t i) {
        return name.size() > i && std::isupper(static_cast<unsigned char>(name[i]));
    };
    if (startsWithAny(name, {"cudart::", "__cuda", "__device_stub"}))
        return true;
    return (name.starts_with("cuda") && upperAt(4)) || (name.starts_with("cu") && upperAt(2));
}

bool isUserNativeFrame(std::string_view symbol, std::string_view module, std::string_view launchedKernel)
{
    // An address for a name ("0x7fd99070283c"): the profiler could not say.
    if (symbol.empty() || symbol.starts_with("0x"))
        return false;
    if (isLibraryModule(module) || isCudaFunction(symbol))
        return false;
    return launchedKernel.empty() || nativeFunctionName(symbol) != nativeFunctionName(launchedKernel);
}

} // namespace ovs
