"""Where the time of learned-α entmax goes (issue 13: the learned per-row α path is the one that misses its
speed target). A profile, not a benchmark of record: ``bench_mappings.py`` gives the ratios.

    OMP_NUM_THREADS=2 .venv/bin/python reports/bench/diagnosis/profile_learned_alpha.py [--shape 32 8 64 64] \
        [--steps 10]

For softmax, fixed α = 1.5 (the u² kernel), fixed α = 1.3 (a general power, like a learned α) and a learned α
per row (a tensor that needs a gradient, as in the adaptively sparse Transformer): forward+backward steps timed
(median), then profiled under torch.profiler, after warm-up (kernels compiled): time per step and the operators
with the most self time. The forward and backward of the fused kernels show up as ``CompiledFunction`` / inductor kernel frames; what
is left is eager work around them (the α checks and broadcasts, the exactness test and fix-up of unconverged rows,
and autograd).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import torch
from torch.profiler import ProfilerActivity, profile

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "src"))   # reports/bench/diagnosis/ -> the checkout
import sparselab.mappings as M


def candidates(shape):
    rows = shape[:-1] + (1,)
    learned = (1.0 + torch.rand(rows)).clamp(1.01, 2.0).requires_grad_()
    return {
        "softmax": lambda x: torch.softmax(x, -1),
        "entmax_bisect a=1.5": lambda x: M.entmax_bisect(x, 1.5),
        "entmax_bisect a=1.3": lambda x: M.entmax_bisect(x, 1.3),
        "entmax_bisect learned row a": lambda x: M.entmax_bisect(x, learned),
    }


def step(fn, x, g):
    y = fn(x)
    y.backward(g)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shape", type=int, nargs="+", default=[32, 8, 64, 64])
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--top", type=int, default=8)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    shape = tuple(args.shape)
    x = torch.randn(shape).requires_grad_()
    g = torch.randn(shape)
    print(f"shape {shape}, {args.steps} forward+backward steps each, {args.threads} threads, torch {torch.__version__}")
    base = None
    for name, fn in candidates(shape).items():
        for _ in range(3):                        # compile and warm up outside the profile
            step(fn, x, g)
        times = []
        for _ in range(args.steps):
            t0 = time.perf_counter()
            step(fn, x, g)
            times.append(time.perf_counter() - t0)
        per_step = statistics.median(times) * 1e3
        base = base or per_step
        with profile(activities=[ProfilerActivity.CPU]) as prof:
            for _ in range(args.steps):
                step(fn, x, g)
        print(f"\n## {name}: median {per_step:.2f} ms per step without the profiler ({per_step / base:.2f}x "
              f"softmax, not interleaved: bench_mappings.py gives the ratios of record)")
        print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=args.top, max_name_column_width=60))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
