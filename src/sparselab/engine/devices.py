"""Whether a job runs on a CUDA device: one rule for the engine's per-job setup (threads, matmul precision) and
for the tasks that place a model themselves (an inflection ensemble decodes without a Trainer)."""
from __future__ import annotations

import torch
from omegaconf import DictConfig, OmegaConf


def on_cuda(cfg: DictConfig) -> bool:
    """A CUDA device is there and ``trainer.accelerator`` lets the job use it (``auto``, ``gpu`` or ``cuda``)."""
    accelerator = str(OmegaConf.select(cfg, "trainer.accelerator", default="auto"))
    return torch.cuda.is_available() and accelerator in ("auto", "gpu", "cuda")
