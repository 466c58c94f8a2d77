"""Whether a job runs on a CUDA device: one rule for the engine's per-job setup (threads, matmul precision) and
for the tasks that place a model themselves (an inflection ensemble decodes without a Trainer)."""
from __future__ import annotations

import os

import torch
from omegaconf import DictConfig, OmegaConf


def on_cuda(cfg: DictConfig) -> bool:
    """A CUDA device is there and ``trainer.accelerator`` lets the job use it (``auto``, ``gpu`` or ``cuda``)."""
    accelerator = str(OmegaConf.select(cfg, "trainer.accelerator", default="auto"))
    return torch.cuda.is_available() and accelerator in ("auto", "gpu", "cuda")


def job_device(cfg: DictConfig) -> torch.device:
    """Where this process's model runs: on a CUDA job the GPU of its local rank (the index Lightning gives it:
    ``LOCAL_RANK``, or ``SLURM_LOCALID`` under a multi-task SLURM launch; 0 otherwise), else the CPU."""
    if not on_cuda(cfg):
        return torch.device("cpu")
    env = os.environ
    if env.get("LOCAL_RANK", "").isdigit():
        return torch.device("cuda", int(env["LOCAL_RANK"]))
    if env.get("SLURM_LOCALID", "").isdigit() and int(env.get("SLURM_NTASKS", "1") or 1) > 1:
        return torch.device("cuda", int(env["SLURM_LOCALID"]))
    return torch.device("cuda", 0)


def set_matmul_precision(cfg: DictConfig) -> None:
    """``engine.float32_matmul_precision`` for CUDA matmuls (TF32 for "high"; default "highest"): one rule for a
    training job and for the benchmarks that time its model. CPU matmuls do not read it."""
    torch.set_float32_matmul_precision(str(OmegaConf.select(cfg, "engine.float32_matmul_precision",
                                                            default="highest")))


# CPU features whose presence changes which kernels MKL, oneDNN, ATen and inductor pick for float32 work
_KERNEL_FLAGS = ("avx2", "fma", "avx512f", "avx512_vnni", "avx512_bf16", "avx512_fp16", "amx_tile")


def cpu_kernel(inductor: bool = True) -> str:
    """The CPU kernels this process's float32 arithmetic runs on, as one comparable string.

    Two machines with the same string run the same code paths (torch version, ATen's vector width, inductor's
    vector ISA, the CPU features MKL and oneDNN dispatch on), so a 1-thread training run reproduces bit for bit;
    with another string the sums are taken in another order. Training amplifies that rounding into discrete
    changes (one attended position, one decoded character), so no tolerance is guaranteed between them.
    ``inductor=False`` leaves out inductor's vector ISA, whose probe compiles C++ (a job record takes this cheap
    form: the ISA follows from the CPU features and the compiler).
    """
    isa = "not probed"
    try:
        if inductor:           # importing inductor alone costs seconds
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
