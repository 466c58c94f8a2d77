"""Issue 57 item 6, and item 9's W&B half: a SIGTERM (``kill``, a scheduler's preemption) on an L-BFGS job (Martins
Figure 3 and Table 2) is an interruption, as on a Lightning job: one line, exit 130, the record ``interrupted``; the
same command runs it again; the two attempts are one W&B run (the job's identity is its id: two offline folders of
that one id). The user's command, in a subprocess; one interrupted and resumed Figure 3 job is shared by the tests."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .conftest import PROJECT

# one Figure 3 job made slow enough (K=50, 1200 documents, 4 seeds: ~1.6 s of L-BFGS a seed) to be stopped mid-fit
FIGURE3 = ["experiment=martins2016/figure3_label_proportions", "profile=smoke", "hydra.mode=RUN",
           "data.num_labels=50", "data.mixture=uniform", "data.length=2000", "task.loss=sparsemax", "data.n_train=1200",
           "task.seeds=[0,1,2,3]"]
# one Table 2 job (scene, 5 folds, a longer L2 path: ~1 s of L-BFGS a fold)
MULTILABEL = ["experiment=martins2016/table2_multilabel", "profile=smoke", "hydra.mode=RUN", "data.name=scene",
              "task.loss=sparsemax", "task.cv_folds=5", "task.l2_grid=[1e-8,1e-6,1e-4,1e-2,1]", "task.max_iter=300"]
pytestmark = pytest.mark.slow       # the user's command in a subprocess, three jobs
LINE = "interrupted: by SIGTERM; finished jobs are kept and a running job is recorded as 'interrupted'; run the same " \
       "command to resume"


def _env(runs: Path, wandb: str) -> dict:
    return {**os.environ, "SPARSELAB_RUNS": str(runs), "OMP_NUM_THREADS": "1", "WANDB_MODE": wandb}


def _record(runs: Path) -> tuple[Path, dict]:
    (path,) = list(runs.rglob("run.json"))
    return path.parent, json.loads(path.read_text())


def terminate_when(runs: Path, overrides: list[str], marker: str, delay_s: float, wandb: str = "offline") -> dict:
    """Run the job, SIGTERM it ``delay_s`` after its log prints ``marker`` (inside the L-BFGS fits that follow)."""
    cmd = [sys.executable, "-m", "sparselab.run", *overrides]
    proc = subprocess.Popen(cmd, cwd=PROJECT, env=_env(runs, wandb), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    for line in proc.stdout:
        if marker in line:
            break
    assert proc.poll() is None, "the job ended before it could be stopped"
    time.sleep(delay_s)
    proc.send_signal(signal.SIGTERM)
    t0 = time.time()
    _, err = proc.communicate(timeout=120)
    run_dir, rec = _record(runs)
    return {"rc": proc.returncode, "err": err, "run_dir": run_dir, "record": rec, "exit_s": time.time() - t0}


@pytest.fixture(scope="module")
def figure3(tmp_path_factory):
    runs = tmp_path_factory.mktemp("sigterm") / "runs"
    first = terminate_when(runs, FIGURE3, "seed 0:", 0.6)
    again = subprocess.run([sys.executable, "-m", "sparselab.run", *FIGURE3], cwd=PROJECT, env=_env(runs, "offline"),
                           capture_output=True, text=True, timeout=300)
    run_dir, rec = _record(runs)
    return {"first": first, "again": {"rc": again.returncode, "err": again.stderr, "run_dir": run_dir, "record": rec}}


def _stopped_inside_lbfgs(rec: dict) -> None:
    assert rec["status"] == "interrupted"
    assert rec["error"].startswith("Terminated: SIGTERM"), rec["error"]
    # raised inside the L2 path of L-BFGS fits (models/linear.py): mostly within scipy's L-BFGS-B loop (its objective
    # runs in Python between two `setulb` calls), sometimes in the held-out scoring between two fits (a busy machine
    # moved the signal there once in three clean-clone runs on 2026-12-06); either is mid-fit
    assert "sparselab/models/linear.py" in rec["traceback"], rec["traceback"][-2000:]


def test_sigterm_on_an_lbfgs_job_is_one_line_exit_130_and_recorded(figure3):
    first = figure3["first"]
    assert first["rc"] == 130, first["err"][-3000:]
    assert first["err"].strip().splitlines() == [LINE], first["err"][-3000:]
    _stopped_inside_lbfgs(first["record"])
    assert first["exit_s"] < 30          # stops within one objective evaluation, then records and closes W&B


def test_the_same_command_runs_the_interrupted_job_again(figure3):
    first, again = figure3["first"], figure3["again"]
    assert again["rc"] == 0, again["err"][-3000:]
    assert again["run_dir"] == first["run_dir"]
    rec = again["record"]
    assert rec["status"] == "finished" and rec["config_hash"] == first["record"]["config_hash"]
    assert len(rec["extra"]["per_seed"]) == 4 and "error" not in rec


def test_both_attempts_are_one_wandb_run_named_by_the_job(figure3):
    """Item 9: W&B's id is the job's identity (resume='allow'): `wandb sync` uploads the two offline folders into
    one run, where a random id per attempt made two runs of one job."""
    job = figure3["again"]["record"]["config_hash"]
    runs = sorted((figure3["again"]["run_dir"] / "wandb").glob("offline-run-*"))
    assert len(runs) == 2, runs
    for run in runs:
        assert run.name.endswith(f"-{job}"), run.name
        assert (run / f"run-{job}.wandb").is_file(), sorted(p.name for p in run.iterdir())


def test_sigterm_on_a_multilabel_job_is_recorded(tmp_path):
    got = terminate_when(tmp_path / "runs", MULTILABEL, "fold 1/5", 0.3, wandb="disabled")
    assert got["rc"] == 130, got["err"][-3000:]
    assert got["err"].strip().splitlines() == [LINE], got["err"][-3000:]
    _stopped_inside_lbfgs(got["record"])
