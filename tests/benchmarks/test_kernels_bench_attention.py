"""benchmarks/bench_attention.py (issue 34) runs its code path on a tiny shape (``--dry-run``; the fused kernel under
Triton's interpreter on CPU) and writes one row per shape with every method or the reason it cannot run."""
from __future__ import annotations

import importlib.util

import pytest
import torch

from support import load_script

if importlib.util.find_spec("triton") is None:
    pytest.skip("triton is not installed (pip install -e '.[kernels]')", allow_module_level=True)


def test_dry_run_writes_every_method(tmp_path, monkeypatch):
    if not torch.cuda.is_available():
        monkeypatch.setenv("TRITON_INTERPRET", "1")    # only read if the kernels are first imported here
        import sparselab.kernels._entmax_blocked as kb
        import sparselab.kernels._entmax_triton as kt
        if not type(kt.entmax_attention_fwd).__name__.startswith("Interpreted"):
            import importlib

            import sparselab.kernels.attention as ea
            importlib.reload(kt)
            importlib.reload(kb)
            importlib.reload(ea)
    bench = load_script("benchmarks/bench_attention.py")
    out = tmp_path / "attention.md"
    assert bench.main(["--dry-run", "--out", str(out)]) == 0
    text = out.read_text()
    rows = [line for line in text.splitlines() if line.startswith("| dry run")]
    assert len(rows) == len(bench.DRY_SHAPES)
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")][1:]
        assert len(cells) == len(bench.METHODS)
        for method, cell in zip(bench.METHODS, cells):
            if method.startswith("AdaSplash"):
                assert cell.startswith("unsupported (")     # not installed, or Lq ≠ Lk, or CPU
            else:
                assert cell.split()[0].replace(".", "").isdigit(), f"{method}: {cell}"
            if method.startswith("fused"):
                assert "block sparsity" in cell, cell
    gqa = next(row for row in rows if row.startswith("| dry run GQA"))
    assert "block sparsity short-row kernel" not in gqa and "% " in gqa.replace("%;", "% ").replace("% |", "% ")
    with pytest.raises(SystemExit):
        bench.main(["--dtype", "fp8"])
