"""Host reads of device values per Transformer training step (issue 19: syncs out of the hot paths).

    .venv/bin/python benchmarks/probes/count_host_syncs.py --profile smoke [--device cuda] [--steps 5] [--out FILE]

A host read (``bool(t)``, ``t.item()``, ``int(t)``, ``float(t)``, ``t.tolist()``, ``t.numpy()``; and
``t.nonzero()``, whose output size is data) of a tensor that
lives on a GPU makes the CPU wait for the GPU: a sync. On any device this script counts those reads in one
training step (``TransformerModule.loss``, backward, optimiser and schedule step, as in training and in
``bench_transformer_speed.py``) by wrapping the tensor methods, and names the lines of ``sparselab`` that make
them. On CUDA it also counts what torch itself reports with ``torch.cuda.set_sync_debug_mode("warn")``, which
sees the syncs inside torch operators too (e.g. a boolean-mask index); on CPU those cannot be seen, so the CPU
count is a lower bound of the CUDA one. Rows: softmax, 1.5-entmax and α-entmax attention with a softmax output
(the paper's models), and α-entmax attention with a 1.5-entmax output (the Fenchel-Young loss path).
The first ``--warmup`` steps are not counted (torch.compile traces the sparse kernels there).
"""
from __future__ import annotations

import argparse
import contextlib
import sys
import traceback
import warnings
from collections import Counter
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))   # benchmarks/: bench_transformer_speed.py
import bench_transformer_speed as bench

READS = ("__bool__", "item", "__int__", "__float__", "__index__", "tolist", "numpy",
         "nonzero")     # not a read, but its output's size is data: on CUDA it waits for the device too
ROOT = Path(__file__).resolve().parents[2]
SRC = str(ROOT / "src" / "sparselab")
# Adam's step counts are CPU tensors on a GPU too (torch keeps them on the host unless capturable / fused), so
# reading them is no sync; on a CPU run they cannot be told apart by device, so they are left out by name.
HOST_RESIDENT = "(_get_value)"


class HostReads:
    """Counts host reads of tensor values while active, by the ``sparselab`` line that made them."""

    def __init__(self):
        self.sites: Counter = Counter()
        self.active = False
        self._saved = {}

    def _site(self) -> str:
        stack = traceback.extract_stack()[:-2]
        for frame in reversed(stack):
            if frame.filename.startswith(SRC):
                return f"{Path(frame.filename).relative_to(ROOT / 'src')}:{frame.lineno}"
        inner = stack[-1]     # a library's own read: name its file from the package on
        parts = Path(inner.filename).parts
        start = max((i for i, p in enumerate(parts) if p in ("site-packages", "benchmarks")), default=-1) + 1
        return f"{'/'.join(parts[start:])}:{inner.lineno} ({inner.name})"

    def __enter__(self):
        for name in READS:
            original = getattr(torch.Tensor, name)
            self._saved[name] = original

            def wrapper(t, *args, _original=original, **kwargs):
                if self.active and not torch.compiler.is_compiling() and t.numel() > 0:
                    site = self._site()
                    if HOST_RESIDENT not in site:
                        self.sites[site] += 1
                return _original(t, *args, **kwargs)
            setattr(torch.Tensor, name, wrapper)
        return self

    def __exit__(self, *exc):
        for name, original in self._saved.items():
            setattr(torch.Tensor, name, original)


@contextlib.contextmanager
def cuda_syncs(device: torch.device):
    """The syncs torch reports on CUDA (set_sync_debug_mode), as a list that fills while active."""
    found: list = []
    if device.type != "cuda":
        yield found
        return
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.cuda.set_sync_debug_mode("warn")
        try:
            yield found
        finally:
            torch.cuda.set_sync_debug_mode(0)
            found.extend(w for w in caught if "synchroniz" in str(w.message))


def count(profile: str, device: torch.device, steps: int, warmup: int, precision: str = "32-true") -> dict[str, dict]:
    cfgs = bench.configs(profile)
    vocab = bench.default_vocab(cfgs["softmax"])
    tc = cfgs["softmax"].task
    made = bench.make_batches(bench.make_pairs(64, vocab, 3, 20, 0), int(tc.batch_tokens), warmup + steps, 0,
                              device)
    batches = [made[i % len(made)] for i in range(warmup + steps)]    # a small profile makes few batches
    bench.matmul_setup(cfgs["softmax"], device)
    modules = bench.build(cfgs, vocab, 0, device)
    rows = {bench.LABELS[m]: modules[m] for m in bench.MAPPINGS}
    fy = bench.build({"alpha_entmax": cfgs["alpha_entmax"]}, vocab, 0, device)["alpha_entmax"]
    fy.alpha = 1.5                                          # the output: 1.5-entmax loss instead of softmax
    rows[f"{bench.LABELS['alpha_entmax']}, 1.5-entmax output"] = fy
    out = {}
    for label, module in rows.items():
        trainer = bench.Trainer(module, device, precision)
        for b in batches[:warmup]:
            trainer.step(b)
        with HostReads() as reads, cuda_syncs(device) as syncs:
            reads.active = True
            for b in batches[warmup:]:
                trainer.step(b)
            reads.active = False
        out[label] = {"reads": sum(reads.sites.values()) / steps, "sites": reads.sites,
                      "cuda_syncs": len(syncs) / steps if device.type == "cuda" else None,
                      "cuda_sites": Counter(str(w.filename) + ":" + str(w.lineno) for w in syncs)}
    return out


def table(result: dict, device: torch.device, profile: str, steps: int, precision: str = "32-true") -> str:
    lines = [f"# Host reads per Transformer training step ({profile} profile, {device}, {precision}, mean of {steps} "
             "steps)", "",
             "| attention (output) | host reads of tensor values / step | CUDA syncs / step (sync debug mode) |",
             "|---|---|---|"]
    for label, r in result.items():
        cuda = "– (CPU run)" if r["cuda_syncs"] is None else f"{r['cuda_syncs']:.1f}"
        lines.append(f"| {label} | {r['reads']:.1f} | {cuda} |")
    lines += ["", "Where they come from (count over the steps):", ""]
    for label, r in result.items():
        for site, n in r["sites"].most_common():
            lines.append(f"- {label}: `{site}` × {n}")
        for site, n in r["cuda_sites"].most_common():
            lines.append(f"- {label} (CUDA sync debug): `{site}` × {n}")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--profile", default="smoke", choices=["smoke", "cpu", "paper"])
    p.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    p.add_argument("--steps", type=int, default=5)
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--precision", default="32-true", choices=bench.PRECISIONS)
    p.add_argument("--out", type=Path)
    args = p.parse_args(argv)
    device = torch.device(args.device)
    text = table(count(args.profile, device, args.steps, args.warmup, args.precision), device, args.profile,
                 args.steps, args.precision)
    print(text, end="")
    if args.out:
        args.out.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
