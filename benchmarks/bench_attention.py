"""Attention forward + backward per shape, side by side (issue 34): SDPA softmax, the materialised entmax
(scores, ``sparselab.mappings.Entmax``, @ v), the fused Triton kernel (``sparselab.kernels.entmax_attention``)
at α = 1.5 and with a learned α per head, and AdaSplash at α = 1.5 where it supports the shape. Issue 58 adds the
long rows (causal 1k / 4k / 16k at D 64 and 128), grouped-query heads and a long cross-attention, which take the
blocked kernel (rows past 256 keys, grouped-query heads), and the block sparsity of the fused calls beside their
times: the share of (query block, key block) tiles the blocked kernel skipped, causal tiles included ("short-row
kernel" where the call took the kernel that holds whole rows).

    python benchmarks/bench_attention.py [--out FILE] [--dtype bf16] [--reps 20]   # CUDA
    python benchmarks/bench_attention.py --dry-run                                   # tiny shape, any device

A benchmark, never a timed test. One row per (shape, method): the median milliseconds of a forward + backward
(gradients for q, k, v and, for the learned α, α; CUDA events after ``--warmup`` calls), its ratio to SDPA
softmax on that shape, and "unsupported (why)" where a method cannot take the shape (the fused kernel holds
rows of at most ``sparselab.kernels.MAX_KEYS`` keys; AdaSplash needs Lq = Lk and one k, v head per query head; the materialised path needs the
score tensors to fit in memory). ``adasplash`` is optional (``pip install adasplash``), not installed by
``make setup``. ``--dry-run`` runs one tiny shape (under ``TRITON_INTERPRET=1`` on CPU) to check the code path.
"""
from __future__ import annotations

import argparse
import datetime
import statistics
import sys
import time
from typing import NamedTuple
from pathlib import Path

import torch


class Shape(NamedTuple):
    name: str
    B: int
    H: int
    Lq: int
    Lk: int
    D: int
    causal: bool = False
    h_kv: int | None = None      # grouped-query attention: k, v heads (None = H)


SHAPES = (
    Shape("MT L32 (self)", 200, 8, 32, 32, 64),
    Shape("MT L64 (self)", 200, 8, 64, 64, 64),
    Shape("MT L64 causal (decoder self)", 200, 8, 64, 64, 64, causal=True),
    Shape("MT cross Lq 48, Lk 64 (context)", 200, 8, 48, 64, 64),
    Shape("cross Lq 1024, Lk 128", 4, 16, 1024, 128, 64),
    Shape("causal 1k", 4, 16, 1024, 1024, 64, causal=True),
    Shape("causal 4k", 4, 16, 4096, 4096, 64, causal=True),
    Shape("causal 16k", 4, 16, 16384, 16384, 64, causal=True),
    Shape("causal 1k D128", 4, 16, 1024, 1024, 128, causal=True),
    Shape("causal 4k D128", 4, 16, 4096, 4096, 128, causal=True),
    Shape("causal 16k D128", 4, 16, 16384, 16384, 128, causal=True),
    Shape("GQA causal 4k, 4 kv heads", 4, 16, 4096, 4096, 64, causal=True, h_kv=4),
    Shape("cross Lq 1024, Lk 4096", 4, 16, 1024, 4096, 64),
)
DRY_SHAPES = (Shape("dry run", 1, 2, 16, 24, 16, causal=True), Shape("dry run cross", 1, 2, 8, 16, 16),
              Shape("dry run GQA", 1, 2, 16, 40, 16, causal=True, h_kv=1))
METHODS = ("SDPA softmax", "materialised 1.5-entmax", "materialised α-entmax (learned α per head)",
           "fused 1.5-entmax", "fused α-entmax (learned α per head)", "AdaSplash α = 1.5")


class Unsupported(Exception):
    """A method cannot take a shape; the message says why."""


def _mask(shape: Shape, device) -> torch.Tensor | None:
    return torch.ones(shape.Lq, shape.Lk, dtype=torch.bool, device=device).tril() if shape.causal else None


def make_call(method: str, shape: Shape, q, k, v, alpha):
    """A closure computing the method's output (q, k, v and α already require grad)."""
    from sparselab import kernels
    from sparselab.mappings import Entmax, entmax_bisect

    scale = shape.D ** -0.5
    gqa = k.shape[1] != q.shape[1]
    if method == "SDPA softmax":
        return lambda: torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=shape.causal,
                                                                        enable_gqa=gqa)
    if method.startswith("materialised"):
        # scores + probabilities + their gradients, float32: a few copies of B·H·Lq·Lk
        need = 6 * shape.B * shape.H * shape.Lq * shape.Lk * 4
        if q.is_cuda and need > torch.cuda.mem_get_info(q.device)[0]:
            raise Unsupported(f"the score tensors need about {need / 2**30:.0f} GiB")
        mask = _mask(shape, q.device)
        fixed = Entmax(1.5)

        def materialised():
            kk, vv = (x.repeat_interleave(q.shape[1] // x.shape[1], 1) for x in (k, v)) if gqa else (k, v)
            z = (q @ kk.transpose(-1, -2)) * scale
            if mask is not None:
                z = z.masked_fill(~mask, float("-inf"))
            if "learned" in method:
                p = entmax_bisect(z, alpha.reshape(1, -1, 1, 1), alpha_range=(1.01, 2.0))   # as Entmax(learnable)
            else:
                p = fixed(z)
            return p @ vv
        return materialised
    if method.startswith("fused"):
        if not kernels.available():
            raise Unsupported("triton is not installed")
        if not kernels.supports(shape.Lk, shape.D):
            raise Unsupported(f"rows of more than {kernels.MAX_KEYS} keys")
        a = alpha if "learned" in method else 1.5
        return lambda: kernels.entmax_attention(q, k, v, a, causal=shape.causal)
    if method.startswith("AdaSplash"):
        try:
            from adasplash import adasplash
        except ImportError:
            raise Unsupported("adasplash is not installed") from None
        if shape.Lq != shape.Lk:
            raise Unsupported("Lq ≠ Lk")
        if gqa:
            raise Unsupported("grouped-query heads")
        if not q.is_cuda:
            raise Unsupported("CUDA only")
        return lambda: adasplash(q, k, v, alpha=1.5, is_causal=shape.causal)
    raise ValueError(f"unknown method {method!r}")


def time_call(fn, params, warmup: int, reps: int, device) -> float:
    """Median milliseconds of forward + backward (the gradient of sum(out · g), g fixed)."""
    out = fn()
    g = torch.randn_like(out)

    def once():
        for p in params:
            p.grad = None
        (fn() * g).sum().backward()

    for _ in range(warmup):
        once()
    times = []
    for _ in range(reps):
        if device.type == "cuda":
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            once()
            end.record()
            torch.cuda.synchronize(device)
            times.append(start.elapsed_time(end))
        else:
            t0 = time.perf_counter()
            once()
            times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def block_sparsity(fn) -> str:
    """The share of score tiles one call of a fused method skipped (the blocked kernel's block mask)."""
    from sparselab.kernels import attention as ea

    ea.RECORD, ea.last_blocks = True, {}
    try:
        with torch.no_grad():
            fn()
    finally:
        ea.RECORD = False
    if not ea.last_blocks:
        return "short-row kernel"
    mask = ea.last_blocks["mask"]
    return f"{1 - mask.float().mean().item():.0%}"


def bench_shape(shape: Shape, dtype, device, warmup: int, reps: int) -> dict[str, float | str]:
    gen = torch.Generator(device="cpu").manual_seed(0)
    h_kv = shape.H if shape.h_kv is None else shape.h_kv
    q, k, v = (torch.randn(shape.B, h, n, shape.D, generator=gen).to(device, dtype).requires_grad_()
               for h, n in ((shape.H, shape.Lq), (h_kv, shape.Lk), (h_kv, shape.Lk)))
    alpha = torch.linspace(1.1, 1.9, shape.H, device=device).requires_grad_()
    row: dict[str, float | str] = {}
    for method in METHODS:
        try:
            fn = make_call(method, shape, q, k, v, alpha)
            params = [q, k, v] + ([alpha] if "learned" in method else [])
            row[method] = time_call(fn, params, warmup, reps, device)
            if method.startswith("fused"):
                row[f"{method} block sparsity"] = block_sparsity(fn)
        except Unsupported as e:
            row[method] = f"unsupported ({e})"
        except torch.OutOfMemoryError:
            row[method] = "unsupported (out of memory)"
            torch.cuda.empty_cache()
        except Exception as e:          # AdaSplash's own refusals (e.g. lengths it does not take) are rows too
            if not method.startswith("AdaSplash"):
                raise
            row[method] = f"unsupported ({type(e).__name__}: {str(e).splitlines()[0][:80] if str(e) else ''})"
    return row


def table(results: dict[Shape, dict], dtype, device) -> str:
    from training_speed import device_description

    lines = ["# Attention forward + backward, ms (ratio to SDPA softmax)", "",
             f"`benchmarks/bench_attention.py`, run {datetime.date.today().isoformat()}; {device_description(device)}; "
             f"torch {torch.__version__}; {str(dtype).replace('torch.', '')}; median of "
             f"{'CUDA-event' if device.type == 'cuda' else 'wall-clock'} timings.", "",
             "Block sparsity (after a fused time): the share of (query block, key block) score tiles the blocked "
             "kernel skipped, causal ones included; random N(0, 1) inputs, so beyond the causal half few tiles are "
             "all zero (trained attention is sparser).", "",
             "| shape (B, H, Lq, Lk, D) | " + " | ".join(METHODS) + " |", "|---|" + "---|" * len(METHODS)]
    for shape, row in results.items():
        base = row.get("SDPA softmax")
        cells = []
        for m in METHODS:
            t = row[m]
            if isinstance(t, str):
                cells.append(t)
            else:
                cells.append(f"{t:.3f}" + (f" ({t / base:.2f}×)" if isinstance(base, float) else "")
                             + (f"; block sparsity {row[m + ' block sparsity']}" if m + " block sparsity" in row
                                else ""))
        lines.append(f"| {shape.name} ({shape.B}, {shape.H}, {shape.Lq}, {shape.Lk}, {shape.D}"
                     f"{', causal' if shape.causal else ''}{f', {shape.h_kv} kv heads' if shape.h_kv else ''}) | "
                     + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=None, help="write the Markdown table here too")
    ap.add_argument("--dtype", default="bf16", choices=["bf16", "fp16", "fp32"])
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--shapes", nargs="*", default=None, help="a subset of the shape names (default: all)")
    ap.add_argument("--dry-run", action="store_true",
                    help="one tiny shape in float32, 1 rep, on CPU unless CUDA is there (checks the code path)")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if args.dry_run:
        shapes, dtype, args.warmup, args.reps = DRY_SHAPES, torch.float32, 0, 1
    else:
        if device.type != "cuda":
            ap.error("a CUDA device is needed (--dry-run runs a tiny shape anywhere)")
        dtype = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}[args.dtype]
        shapes = [s for s in SHAPES if args.shapes is None or s.name in args.shapes]
    results = {}
    for shape in shapes:
        results[shape] = bench_shape(shape, dtype, device, args.warmup, args.reps)
        print(f"{shape.name}: " + ", ".join(f"{m}: {t if isinstance(t, str) else f'{t:.3f} ms'}"
                                            for m, t in results[shape].items()), flush=True)
        if args.out:        # after every shape: a run stopped by a time limit keeps the shapes it finished
            Path(args.out).parent.mkdir(parents=True, exist_ok=True)
            Path(args.out).write_text(table(results, dtype, device))
    print(table(results, dtype, device))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
