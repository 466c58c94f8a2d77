"""End to end: the smoke profile of pipelines/peters2019.py (sweeps, ensemble, every report file).

The fresh smoke runs give the numbers stored in tests/fixtures/smoke_metrics.json (issue 8: taken before the
toolkit refactor and matched by it; issue 12: retaken when the smoke profile was made to learn; see
tests/fixtures/README.md).
"""
from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from support import broken_links, header_table, mean_std, sacrebleu_cli, section
import warm

PROJECT = Path(__file__).resolve().parents[2]


def _env(tmp_path):
    # W&B disabled: an offline run costs each of the plan's 33 jobs about 2 s; the offline W&B path of every run set is
    # tested by test_wandb_panels.py (and test_wandb_media.py, test_ddp.py). No torch.compile: each translation job
    # would compile its output mapping first (test_mappings_compiled.py tests that path, against eager and the entmax package)
    return dict(os.environ, SPARSELAB_RUNS=str(tmp_path / "runs"), WANDB_MODE="disabled", SPARSELAB_COMPILE="0",
                OMP_NUM_THREADS="1", HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1")


@pytest.fixture(scope="module")
def smoke(tmp_path_factory):
    """The smoke plan run once for this module: its tests read the same runs (the pipeline's report and rebuild,
    one MT job's record and files, the sweep command on the Table 1 runs)."""
    tmp_path = tmp_path_factory.mktemp("peters_smoke")
    env = _env(tmp_path)
    out = tmp_path / "report"
    proc = warm.run([sys.executable, "pipelines/peters2019.py", "--profile", "smoke", "--out", str(out)],
                          cwd=PROJECT, env=env, capture_output=True, text=True, timeout=1800)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return tmp_path, env, out


@pytest.mark.slow
def test_smoke_pipeline(smoke):
    tmp_path, env, out = smoke
    for name in ("table1.md", "sparsity.md", "examples.md", "per_language.csv", "accuracy_by_alpha.png",
                 "support_histogram.png", "learning_curves.png", "index.html", "runs.jsonl"):
        assert (out / name).exists() and (out / name).stat().st_size > 0, name
    table = (out / "table1.md").read_text()
    first_table = table.split("## ")[0]
    rows = [l for l in first_table.splitlines() if l.startswith("| 1.00") or l.startswith("| 1.50")
            or l.startswith("| 2.00")]
    assert len(rows) == 9
    assert "not run in this profile" in table                   # the high setting is not run in smoke
    assert "missing run" not in table
    assert "Profile: **smoke**" in table
    assert "non-neural baseline on the same languages and split" in table and "## Convergence of each run" in table
    csv_lines = (out / "per_language.csv").read_text().splitlines()
    # the cpu plan's shape: 9 configs x seed 0, seed 1 and an ensemble for the 4 compared cells; 3 languages; baseline
    assert len(csv_lines) == 1 + (9 + 4) * 3 + 4 * 3 + 3
    assert first_table.count("not run in this profile") == 9 * 2 + 5         # high setting, and 5 cells with no ensemble
    # every row has its gzipped prediction file, and they re-score to the reported accuracy (issue 32; the official
    # evalm.py is fetched where GitHub is reachable: test_reports_peters2019_predictions.py)
    from sparselab.data import excerpt
    from sparselab.reports.peters2019 import predictions
    rescored = predictions.rescore(out, predictions.builtin, excerpt.ROOT)
    assert len(rescored) == len(csv_lines) - 1 and all(r["agrees"] for r in rescored)
    # the index renders the tables and shows the figures, with no absolute path of this machine
    index = (out / "index.html").read_text()
    assert index.count("<table>") >= 3 and "<img src='accuracy_by_alpha.png'" in index
    assert str(tmp_path) not in index and str(PROJECT) not in index
    assert broken_links(out / "index.html") == []            # every link of the index opens a file (issue 18)
    # a clone: the report directory as committed, no run directories -> the same files, every figure redrawn (issue 35);
    # another process rebuilding every byte is also the check that the reports are deterministic given the records
    written = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file() and p.suffix != ".png"}
    clone = tmp_path / "clone" / "report"
    shutil.copytree(out, clone)
    for p in clone.glob("*.png"):
        p.unlink()
    clone_env = {**env, "SPARSELAB_RUNS": str(tmp_path / "clone" / "runs")}
    proc = warm.run([sys.executable, "pipelines/peters2019.py", "--profile", "smoke", "--out", str(clone),
                           "--report-only"], cwd=PROJECT, env=clone_env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert ("reports rebuilt from the committed runs.jsonl + run_extras.jsonl and runs_mt.jsonl + run_extras_mt.jsonl "
            "(23 runs)") in proc.stdout
    assert {p.suffix for p in written} >= {".md", ".csv", ".jsonl", ".html", ".txt"}
    assert {p.relative_to(clone): p.read_bytes() for p in clone.rglob("*") if p.is_file() and p.suffix != ".png"} \
        == written
    assert sorted(p.name for p in clone.glob("*.png")) == sorted(p.name for p in out.glob("*.png"))
    assert str(tmp_path) not in (out / "run_extras.jsonl").read_text() + (out / "run_extras_mt.jsonl").read_text()
    # same numbers as the fixture: to 1e-6 on its CPU kernels, every row and metric present and finite on others
    # (every Peters row comes from a torch fit; tests/support.py says why; timings are not compared)
    from sparselab.reports import peters2019
    from support import smoke_diff as diff
    assert diff("peters2019", peters2019.numbers(tmp_path / "runs", "smoke"), torch_fit=lambda row: True) == []
    # the smoke models learn: trained and scored on the same 20 lines per language, the sparse-output models
    # (output α 1.5 and 2) get most words right (issue 12); the pinned numbers above hold every value
    from sparselab.engine import record
    for rec in record.find(tmp_path / "runs", "smoke", "peters2019/table1_medium"):
        if rec["config"]["mapping"]["alpha"] > 1:
            assert rec["metrics"]["acc"] > 50, (rec["run_dir"], rec["metrics"]["acc"])
    # each trained run saved its model and vocabulary and wrote prediction files
    run_dirs = [p.parent for p in (tmp_path / "runs" / "smoke" / "peters2019" / "table1_medium").glob("*/run.json")]
    assert len(run_dirs) == 13
    for d in run_dirs:
        assert (d / "model.pt").exists() and (d / "vocab.json").exists()
        assert len(list((d / "predictions").iterdir())) == 3


@pytest.mark.slow
def test_model_selection_sees_the_last_training_step(tmp_path):
    """max_steps ending mid-epoch, between two val_check_interval checks: a final validation still runs."""
    env = _env(tmp_path)
    proc = warm.run([sys.executable, "-m", "sparselab.run", "experiment=peters2019/table1_medium",
                           "profile=smoke", "mapping.alpha=1.5", "mapping.attn_alpha=1.0", "seed=0",
                           "trainer.val_check_interval=4", "trainer.max_steps=7", "data.eval_per_language=2",
                           "data.train_per_language=100"],
                          cwd=PROJECT, env=env, capture_output=True, text=True, timeout=1800)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    recs = list((tmp_path / "runs").rglob("run.json"))
    assert len(recs) == 1
    rec = json.loads(recs[0].read_text())
    steps = [h["step"] for h in rec["extra"]["history"]]
    assert steps == [4, 7], steps


@pytest.mark.slow
def test_smoke_translation_run(smoke):
    """One smoke MT run end to end (1.5-entmax attention and output): record, files, BLEU reproducible by the CLI.
    The plan's Table 2 job at α 1.5 (de-en, seed 0) is that run: read from the module's smoke plan rather than
    trained again (it was tests/tasks/test_mt_translation.py's own `sparselab.run` job, the same config)."""

    runs = smoke[0] / "runs" / "smoke" / "peters2019" / "table2_mt"
    recs = {p.parent: json.loads(p.read_text()) for p in runs.glob("*/run.json")}
    ((run_dir, rec),) = [(d, r) for d, r in recs.items()
                         if (r["config"]["mapping"]["alpha"], r["config"]["mapping"]["attn_alpha"], r["config"]["seed"],
                             r["config"]["data"]["pair"]) == (1.5, 1.5, 0, "de-en")]
    assert rec["status"] == "finished"
    m, e = rec["metrics"], rec["extra"]
    for key in ("bleu", "bleu_tok", "exact_share", "single_share", "attn_support", "out_support", "val_acc_best",
                "train_tgt_tokens_per_s", "bleu_iwslt17", "bleu_tok_iwslt17"):
        assert key in m, key
    assert m["steps"] == 30 and len(e["history"]) == 3 and 0 < m["val_acc_best"] <= 100
    assert m["train_tgt_tokens_per_s"] > 0 and 0 <= m["exact_share"] <= 1
    assert e["splits"]["train"]["n"] == 300 and e["test"]["spec"] == "multi30k/test2016"
    # every BLEU in the record is reproduced by the sacrebleu CLI on the stored files
    for suffix, info in [("", e["test"])] + [(f"_{k}", v) for k, v in e["extra_test"].items()]:
        files = {k: run_dir / v for k, v in info["files"].items()}
        assert all("hyp" in files[k].name for k in ("detok.hyp", "tok.hyp"))
        assert sacrebleu_cli(files["detok.ref"], files["detok.hyp"], "13a") == round(m[f"bleu{suffix}"], 4)
        assert sacrebleu_cli(files["tok.ref"], files["tok.hyp"], "none") == round(m[f"bleu_tok{suffix}"], 4)
        assert len(files["detok.hyp"].read_text().splitlines()) == 20
    auto = e["autocomplete"]
    assert len(auto) == 2 and auto[0]["steps"][-1]["gold"] == "</s>"
    for a in auto:
        for s in a["steps"]:
            if s["support"] <= a["max_candidates"]:
                assert s["shown_mass"] == pytest.approx(1.0, abs=1e-9)


@pytest.mark.slow
def test_real_smoke_alpha_sweep_table_matches_records(smoke, tmp_path):
    """The sweep command on real smoke records: the plan's 13 Table 1 runs (output α 1, 1.5, 2 over attention α,
    seeds 0 and 1) grouped by mapping.alpha; every cell of its table is the mean ± std of the records' metrics.
    (It was tests/reports/test_reports_sweep.py's own 3-point α sweep with 2 seeds, 6 more training jobs.)"""
    import statistics

    import pandas as pd

    from sparselab.engine import record

    runs = smoke[0] / "runs" / "smoke" / "peters2019" / "table1_medium"
    out = tmp_path / "table"
    proc = warm.run([sys.executable, "-m", "sparselab.reports.sweep", str(runs), "--by", "mapping.alpha",
                           "--out", str(out)], cwd=PROJECT, env=smoke[1], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "13 records, 3 groups by mapping.alpha" in proc.stdout

    recs = record.find(runs, status=None)
    assert len(recs) == 13 and all(r["status"] == "finished" for r in recs)
    by_alpha: dict[float, list[dict]] = {}
    for r in recs:
        by_alpha.setdefault(r["config"]["mapping"]["alpha"], []).append(r)
    metrics = sorted(recs[0]["metrics"])
    assert {"acc", "edit_distance", "out_support", "attn_support"} <= set(metrics)

    md = (out / "sweep.md").read_text()
    rows = header_table(md)
    assert [r["mapping.alpha"] for r in rows] == ["1.0", "1.5", "2.0"]
    assert list(rows[0]) == ["mapping.alpha", "n", *metrics]
    csv = pd.read_csv(out / "sweep.csv")
    for row, (alpha, group), (_, crow) in zip(rows, sorted(by_alpha.items()), csv.iterrows()):
        assert float(row["mapping.alpha"]) == alpha and row["n"] == str(len(group)) and len(group) >= 3
        assert {r["config"]["seed"] for r in group} == ({0} if alpha == 1.5 else {0, 1})
        for m in metrics:
            vals = [r["metrics"][m] for r in group]
            mean, std = mean_std(row[m])
            # the Markdown shows 4 significant digits; the CSV keeps full precision
            assert mean == pytest.approx(statistics.mean(vals), rel=5e-4, abs=1e-12), (alpha, m)
            assert std == pytest.approx(statistics.stdev(vals), rel=5e-4, abs=1e-12), (alpha, m)
            assert crow[f"{m}_mean"] == pytest.approx(statistics.mean(vals), rel=1e-12, abs=1e-12)
            assert crow[f"{m}_std"] == pytest.approx(statistics.stdev(vals), rel=1e-9, abs=1e-12)
    # nothing failed; the one (α, seed) pair the plan leaves out (seed 1 runs only the cells of α 1 and 2) is listed
    # as missing (a complete sweep gives "None.": test_reports_sweep.py)
    missing = header_table(section(md, "## Failed"))
    assert [(r["mapping.alpha"], r["seed"], r["status"]) for r in missing] == [("1.5", "1", "no record")]
    flat = [m for m in metrics if len({r["metrics"][m] for r in recs}) == 1]   # e.g. epochs: the same in every run
    assert sorted(p.name for p in out.glob("*.png")) == sorted(f"{m}.png" for m in metrics if m not in flat)
    assert not flat or "so not plotted: " + ", ".join(f"`{m}`" for m in flat) + "." in md
