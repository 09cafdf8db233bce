#include "style/OpStyle.h"

#include <array>

namespace ovs::ui {

QColor opColor(OpKind kind)
{
    // Copies in the two directions are green and red as in Nsight Systems,
    // kernels blue; host work in warm and grey tones so it reads as "not GPU".
    // Tuned so every pair stays apart (CIE76 >= 20) in normal vision and
    // under simulated deuteranopia and protanopia: see ColorVision and the
    // table in docs/gui.md (`overlapscope palette-check`).
    switch (kind) {
    case OpKind::Upload: return QColor(0x2e, 0x9d, 0x4a);
    case OpKind::Kernel: return QColor(0x1e, 0x6f, 0xd9);
    case OpKind::Download: return QColor(0xb8, 0x2d, 0x19);
    case OpKind::StageIn: return QColor(0xff, 0xb9, 0x26);
    case OpKind::StageOut: return QColor(0xd5, 0x83, 0x1a);
    case OpKind::HostWait: return QColor(0xb8, 0xbd, 0xbb);
    case OpKind::Alloc: return QColor(0x6a, 0x2b, 0x8c);
    case OpKind::Free: return QColor(0x9a, 0x8c, 0xd2);
    case OpKind::Sync: return QColor(0x58, 0x49, 0x3c);
    case OpKind::Register: return QColor(0x35, 0x9b, 0x78);
    case OpKind::Memset: return QColor(0xb1, 0xcc, 0xf0);
    case OpKind::DeviceCopy: return QColor(0x46, 0x84, 0x92);
    case OpKind::ApiCall: return QColor(0xf2, 0xcc, 0x68);
    // Peer copies (GPU to GPU): violet, apart from both host-link directions and
    // from device copies under simulated deuteranopia (teal and magenta are not:
    // the first pink, 0xd94fb0, came within ΔE 8.9 of the device copy and 12.7
    // of the light theme's magenta playhead; tst_lane_rows checks both).
    case OpKind::PeerCopy: return QColor(0x99, 0x00, 0xff);
    // Unified-memory migrations and faults: dark plum, the colour farthest
    // (CIE76 >= 28 in all three visions) from the fourteen above that keeps
    // 40 from both themes' lane backgrounds.
    case OpKind::UnifiedMemory: return QColor(0x50, 0x00, 0x40);
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
    case OpKind::PeerCopy: return QStringLiteral("Peer copy (GPU to GPU)");
    case OpKind::UnifiedMemory: return QStringLiteral("Unified memory (migration, page fault)");
    }
    return QStringLiteral("?");
}

const std::array<OpKind, kOpKindCount>& legendOrder()
{
    static const std::array<OpKind, kOpKindCount> order = {
        OpKind::Upload, OpKind::Kernel,   OpKind::Download, OpKind::StageIn, OpKind::StageOut,
        OpKind::HostWait, OpKind::Alloc, OpKind::Free,     OpKind::Sync,    OpKind::Register,
        OpKind::Memset,   OpKind::DeviceCopy, OpKind::ApiCall, OpKind::PeerCopy, OpKind::UnifiedMemory,
    };
    return order;
}

} // namespace ovs::ui
