#include "symbols/NativeSiteRule.h"

#include "trace/NativeFrame.h"

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
    // The one rule for a native frame's module (trace/NativeFrame.h, which
    // Nsight's call chains use too), and the folders where only programs
    // and the toolkit live.
    if (isLibraryModule(path) || toolkitPath(path))
        return true;
    constexpr std::array<std::string_view, 5> kProgramFolders = {"/usr/libexec/", "/usr/bin/", "/bin/", "/usr/sbin/",
                                                                 "/sbin/"};
    for (std::string_view folder : kProgramFolders)
        if (startsWith(path, folder))
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
    return isCudaFunction(function);
}

bool usersFrame(const NativeFrame& frame)
{
    if (!frame.file.empty())
        return !libraryHeader(frame.file);
    return !cudaRuntimeFunction(frame.function);
}

} // namespace ovs
