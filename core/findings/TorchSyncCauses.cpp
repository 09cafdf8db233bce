#include "findings/TorchSyncCauses.h"

#include "trace/ApiNames.h"
#include "trace/PythonFrame.h"


namespace ovs {

namespace {

bool oneOf(std::string_view text, std::initializer_list<std::string_view> options)
{
    for (std::string_view o : options)
        if (text == o)
            return true;
    return false;
}

// A torch frame's function where the frame is in torch's own files
// ("/.../torch/cuda/__init__.py(954): synchronize" -> "synchronize" in "cuda/__init__.py").
bool isTorchFunction(std::string_view called, std::string_view fileEnd, std::initializer_list<std::string_view> functions)
{
    const PythonFrame frame = parsePythonFrame(called);
    return frame.site && frame.site->file.ends_with(fileEnd) && oneOf(frame.site->function, functions);
}

} // namespace

TorchSyncCause torchSyncCause(const TorchCallFacts& f)
{
    // What the user's line called tells apart what the aten op cannot:
    // .tolist() and print reach the same copies and .item()s.
    if (f.called.starts_with("<built-in method tolist"))
        return TorchSyncCause::ToList;
    if (f.called == "<built-in function print>"
        || isTorchFunction(f.called, "torch/_tensor.py", {"__repr__", "__format__", "__str__"}))
        return TorchSyncCause::Print;
    if (isTorchFunction(f.called, "torch/cuda/__init__.py", {"synchronize"})
        || (f.atenOp.empty() && apiRole(apiDisplayName(f.apiCall)) == ApiRole::DeviceSync))
        return TorchSyncCause::CudaSynchronize;
    if (oneOf(f.atenOp, {"aten::item", "aten::_local_scalar_dense", "aten::is_nonzero"})
        || f.called.starts_with("<built-in method item"))
        return TorchSyncCause::Item;
    if (oneOf(f.atenOp, {"aten::nonzero", "aten::nonzero_numpy", "aten::argwhere", "aten::masked_select"}))
        return TorchSyncCause::DataDependentShape;
    if (oneOf(f.atenOp, {"aten::to", "aten::_to_copy", "aten::copy_"})) {
        // A copy into pageable memory returns only when done; into pinned
        // memory it waits only where PyTorch synchronizes after it
        // (non_blocking=False).
        const bool synchronizes = apiSynchronizesHost(apiRole(apiDisplayName(f.apiCall)));
        if (f.download && (f.pageableHost || synchronizes))
            return TorchSyncCause::ToHost;
        if (f.upload && f.pageableHost)
            return TorchSyncCause::PageableCopy;
    }
    return TorchSyncCause::None;
}

const char* torchCauseWords(TorchSyncCause cause)
{
    switch (cause) {
    case TorchSyncCause::None: return "";
    case TorchSyncCause::Item: return ".item() (a Python number from a CUDA tensor)";
    case TorchSyncCause::ToList: return ".tolist()";
    case TorchSyncCause::Print: return "print of a CUDA tensor";
    case TorchSyncCause::ToHost: return ".cpu() / .to(\"cpu\") without non_blocking";
    case TorchSyncCause::DataDependentShape:
        return "a data-dependent shape (boolean-mask indexing, torch.nonzero, masked_select)";
    case TorchSyncCause::CudaSynchronize: return "torch.cuda.synchronize()";
    case TorchSyncCause::PageableCopy: return ".to(\"cuda\") of a tensor in pageable memory";
    }
    return "";
}

const char* torchCauseFix(TorchSyncCause cause)
{
    switch (cause) {
    case TorchSyncCause::None: return "";
    case TorchSyncCause::Item:
    case TorchSyncCause::ToList:
        return "keep the values on the GPU (add them into a tensor) and read them once per step";
    case TorchSyncCause::Print: return "print values read once per step, not the CUDA tensor on every pass";
    case TorchSyncCause::ToHost:
        return "keep it on the GPU until the host needs it; then copy with non_blocking=True into a pinned tensor "
               "and wait on a CUDA event just before use";
    case TorchSyncCause::DataDependentShape:
        return "torch.where (or multiplying by the mask) keeps the shape fixed, so the host need not wait for the count";
    case TorchSyncCause::CudaSynchronize:
        return "synchronize only where the host reads results; time with torch.cuda.Event rather than synchronizing "
               "each step";
    case TorchSyncCause::PageableCopy:
        return "pin_memory=True in the DataLoader (or .pin_memory() once), then .to(\"cuda\", non_blocking=True): "
               "non_blocking from pageable memory blocks anyway";
    }
    return "";
}

} // namespace ovs
