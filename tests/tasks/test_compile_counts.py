"""Issue 58: how many graphs torch.compile builds in a Correia 1.5-entmax job's step-0 head statistics (eval
forwards with the attention maps, at every validation batch's shape) and its first training steps, at varying
batch shapes. Each compiled kernel is compiled once: its per-batch sizes (rows; the key length of attention
scores) are marked dynamic before the first call (``sparselab.mappings._compile.rows2d``). Left to automatic
dynamic shapes it compiled every kernel twice, a static graph for the first batch and a dynamic one at the second:
2 graphs in the step-0 pass and 8 after the first steps (the paper-profile model on CPU, before issue 58)."""
from __future__ import annotations

import pytest
import torch
from torch._dynamo.utils import counters

from sparselab.mappings import _compile

from support import PROJECT, load_script

pytestmark = pytest.mark.skipif(not _compile.ENABLED, reason="SPARSELAB_COMPILE=0")


def graphs() -> int:
    return counters["stats"]["unique_graphs"]


def test_step0_pass_and_first_steps_compile_each_kernel_once(monkeypatch):
    monkeypatch.syspath_prepend(str(PROJECT / "benchmarks"))
    bench = load_script("benchmarks/bench_transformer_speed.py")
    monkeypatch.setattr(_compile, "MIN_NUMEL", 0)            # the small model's calls compile as a paper job's do
    monkeypatch.setattr(_compile, "_compiled", {})
    torch._dynamo.reset()
    counters.clear()
    cfg = bench.compose([f"experiment={bench.EXPERIMENT}", "profile=smoke", "mapping=entmax15"])
    module = bench.build({"entmax15": cfg}, 200, 0, torch.device("cpu"))["entmax15"]
    ds = bench.make_pairs(600, 200, 3, 30, 0)
    batches = bench.make_batches(ds, 400, 7, 0, torch.device("cpu"))
    shapes = {(tuple(b["src"].shape), tuple(b["tgt_in"].shape)) for b in batches}
    assert len(shapes) >= 6, shapes

    model = module.model.eval()
    with torch.no_grad():                                     # the step-0 head statistics (analyze_heads)
        for b in batches[:4]:
            model(b["src"], b["src_len"], b["tgt_in"], return_attn=True)
    assert graphs() <= 1, f"the step-0 pass compiled {graphs()} graphs (entmax15_fwd once)"

    model.train()
    trainer = bench.Trainer(module, torch.device("cpu"))
    for b in batches[4:]:
        trainer.step(b)
    # entmax15 forward and backward, the output loss's rows and gradient: one graph each
    assert graphs() <= 4, f"{graphs()} graphs after the step-0 pass and {len(batches) - 4} training steps"
    torch._dynamo.reset()
