"""The Martins 2016 smoke pipeline end to end (CI budget: about 2 minutes; the SNLI sweep adds about 20 s).

Acceptance of issue 8: the fresh smoke runs give the numbers stored in tests/fixtures/smoke_metrics.json
(taken before the toolkit refactor; see tests/fixtures/README.md).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from index_links import broken_links

PROJECT = Path(__file__).resolve().parents[1]
SMOKE_METRICS = PROJECT / "tests" / "fixtures" / "smoke_metrics.json"


@pytest.mark.slow
def test_smoke_pipeline_writes_every_report(tmp_path):
    env = {**os.environ, "SPARSELAB_RUNS": str(tmp_path / "runs"), "OMP_NUM_THREADS": "1", "WANDB_MODE": "offline"}
    out = tmp_path / "report"
    proc = subprocess.run([sys.executable, str(PROJECT / "pipelines" / "martins2016.py"), "--profile", "smoke",
                           "--out", str(out)], cwd=PROJECT, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    for name in ("table2_multilabel.md", "figure3_label_proportions.md", "figure3_label_proportions.png",
                 "table3_snli.md", "table4_examples.md", "table4_heatmaps.png", "index.html", "runs.jsonl"):
        assert (out / name).is_file() and (out / name).stat().st_size > 0, name
    t2 = (out / "table2_multilabel.md").read_text()
    assert "profile" in t2.lower() and "smoke" in t2
    assert "emotions" in t2 and "scene" in t2 and "data not available here" in t2
    assert "Paper (reference)" in t2 and "Best-cell count" in t2
    f3 = (out / "figure3_label_proportions.md").read_text()
    assert "K = 10" in f3 and "K = 50" in f3 and "Crossover" in f3
    assert "under data root /" not in t2 and str(PROJECT.parent) not in t2
    t3 = (out / "table3_snli.md").read_text()
    assert "**Low-data experiment**" in t3 and "dropped with gold label '-'" in t3 and "% of tokens" in t3
    for variant in ("NoAttention", "LogisticAttention", "SoftAttention", "SparseAttention", "1.5-entmax", "learned-α"):
        assert f"| {variant}" in t3, variant
    t4 = (out / "table4_examples.md").read_text()
    assert t4.count("## test pair") == 3 and t4.count("## dev pair") == 4
    index = (out / "index.html").read_text()
    assert index.count("<table>") >= 5 and "<img src='figure3_label_proportions.png'" in index
    assert "<img src='table4_heatmaps.png'" in index and "Table 3 (SNLI attention)" in index
    assert str(tmp_path) not in index and str(PROJECT) not in index
    assert broken_links(out / "index.html") == []            # every link of the index opens a file (issue 18)
    # same numbers as before the refactor (abs tol 1e-6)
    from sparselab.reports import martins2016, numbers
    want = json.loads(SMOKE_METRICS.read_text())["martins2016"]
    assert numbers.diff(martins2016.numbers(tmp_path / "runs", "smoke"), want, abs_tol=1e-6) == []
    # deterministic given the records: a report-only rerun writes identical Markdown
    again = tmp_path / "again"
    proc = subprocess.run([sys.executable, str(PROJECT / "pipelines" / "martins2016.py"), "--profile", "smoke",
                           "--out", str(again), "--report-only"], cwd=PROJECT, env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    for name in ("table2_multilabel.md", "figure3_label_proportions.md", "table3_snli.md", "table4_examples.md"):
        assert (again / name).read_text() == (out / name).read_text()
    # every SNLI job logged its attention heatmap to W&B as an image (offline run files)
    snli_runs = [d for d in (tmp_path / "runs" / "smoke" / "martins2016" / "table3_snli").iterdir()
                 if (d / "run.json").is_file()]
    assert len(snli_runs) == 6
    images = [p for d in snli_runs for p in d.glob("wandb/offline-run-*/files/media/images/attention/*.png")]
    assert len(images) == 5   # every variant but "none"
