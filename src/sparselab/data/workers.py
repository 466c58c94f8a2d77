"""DataLoader worker processes and pinned host memory, from the run's settings (``engine.loader_workers``,
``engine.pin_memory``; the ``paper`` profile turns both on).

Workers only collate (pad index lists into tensors): the datasets are tensors in memory already, so they
matter on a GPU, where the step is short, and not on our 1-thread CPU jobs. Pinned memory is asked for only
when a CUDA device is there (pinning without one is an error in torch). Neither changes a number: the batch
samplers run in the main process, and :class:`sparselab.data.resumable.ResumableLoader` counts the batches
the training loop received, not those the workers drew ahead.
"""
from __future__ import annotations

import torch

from sparselab.errors import ConfigError


def loader_options(workers: int = 0, pin_memory: bool = False) -> dict:
    """``num_workers`` / ``pin_memory`` keyword arguments for a ``DataLoader`` of this run (``workers``:
    ``engine.loader_workers``, ``pin_memory``: ``engine.pin_memory``)."""
    workers = int(workers)
    if workers < 0:
        raise ConfigError(f"engine.loader_workers={workers}: must be 0 (load in the training process) or more")
    return {"num_workers": workers, "pin_memory": bool(pin_memory) and torch.cuda.is_available()}
