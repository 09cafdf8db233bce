#include "symbols/NativeSiteRule.h"

#include <array>

namespace ovs {

namespace {

bool startsWith(std::string_view text, std::string_view prefix)
{
    return text.substr(0, prefix.size()) == prefix;
}

bool contains(std::string_view text, std::string_view part)
{
    return text.find(part) != std::string_view::npos;
}

// The CUDA toolkit wherever it is installed: /usr/local/cuda-13.0,
// /opt/cuda, a conda environment's targets/x86_64-linux.
bool toolkitPath(std::string_view path)
{
    return startsWith(path, "/usr/local/cuda") || startsWith(path, "/opt/cuda") || startsWith(path, "/opt/nvidia/")
           || contains(path, "/targets/x86_64-linux/") || contains(path, "/targets/sbsa-linux/");
}

} // namespace

bool libraryObject(std::string_view path)
{
    constexpr std::array<std::string_view, 9> kSystemFolders = {
        "/usr/lib/", "/usr/lib64/", "/lib/", "/lib64/", "/usr/libexec/", "/usr/bin/", "/bin/", "/usr/sbin/", "/sbin/",
    };
    for (std::string_view folder : kSystemFolders)
        if (startsWith(path, folder))
            return true;
    if (toolkitPath(path) || contains(path, "/site-packages/") || contains(path, "/dist-packages/"))
        return true;
    // By name wherever they are (a conda environment's lib/, a library
    // carried next to the program): CUDA's, ours, the runtimes'.
    const std::size_t slash = path.rfind('/');
    const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
    constexpr std::array<std::string_view, 19> kLibraries = {
        "libcuda.so",   "libcudart",      "libcupti",        "liboverlapscope-inject", "libnvToolsExt",
        "libnvtx",      "libnvrtc",       "libnvidia-",      "libc.so",                "libc-",
        "libstdc++",    "libgcc_s",       "ld-linux",        "libpthread",             "libm.so",
        "libdl.so",     "libunwind",      "libpython",       "python",
    };
    for (std::string_view library : kLibraries)
        if (startsWith(name, library))
            return true;
    return false;
}

bool libraryHeader(std::string_view sourceFile)
{
    return startsWith(sourceFile, "/usr/include/") || startsWith(sourceFile, "/usr/lib/gcc/")
           || startsWith(sourceFile, "/usr/lib/llvm") || startsWith(sourceFile, "/usr/local/include/")
           || toolkitPath(sourceFile);
}

bool cudaRuntimeFunction(std::string_view function)
{
    // The name itself, after any return type of a template ("cudaError
    // cudaMalloc<float>"); the parameters are already gone.
    const std::size_t angle = function.find('<');
    const std::size_t space = function.substr(0, angle).rfind(' ');
    const std::string_view name = space == std::string_view::npos ? function : function.substr(space + 1);
    if (startsWith(name, "cudart::") || startsWith(name, "__cuda") || startsWith(name, "libcudart"))
        return true;
    return name.size() > 4 && startsWith(name, "cuda") && name[4] >= 'A' && name[4] <= 'Z';
}

bool usersFrame(const NativeFrame& frame)
{
    if (!frame.file.empty())
        return !libraryHeader(frame.file);
    return !cudaRuntimeFunction(frame.function);
}

} // namespace ovs
