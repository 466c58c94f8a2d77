"""alpha > 2 entmax (no fused kernel) at the output layer of the cpu MT model: the eager Newton loop against the
same loop with each evaluation compiled (the default), forward and backward, side by side in one process.

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/probes/bench_alpha_above_two.py [--reps 9] [--alphas 2.25 3]

Shape: 1,300 target tokens (a batch of 64 pairs) x the de-en target vocabulary (2,556). Repetitions alternate the
two modes; median and min of each (the min is the closer to the uncontended cost on a shared machine).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

import sparselab.mappings as M
from sparselab.mappings import _compile


def once(x, g, alpha, compiled: bool) -> float:
    _compile.ENABLED = compiled
    xx = x.clone().requires_grad_()
    t0 = time.perf_counter()
    (M.entmax_bisect(xx, alpha) * g).sum().backward()
    return time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=9)
    ap.add_argument("--alphas", type=float, nargs="+", default=[2.25, 3.0])
    ap.add_argument("--shape", type=int, nargs=2, default=[1300, 2556])
    args = ap.parse_args()
    torch.set_num_threads(1)
    gen = torch.Generator().manual_seed(0)
    x, g = torch.randn(args.shape, generator=gen) * 3, torch.randn(args.shape, generator=gen)
    print(f"torch {torch.__version__}, 1 thread, shape {tuple(args.shape)}, {args.reps} reps, forward+backward (s)")
    print("| alpha | eager median | eager min | compiled median | compiled min | eager / compiled (median) |")
    print("|---|---|---|---|---|---|")
    for a in args.alphas:
        once(x, g, a, True)                      # compile and warm outside the timed region
        times = {True: [], False: []}
        for _ in range(args.reps):
            for mode in (False, True):
                times[mode].append(once(x, g, a, mode))
        e, c = times[False], times[True]
        print(f"| {a:g} | {statistics.median(e):.3f} | {min(e):.3f} | {statistics.median(c):.3f} | {min(c):.3f} | "
              f"{statistics.median(e) / statistics.median(c):.1f}x |")


if __name__ == "__main__":
    main()
