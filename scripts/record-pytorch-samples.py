#!/usr/bin/env python3
"""Records the small PyTorch profiler (Kineto) traces in tests/data.

Run on a CUDA machine with torch:  python3 scripts/record-pytorch-samples.py OUTDIR
Each trace shows one overlap situation, small enough to keep in the repository:
  pytorch-two-streams-pinned.json   H2D from pinned memory, matmul, D2H on two streams
  pytorch-pageable-sync.json        the same loop from pageable memory (copies stage and block)
  pytorch-train-step.json           a small MLP training loop fed by pageable .cuda() batches
"""
import os
import sys

import torch
from torch.profiler import ProfilerActivity, profile

out = sys.argv[1] if len(sys.argv) > 1 else "."
os.makedirs(out, exist_ok=True)
dev = torch.device("cuda")


def copy_loop(pinned: bool, chunks: int = 6):
    streams = [torch.cuda.Stream() for _ in range(2)]
    host = [torch.randn(1 << 20) for _ in range(chunks)]  # 4 MiB each
    if pinned:
        host = [h.pin_memory() for h in host]
    results = [torch.empty(1024, 1024, pin_memory=pinned) for _ in range(chunks)]
    w = torch.randn(1024, 1024, device=dev)

    def body():
        for i, h in enumerate(host):
            with torch.cuda.stream(streams[i % 2]):
                d = h.to(dev, non_blocking=True)
                m = d.view(1024, 1024) @ w
                results[i].copy_(m, non_blocking=True)
        torch.cuda.synchronize()

    return body


def train_loop(steps: int = 4):
    model = torch.nn.Sequential(torch.nn.Linear(512, 1024), torch.nn.ReLU(), torch.nn.Linear(1024, 10)).to(dev)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    batches = [(torch.randn(256, 512), torch.randint(0, 10, (256,))) for _ in range(steps)]

    def body():
        for x, y in batches:
            x, y = x.cuda(), y.cuda()  # pageable, synchronous
            loss = torch.nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            loss.item()  # host sync every step
        torch.cuda.synchronize()

    return body


cases = {
    "pytorch-two-streams-pinned.json": copy_loop(True),
    "pytorch-pageable-sync.json": copy_loop(False),
    "pytorch-train-step.json": train_loop(),
}
for name, body in cases.items():
    body()  # warm-up: cuBLAS handles, allocator, lazy module loading
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        body()
    path = os.path.join(out, name)
    prof.export_chrome_trace(path)
    print(f"{path}: {os.path.getsize(path)} bytes")
print("torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.get_device_name(0))
