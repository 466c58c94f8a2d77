"""Every panel of each paper's W&B report reads a key that offline smoke runs logged; each paper's runs hold an
image, a histogram and a table (issue 23, acceptance 1 and 2).

Cheap by design: not the whole smoke plan (the Peters one alone takes 8-15 min) but one smoke job for every run set
of the report (the experiments the report reads, with the variant that logs the most: learned attention α),
run offline with W&B as a user's run would be. The keys are read back from each run's ``.wandb`` file
(``sparselab.reports.wandb_report.logged_keys``: ``wandb leet inspect --json``).
"""
from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import wandb_workspaces.reports.v2 as wr

from sparselab.reports import wandb_report as W

PROJECT = Path(__file__).resolve().parents[1]

# one command line (a Hydra multirun of the smoke profile) per experiment the paper's report reads
JOBS = {
    "martins2016": [
        ["experiment=martins2016/table2_multilabel", "data.name=emotions", "task.loss=sparsemax"],
        ["experiment=martins2016/figure3_label_proportions", "data.num_labels=10,50", "data.length=200",
         "data.mixture=uniform", "task.loss=sparsemax"],
        ["experiment=martins2016/table3_snli", "task.attention=learned", "task.l2=0", "seed=0"],
    ],
    "peters2019": [
        ["experiment=peters2019/table1_medium", "mapping=learnable", "mapping.alpha=1.5", "mapping.attn_alpha=1.5",
         "seed=0"],
        ["experiment=peters2019/table2_mt", "data.pair=de-en", "mapping.alpha=1.5"],
    ],
    "correia2019": [
        ["experiment=correia2019/table1_bleu", "mapping=alpha_entmax", "data.pair=de-en"],
    ],
}
_RUNS: dict[str, list[dict]] = {}


def smoke_runs(paper: str, root: Path) -> list[dict]:
    """``[{"group", "config" (flat), "keys" ({key: kinds})}]`` of the paper's offline smoke runs (made once)."""
    if paper in _RUNS:
        return _RUNS[paper]
    env = dict(os.environ, OMP_NUM_THREADS="1", SPARSELAB_COMPILE="0", WANDB_MODE="offline", WANDB_SILENT="true",
               HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1", PYTHONPATH=str(PROJECT / "src"))
    runs_dir = root / paper
    for argv in JOBS[paper]:
        proc = subprocess.run([sys.executable, "-m", "sparselab.run", "-m", *argv, "profile=smoke", "logger=wandb",
                               f"paths.runs={runs_dir}"], cwd=PROJECT, env=env, capture_output=True, text=True,
                              timeout=900)
        assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    out = []
    for run_dir in sorted(runs_dir.glob("smoke/*/*/*/wandb/offline-run-*")):
        keys = W.logged_keys(run_dir)
        out.append({"dir": run_dir, "keys": keys, "values": _config_values(run_dir)})
    assert out, f"no offline W&B run under {runs_dir}"
    _RUNS[paper] = out
    return out


def _config_values(run_dir: Path) -> dict:
    """The flat config of the job (its run record, beside the wandb folder), and its W&B group."""
    import json

    from sparselab.reports.sweep import flatten

    rec = json.loads((run_dir.parents[1] / "run.json").read_text())
    return {**flatten(rec["config"]), "Group": rec["config"]["experiment_name"]}


TERM = re.compile(r"""(Metric|Config)\("([^"]+)"\) == ('[^']*'|[-0-9.eE]+|True|False|None)""")


def matches(runset: wr.Runset, run: dict) -> bool:
    """Whether a run passes the run set's filter: a conjunction of ``Metric("Group") == …`` / ``Config(k) == v``
    terms, as ``wandb_report`` builds them (anything else in the filter is a failure of this test)."""
    terms = TERM.findall(runset.filters)
    rest = TERM.sub("", runset.filters).replace("and", "").strip()
    assert terms and not rest, f"filter not understood by this test: {runset.filters!r}"
    return all(run["values"].get(name) == ast.literal_eval(value) for _, name, value in terms)


def missing_keys(grid: wr.PanelGrid, runs: list[dict]) -> list[str]:
    """Panels of ``grid`` reading a key that none of the grid's runs logged, as ``title: where key``."""
    selected = [r for r in runs if any(matches(rs, r) for rs in grid.runsets)]
    if not selected:
        return [f"run sets {[rs.name for rs in grid.runsets]}: no smoke run matches"]
    bad = []
    for panel in grid.panels:
        for where, key in W.panel_keys(panel):
            if where == "regex":
                ok = any(re.search(key, k) and "history" in kinds for r in selected for k, kinds in r["keys"].items())
            else:
                ok = any(where in r["keys"].get(key, ()) for r in selected)
            if not ok:
                bad.append(f"{W.describe(panel)['title']}: {where} {key}")
    return bad


@pytest.fixture(scope="session")
def runs_root(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("wandb_panels")


@pytest.mark.slow
@pytest.mark.parametrize("paper", list(W.PAPERS))
def test_every_panel_reads_a_logged_key(paper, runs_root):
    runs = smoke_runs(paper, runs_root)
    report = W.build(paper, profile="smoke")
    grids = [b for b in report.blocks if isinstance(b, wr.PanelGrid)]
    assert grids and sum(len(g.panels) for g in grids) >= 10
    assert [m for g in grids for m in missing_keys(g, runs)] == []


@pytest.mark.slow
@pytest.mark.parametrize("paper", list(W.PAPERS))
def test_each_paper_logs_an_image_a_histogram_and_a_table(paper, runs_root):
    runs = smoke_runs(paper, runs_root)
    kinds = {kind: sorted({k for r in runs for k, ks in r["keys"].items() if kind in ks})
             for kind in ("image-file", "histogram", "table-file")}
    assert all(kinds.values()), kinds
    # the files behind them are in the offline runs, ready for `wandb sync`
    media = [p for r in runs for p in (r["dir"] / "files" / "media").rglob("*") if p.is_file()]
    assert any(p.suffix == ".png" for p in media) and any(p.name.endswith(".table.json") for p in media)


def test_filter_matching_and_missing_keys_on_made_up_runs():
    """The checker itself: a panel whose key no run logged is reported; a run outside the run set does not count."""
    rs = wr.Runset(name="g", filters='Metric("Group") == \'x/y\' and Config("profile.name") == \'smoke\'')
    grid = wr.PanelGrid(runsets=[rs], panels=[wr.LinePlot(title="acc", x=W.STEP, y=["val_acc"]),
                                              wr.ScatterPlot(title="s", x=wr.Config("mapping.alpha"),
                                                             y=wr.SummaryMetric("bleu")),
                                              wr.LinePlot(title="r", x=W.STEP, metric_regex="^alpha/"),
                                              wr.MediaBrowser(title="m", media_keys=["attention/maps"])])
    inside = {"values": {"Group": "x/y", "profile.name": "smoke"},
              "keys": {"val_acc": {"history"}, "mapping.alpha": {"config"}, "alpha/h0": {"history"}}}
    outside = {"values": {"Group": "other", "profile.name": "smoke"},
               "keys": {"bleu": {"summary"}, "attention/maps": {"history", "image-file"}}}
    assert matches(rs, inside) and not matches(rs, outside)
    assert missing_keys(grid, [inside, outside]) == ["s: summary bleu", "m: history attention/maps"]
    assert missing_keys(grid, [outside]) == ["run sets ['g']: no smoke run matches"]
