"""Issue 19, syncs out of the hot paths: in a Transformer training step (smoke sizes, CPU) the only host reads of
tensor values are the documented ones of the mappings (docs/running.md "Running on a cluster", host syncs), none from the
model, the LightningModule or α's validation; counted by ``benchmarks/probes/count_host_syncs.py``."""
from __future__ import annotations

import pytest
import torch

from sparselab.locations import PROJECT_ROOT
from sparselab.mappings import _compile

from support import load_script

BENCH = PROJECT_ROOT / "benchmarks" / "probes" / "count_host_syncs.py"

# file:line prefixes allowed, each with the reason it stays (docs/running.md)
ALLOWED = (
    "sparselab/mappings/softmax.py",    # CPU only: skips the masked-row passes (no read on a GPU)
    "sparselab/mappings/_solvers.py",   # sparsemax / 1.5-entmax: rows the fused kernel did not settle are redone
    "sparselab/mappings/bisect.py",     # α-entmax: rows not at the rounding floor go on eagerly (exactness)
    "sparselab/mappings/losses.py",     # the loss: targets in range, once per step
    "sparselab/mappings/_compile.py",   # a first call of a shape: whether compilation worked
)


def _load(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH.parents[1]))        # benchmarks/: the speed benchmark it builds on
    return load_script("benchmarks/probes/count_host_syncs.py")


@pytest.mark.slow
def test_a_training_step_reads_the_device_only_where_documented(monkeypatch):
    # eager mappings: compiling the kernels for this step's shapes took ~1 min of the suite; the compiled kernels'
    # own reads are counted per call by tests/mappings/test_mappings_syncs.py, and nothing outside the mappings changes
    monkeypatch.setattr(_compile, "ENABLED", False)
    bench = _load(monkeypatch)
    result = bench.count("smoke", torch.device("cpu"), steps=2, warmup=1)
    assert len(result) == 4
    for label, r in result.items():
        assert r["reads"] > 0, f"{label}: nothing counted (the counter is not wired)"
        for site in r["sites"]:
            assert site.startswith(ALLOWED), f"{label}: a host read at {site}"
        assert not any("_validate.py" in s for s in r["sites"]), f"{label}: α is validated per call"
    # the loss checks its targets once per step, not once per row or per head
    loss_reads = sum(n for site, n in result["softmax"]["sites"].items() if site.startswith(ALLOWED[3]))
    assert loss_reads == 2


def test_the_counter_sees_a_read_and_restores_the_tensor_methods(monkeypatch):
    bench = _load(monkeypatch)
    before = torch.Tensor.item
    with bench.HostReads() as reads:
        reads.active = True
        torch.ones(2).sum().item()
        bool(torch.ones(1) > 0)
    assert sum(reads.sites.values()) == 2
    assert torch.Tensor.item is before
