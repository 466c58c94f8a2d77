"""The fixed-α backward of ``entmax_bisect`` when several α values run in one process (issue 19, item 11).

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/probes/bench_alpha_recompile.py [--shape 32 8 64 64] [--reps 15]
        [--threads 1] [--no-specialize-float]

A sweep under Hydra's basic launcher runs every α in one process. The compiled backward is one function for all
float α; under torch's default ``specialize_float=False`` the second α recompiled it with eps as a symbolic float,
and that graph was then used for every α. ``sparselab.mappings._compile.SPECIALIZE_FLOAT`` (default True) keeps
one constant-folded graph per α; ``--no-specialize-float`` sets it False to show the old behaviour.

Phases α = 1.5, 1.3, 1.5 in that order. Each phase warms up (compiles) outside the timed region, then times
``backward`` alone (the forward of each repetition is untimed) and prints the median and the min in ms (on a
machine shared with other jobs the median includes preemption, the min is closer to the uncontended cost), and
the number of graphs dynamo compiled during the phase (``torch._dynamo.utils.counters['stats']['unique_graphs']``).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import torch
from torch._dynamo.utils import counters

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))
import sparselab.mappings as M
from sparselab.mappings import _compile

ALPHAS = (1.5, 1.3, 1.5)


def backward_ms(x, g, alpha, reps, warmup=3):
    times = []
    for i in range(warmup + reps):
        xx = x.clone().requires_grad_(True)
        y = M.entmax_bisect(xx, alpha)
        t0 = time.perf_counter()
        y.backward(g)
        dt = time.perf_counter() - t0
        if i >= warmup:
            times.append(dt * 1e3)
    return statistics.median(times), min(times)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shape", type=int, nargs="+", default=[32, 8, 64, 64])
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--no-specialize-float", action="store_true")
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    _compile.SPECIALIZE_FLOAT = not args.no_specialize_float
    gen = torch.Generator().manual_seed(0)
    x = torch.randn(args.shape, generator=gen) * 2
    g = torch.randn(args.shape, generator=gen)
    print(f"shape {tuple(args.shape)}, {args.threads} thread(s), torch {torch.__version__}, "
          f"specialize_float={_compile.SPECIALIZE_FLOAT}, median of {args.reps}")
    print("| phase | α | backward ms (median) | min | graphs compiled |")
    print("|---|---|---|---|---|")
    for i, a in enumerate(ALPHAS, 1):
        before = counters["stats"]["unique_graphs"]
        med, low = backward_ms(x, g, a, args.reps)
        print(f"| {i} | {a} | {med:.2f} | {low:.2f} | {counters['stats']['unique_graphs'] - before} |", flush=True)


if __name__ == "__main__":
    main()
