#pragma once

#include <string_view>

namespace ovs {

// The PyTorch call behind a CUDA call that makes the host wait (or copy
// through the driver's staging), told by what encloses it in a Kineto trace:
// the aten op and what the user's line called (OpSource). Each has the words
// a PyTorch user knows it by and a fix they act on (docs/profiling.md,
// "PyTorch's implicit synchronizations"). For PyTorch runs only: a device
// synchronize outside any aten op is torch.cuda.synchronize() there, and
// anything in a C++ program.
enum class TorchSyncCause : unsigned char {
    None,
    Item,              // .item(), float(t), `if t:`: aten::item / aten::_local_scalar_dense / aten::is_nonzero
    ToList,            // .tolist()
    Print,             // print (or format) of a CUDA tensor
    ToHost,            // .cpu() / .to("cpu") without non_blocking: a copy to the host that waits (into
                       // pageable memory, or followed by a synchronize); non_blocking into pinned memory is none
    DataDependentShape, // boolean-mask indexing, torch.nonzero, masked_select: aten::nonzero reads the count back
    CudaSynchronize,   // torch.cuda.synchronize(): cudaDeviceSynchronize with no aten op around it
    PageableCopy,      // .to("cuda") / .cuda() of a tensor in pageable memory: blocks even with non_blocking=True
};

struct TorchCallFacts {
    std::string_view atenOp;  // the innermost enclosing aten op, "" none
    std::string_view called;  // what the user's line called (OpSource::called), "" unknown
    std::string_view apiCall; // the CUDA call's name
    bool download = false;     // the aten op's copy goes device to host
    bool upload = false;       // ... host to device
    bool pageableHost = false; // its host side is pageable memory
};

TorchSyncCause torchSyncCause(const TorchCallFacts& facts);
// ".item()", "torch.cuda.synchronize()", ...; "" for None.
const char* torchCauseWords(TorchSyncCause cause);
// What to change, in a PyTorch user's words; "" for None.
const char* torchCauseFix(TorchSyncCause cause);

} // namespace ovs
