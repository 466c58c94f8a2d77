"""Every panel of each paper's W&B report reads a key that offline smoke runs logged; each paper's runs hold an
image, a histogram and a table (issue 23, acceptance 1 and 2).

Cheap by design: not the whole smoke plan (the Peters one alone takes 8-15 min) but one smoke job for every run set
of the report (the experiments the report reads, with the variant that logs the most: learned attention α),
run offline with W&B as a user's run would be. The keys are read back from each run's ``.wandb`` file
(``support.logged_keys``: ``wandb leet inspect --json``).
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
import wandb_workspaces.reports.v2 as wr

from sparselab.reports import wandb_report as W
from support import logs_every_media_kind, matches, missing_keys, offline_runs, panel_problems
import warm

PROJECT = Path(__file__).resolve().parents[2]

# one command line (a Hydra multirun of the smoke profile) per experiment the paper's report reads; Martins & Astudillo's
# runs are its smoke plan's own (test_martins2016_pipeline.py runs the plan with W&B offline and checks them there)
JOBS = {
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
        proc = warm.run([sys.executable, "-m", "sparselab.run", "-m", *argv, "profile=smoke", "logger=wandb",
                               f"paths.runs={runs_dir}"], cwd=PROJECT, env=env, capture_output=True, text=True,
                              timeout=900)
        assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    out = offline_runs(runs_dir.glob("smoke/*/*/*/wandb/offline-run-*"))
    assert out, f"no offline W&B run under {runs_dir}"
    _RUNS[paper] = out
    return out


@pytest.fixture(scope="session")
def runs_root(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("wandb_panels")


@pytest.mark.slow
@pytest.mark.parametrize("paper", list(JOBS))
def test_every_panel_reads_a_logged_key(paper, runs_root):
    assert panel_problems(W.build(paper, profile="smoke"), smoke_runs(paper, runs_root)) == []


@pytest.mark.slow
@pytest.mark.parametrize("paper", list(JOBS))
def test_each_paper_logs_an_image_a_histogram_and_a_table(paper, runs_root):
    assert logs_every_media_kind(smoke_runs(paper, runs_root))


def test_every_paper_is_checked():
    assert set(JOBS) | {"martins2016"} == set(W.PAPERS)


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
