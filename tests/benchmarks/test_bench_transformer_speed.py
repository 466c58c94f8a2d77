"""The Transformer training-speed benchmark runs end to end (``--quick``, smoke sizes) and writes its table and the
profile of where the time goes. Not a timing test: no speed is asserted."""
from __future__ import annotations

import re

import pytest

from sparselab.locations import PROJECT_ROOT
from sparselab.mappings import _compile

from support import load_script
from support import needs_reference

BENCH = PROJECT_ROOT / "benchmarks" / "bench_transformer_speed.py"


def _load(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH.parent))               # its helper module, training_speed.py
    return load_script("benchmarks/bench_transformer_speed.py")


def _number(cell: str) -> float:
    """A number as the benchmark table prints it, with thousands separators (1,375.2)."""
    return float(cell.replace(",", ""))


@needs_reference
@pytest.mark.slow
def test_quick_smoke_run_writes_three_rows_and_the_breakdown(tmp_path, monkeypatch, device, capfd):
    # eager mappings: the benchmark has no code of its own for the compiled kernels, and compiling them for these
    # shapes on a cold cache took ~40 s of the suite (test_mappings_compiled.py tests them)
    monkeypatch.setattr(_compile, "ENABLED", False)
    bench = _load(monkeypatch)
    out = tmp_path / "speed.md"
    assert bench.main(["--profile", "smoke", "--quick", "--threads", "1", "--device", str(device),
                       "--breakdown", "always", "--out", str(out)]) == 0
    text = out.read_text()
    rows = {m.group(1): m.groups()[1:] for m in re.finditer(r"^\| ([^|]+?) \| ([\d,]+) \| ([\d.]+) \| ([^|]+) \|$",
                                                            text, re.M)}
    assert set(rows) == set(bench.LABELS.values())
    assert rows["softmax"][1] == "1.00"
    assert all(_number(r[0]) > 0 for r in rows.values())
    assert "0.75" in rows[bench.LABELS["alpha_entmax"]][2]               # the paper's ratio, from papers.yaml
    assert "## Where the time goes" in text
    for group in bench.GROUPS:
        assert f"| {group} |" in text
    # the normalizers were found: α-entmax spends time in its forward and in its backward
    fwd = re.search(r"^\| normalizer forward \|.*\| ([\d,.]+) \(\d+%\) \|$", text, re.M)
    bwd = re.search(r"^\| normalizer backward \(incl\. α-gradient\) \|.*\| ([\d,.]+) \(\d+%\) \|$", text, re.M)
    assert fwd and bwd and _number(fwd.group(1)) > 0 and _number(bwd.group(1)) > 0
    # torch.profiler ran (the breakdown above) without Kineto's "USDT: ... profiler_start/stop" lines (issue 18)
    assert "USDT" not in capfd.readouterr().err


def test_the_cpu_benchmark_builds_the_table1_model(monkeypatch):
    """Issue 33: speed.md must measure the Table 1 cpu model (8 heads, d 128, FF 512, 3 + 3 layers, 72 learned α's):
    the benchmark composes experiment=correia2019/table1_bleu profile=cpu and builds the model from it."""
    import torch

    bench = _load(monkeypatch)
    cfgs = bench.configs("cpu")
    m = cfgs["alpha_entmax"].model
    assert (m.enc_layers, m.dec_layers, m.heads, m.d_model, m.d_ff) == (3, 3, 8, 128, 512)
    modules = bench.build(cfgs, vocab=64, seed=0, device=torch.device("cpu"))
    n_alpha = sum(p.numel() for k, p in modules["alpha_entmax"].model.named_parameters() if k.endswith(".a"))
    assert n_alpha == 72 and not any(k.endswith(".a") for k, _ in modules["softmax"].model.named_parameters())
