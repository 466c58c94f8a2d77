"""A whole paper on a cluster (issue 36): ``pipelines/<paper>.py --launcher slurm`` submits every job of the plan
through the submitit launcher and writes the report when they have ended; a later ``--report-only`` builds it too.

Run through ``slurm_local``, the slurm launcher's code path on this machine (submitit's local executor), on the
smallest part of a smoke plan: Correia's learned output α (one job).
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

import warm

pytestmark = pytest.mark.slow
PROJECT = Path(__file__).resolve().parents[2]


def pipeline(runs: Path, *args: str):
    # no torch.compile, as in the other end-to-end tests (the compiled path: test_mappings_compiled.py)
    env = {**os.environ, "SPARSELAB_RUNS": str(runs), "OMP_NUM_THREADS": "1", "WANDB_MODE": "disabled",
           "SPARSELAB_COMPILE": "0"}
    return warm.run([sys.executable, str(PROJECT / "pipelines" / "correia2019.py"), "--profile", "smoke",
                           "--only", "correia2019/output_alpha", *args], capture_output=True, text=True, env=env,
                          cwd=PROJECT, timeout=900)


def test_smoke_plan_through_the_slurm_launcher_builds_its_report(tmp_path):
    runs = tmp_path / "runs"
    out = pipeline(runs, "--launcher", "slurm_local", "--out", str(tmp_path / "report"))
    assert out.returncode == 0, out.stderr[-3000:]
    assert "hydra/launcher=slurm_local" in out.stdout
    assert "1 of 1 planned jobs have a finished record" in out.stdout
    (rec,) = [json.loads(p.read_text()) for p in runs.rglob("run.json")]
    assert rec["status"] == "finished"
    # the job ran as a submitit task (its own process and log), not in the sweep's process
    assert list(runs.rglob(".submitit/*/*_log.out"))
    assert (tmp_path / "report" / "table1_bleu.md").is_file() and (tmp_path / "report" / "index.html").is_file()

    again = pipeline(runs, "--report-only", "--out", str(tmp_path / "again"))
    assert again.returncode == 0, again.stderr[-3000:]
    assert (tmp_path / "again" / "table1_bleu.md").read_text() == (tmp_path / "report" / "table1_bleu.md").read_text()
