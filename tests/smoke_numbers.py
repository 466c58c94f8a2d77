"""Fresh smoke numbers against the fixture (tests/fixtures/smoke_metrics.json), to what the machine guarantees.

The fixture records the CPU kernels it was taken on (``_kernel``, :func:`sparselab.engine.devices.cpu_kernel`).
On those kernels a 1-thread torch fit is bit-reproducible, so every number must match to 1e-6 (or to the
optimiser's tolerance that a caller passes for scipy fits, whose BLAS thread pool and core type are not part of
the kernel string). On other kernels (another CPU generation: AVX2 against AVX-512 with AMX, measured) the torch
fits sum in another order, and training turns that rounding into discrete changes: one attended position in 355,
one decoded character (a Peters smoke edit distance moved by 0.1 to 0.6). No tolerance is guaranteed there, so
torch-trained rows are checked for what holds anywhere: the same rows and metrics, each finite. A machine with a
CUDA GPU counts as other kernels whatever its CPU: the smoke jobs run with ``trainer.accelerator=auto``, so they
train on the GPU there.
"""
from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Callable

import torch

from sparselab.engine.devices import cpu_kernel
from sparselab.reports import numbers

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "smoke_metrics.json"


def diff(paper: str, got: dict, torch_fit: Callable[[str], bool], abs_tol: float | Callable[[str], float] = 1e-6,
         fixture: Path = FIXTURE) -> list[str]:
    """[] when ``got`` agrees with the fixture's ``paper`` numbers; ``torch_fit(row)``: the row comes from a torch
    training run (kernel-dependent); ``abs_tol``: the tolerance of every row on the fixture's kernels, and of the
    other rows on any kernels."""
    stored = json.loads(fixture.read_text())
    want = stored[paper]
    if stored.get("_kernel") == cpu_kernel() and not torch.cuda.is_available():
        return numbers.diff(got, want, abs_tol=abs_tol)
    out = numbers.diff({r: v for r, v in got.items() if not torch_fit(r)},
                       {r: v for r, v in want.items() if not torch_fit(r)}, abs_tol=abs_tol)
    for row in sorted({r for r in (*got, *want) if torch_fit(r)}):
        if row not in got or row not in want:
            out.append(f"{row}: {'missing' if row in want else 'unexpected row'}")
        elif set(got[row]) != set(want[row]):
            out.append(f"{row}: metrics {sorted(got[row])}, expected {sorted(want[row])}")
        else:
            out += [f"{row}: {m} = {v!r} is not finite" for m, v in got[row].items() if not math.isfinite(v)]
    return out
