"""Seconds spent in training steps, for the samples/s and tokens/s of the run records.

On CUDA a step's kernels are still running when ``on_train_batch_end`` returns, so ``perf_counter``
there measures the launches, not the work. Each step is bracketed by CUDA events instead, recorded
on the current stream: the time between them is the step's time on the device, and reading it needs
no host sync per step (a step's pair is read once its end event has completed, by a non-blocking
``query``; whatever is left is waited for once, when a total is read). On CPU (and any other
device) it is ``perf_counter``, as before.
"""
from __future__ import annotations

import time

import torch


class StepTimer:
    """``start(device)`` at a step's start, ``stop(*keys)`` at its end adds the step's seconds to
    each key's total; ``total(key)`` reads it."""

    def __init__(self):
        self._totals: dict[str, float] = {}
        self._start = None
        self._pending: list = []  # (start event, end event, keys), oldest first

    def start(self, device: torch.device) -> None:
        if device.type == "cuda":
            self._start = torch.cuda.Event(enable_timing=True)
            self._start.record()
        else:
            self._start = time.perf_counter()

    def stop(self, *keys: str) -> None:
        start, self._start = self._start, None
        if start is None:
            return
        if isinstance(start, float):
            self._add(time.perf_counter() - start, keys)
            return
        end = torch.cuda.Event(enable_timing=True)
        end.record()
        self._pending.append((start, end, keys))
        self._collect(wait=False)

    def total(self, key: str) -> float:
        self._collect(wait=True)
        return self._totals.get(key, 0.0)

    def state_dict(self) -> dict[str, float]:
        """The totals so far (a resumed run goes on adding to them)."""
        self._collect(wait=True)
        return dict(self._totals)

    def load_state_dict(self, state: dict[str, float]) -> None:
        self._totals = {str(k): float(v) for k, v in state.items()}

    def _add(self, seconds: float, keys) -> None:
        for k in keys:
            self._totals[k] = self._totals.get(k, 0.0) + seconds

    def _collect(self, wait: bool) -> None:
        # events on one stream complete in order: stop at the first unfinished one
        while self._pending:
            start, end, keys = self._pending[0]
            if wait:
                end.synchronize()
            elif not end.query():
                return
            self._add(start.elapsed_time(end) / 1e3, keys)
            self._pending.pop(0)
