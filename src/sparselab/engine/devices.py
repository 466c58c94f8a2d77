"""Whether a job runs on a CUDA device: one rule for the engine's per-job setup (threads, matmul precision) and
for the tasks that place a model themselves (an inflection ensemble decodes without a Trainer)."""
from __future__ import annotations

import torch
from omegaconf import DictConfig, OmegaConf


def on_cuda(cfg: DictConfig) -> bool:
    """A CUDA device is there and ``trainer.accelerator`` lets the job use it (``auto``, ``gpu`` or ``cuda``)."""
    accelerator = str(OmegaConf.select(cfg, "trainer.accelerator", default="auto"))
    return torch.cuda.is_available() and accelerator in ("auto", "gpu", "cuda")


# CPU features whose presence changes which kernels MKL, oneDNN, ATen and inductor pick for float32 work
_KERNEL_FLAGS = ("avx2", "fma", "avx512f", "avx512_vnni", "avx512_bf16", "avx512_fp16", "amx_tile")


def cpu_kernel() -> str:
    """The CPU kernels this process's float32 arithmetic runs on, as one comparable string.

    Two machines with the same string run the same code paths (torch version, ATen's vector width, inductor's
    vector ISA, the CPU features MKL and oneDNN dispatch on), so a 1-thread training run reproduces bit for bit;
    with another string the sums are taken in another order. Training amplifies that rounding into discrete
    changes (one attended position, one decoded character), so no tolerance is guaranteed between them.
    """
    try:
        from torch._inductor import cpu_vec_isa
        isa = str(cpu_vec_isa.pick_vec_isa()) or "none"
    except Exception:          # inductor missing or unable to probe the compiler: the ATen width still counts
        isa = "unknown"
    try:
        words = next((ln.split(":", 1)[1].split() for ln in open("/proc/cpuinfo") if ln.startswith("flags")), [])
    except OSError:
        words = []
    flags = "+".join(f for f in _KERNEL_FLAGS if f in words) or "unknown"
    return f"torch {torch.__version__}; aten {torch.backends.cpu.get_cpu_capability()}; inductor {isa}; cpu {flags}"
