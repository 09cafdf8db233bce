#include "style/OpStyle.h"

#include <array>

namespace ovs::ui {

QColor opColor(OpKind kind)
{
    // Copies in the two directions are green and red as in Nsight Systems,
    // kernels blue; host work in warm and grey tones so it reads as "not GPU".
    switch (kind) {
    case OpKind::Upload: return QColor(0x2e, 0x9d, 0x4a);
    case OpKind::Kernel: return QColor(0x1e, 0x6f, 0xd9);
    case OpKind::Download: return QColor(0xd6, 0x3b, 0x3b);
    case OpKind::StageIn: return QColor(0xf0, 0x9a, 0x1a);
    case OpKind::StageOut: return QColor(0xb8, 0x6b, 0x1f);
    case OpKind::HostWait: return QColor(0xa8, 0xa8, 0xa8);
    case OpKind::Alloc: return QColor(0x8e, 0x44, 0xad);
    case OpKind::Free: return QColor(0xc3, 0x9b, 0xd3);
    case OpKind::Sync: return QColor(0x5d, 0x5d, 0x5d);
    case OpKind::Register: return QColor(0x16, 0xa0, 0x85);
    case OpKind::Memset: return QColor(0x7f, 0xb3, 0xd5);
    case OpKind::DeviceCopy: return QColor(0x0e, 0x8c, 0x8c);
    case OpKind::ApiCall: return QColor(0xc9, 0xb0, 0x37);
    }
    return Qt::black;
}

QString opKindLabel(OpKind kind)
{
    switch (kind) {
    case OpKind::Upload: return QStringLiteral("Upload (HtoD)");
    case OpKind::Kernel: return QStringLiteral("Kernel");
    case OpKind::Download: return QStringLiteral("Download (DtoH)");
    case OpKind::StageIn: return QStringLiteral("Stage in (host memcpy)");
    case OpKind::StageOut: return QStringLiteral("Stage out (host memcpy)");
    case OpKind::HostWait: return QStringLiteral("Host wait");
    case OpKind::Alloc: return QStringLiteral("Allocate");
    case OpKind::Free: return QStringLiteral("Free");
    case OpKind::Sync: return QStringLiteral("Synchronize");
    case OpKind::Register: return QStringLiteral("Register host memory");
    case OpKind::Memset: return QStringLiteral("Memset");
    case OpKind::DeviceCopy: return QStringLiteral("Device copy (DtoD)");
    case OpKind::ApiCall: return QStringLiteral("CUDA API call");
    }
    return QStringLiteral("?");
}

const std::array<OpKind, kOpKindCount>& legendOrder()
{
    static const std::array<OpKind, kOpKindCount> order = {
        OpKind::Upload, OpKind::Kernel,   OpKind::Download, OpKind::StageIn, OpKind::StageOut,
        OpKind::HostWait, OpKind::Alloc, OpKind::Free,     OpKind::Sync,    OpKind::Register,
        OpKind::Memset,   OpKind::DeviceCopy, OpKind::ApiCall,
    };
    return order;
}

} // namespace ovs::ui
