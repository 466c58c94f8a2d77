"""Issue 57 item 6, and item 9's W&B half: a SIGTERM (``kill``, a scheduler's preemption) on an L-BFGS job (Martins
Figure 3 and Table 2) is an interruption, as on a Lightning job: one line, exit 130, the record ``interrupted``; the
same command runs it again; the two attempts are one W&B run (the job's identity is its id: two offline folders of
that one id). The user's command, in a subprocess; one interrupted and resumed Figure 3 job is shared by the tests."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .conftest import PROJECT

# one Figure 3 job of 4 seeds (the record of the resumed attempt keeps all 4)
FIGURE3 = ["experiment=martins2016/figure3_label_proportions", "profile=smoke", "hydra.mode=RUN",
           "data.num_labels=10", "data.mixture=uniform", "data.length=200", "task.loss=sparsemax",
           "task.seeds=[0,1,2,3]"]
# one Table 2 job (scene, 5 folds)
MULTILABEL = ["experiment=martins2016/table2_multilabel", "profile=smoke", "hydra.mode=RUN", "data.name=scene",
              "task.loss=sparsemax", "task.cv_folds=5", "task.l2_grid=[1e-4,1e-2,1]"]
pytestmark = pytest.mark.slow       # the user's command in a subprocess, three jobs
LINE = "interrupted: by SIGTERM; finished jobs are kept and a running job is recorded as 'interrupted'; run the same " \
       "command to resume"


# Loaded by the job's interpreter at start-up (a sitecustomize.py on its PYTHONPATH): the job's FIT-th L-BFGS fit sends
# SIGTERM to its own process from inside the objective that scipy's L-BFGS-B loop calls, so the signal lands mid-fit
# on any machine. A signal sent from the test after a log line landed by timing, once outside scipy's loop on a busy
# machine. Python runs the job's handler at the next bytecode, still inside the objective.
SIGTERM_HOOK = """
import os, signal, time
import scipy.optimize

_minimize, _fits = scipy.optimize.minimize, []


def minimize(fun, x0, *args, **kwargs):
    _fits.append(1)
    if len(_fits) != int(os.environ["SIGTERM_AT_FIT"]):
        return _minimize(fun, x0, *args, **kwargs)
    calls = []

    def objective(x):
        calls.append(1)
        if len(calls) == 2:
            with open(os.environ["SIGTERM_SENT"], "w") as f:
                f.write(repr(time.time()))
            os.kill(os.getpid(), signal.SIGTERM)
        return fun(x)
    return _minimize(objective, x0, *args, **kwargs)


scipy.optimize.minimize = minimize
"""


def _env(runs: Path, wandb: str, sigterm_at_fit: int | None = None) -> dict:
    env = {**os.environ, "SPARSELAB_RUNS": str(runs), "OMP_NUM_THREADS": "1", "WANDB_MODE": wandb}
    if sigterm_at_fit is not None:
        hook = runs.parent / "sigterm_hook"
        hook.mkdir(exist_ok=True)
        (hook / "sitecustomize.py").write_text(SIGTERM_HOOK)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(hook), os.environ.get("PYTHONPATH")]))
        env["SIGTERM_AT_FIT"] = str(sigterm_at_fit)
        env["SIGTERM_SENT"] = str(hook / "sent")
    return env


def _record(runs: Path) -> tuple[Path, dict]:
    (path,) = list(runs.rglob("run.json"))
    return path.parent, json.loads(path.read_text())


def terminate_at_fit(runs: Path, overrides: list[str], fit: int, wandb: str = "offline") -> dict:
    """Run the job; its ``fit``-th L-BFGS fit SIGTERMs the job from inside scipy's loop (SIGTERM_HOOK); ``exit_s``:
    from the signal to the process's end."""
    env = _env(runs, wandb, sigterm_at_fit=fit)
    proc = subprocess.run([sys.executable, "-m", "sparselab.run", *overrides], cwd=PROJECT, env=env,
                          capture_output=True, text=True, timeout=300)
    ended = time.time()
    sent = Path(env["SIGTERM_SENT"])
    assert sent.is_file(), "the job ended before its fit could be stopped"
    run_dir, rec = _record(runs)
    return {"rc": proc.returncode, "err": proc.stderr, "run_dir": run_dir, "record": rec,
            "exit_s": ended - float(sent.read_text())}


@pytest.fixture(scope="module")
def figure3(tmp_path_factory):
    runs = tmp_path_factory.mktemp("sigterm") / "runs"
    first = terminate_at_fit(runs, FIGURE3, fit=5)     # 3 L2 values x 2 CV folds, then the full fits: seed 0's 5th
    again = subprocess.run([sys.executable, "-m", "sparselab.run", *FIGURE3], cwd=PROJECT, env=_env(runs, "offline"),
                           capture_output=True, text=True, timeout=300)
    run_dir, rec = _record(runs)
    return {"first": first, "again": {"rc": again.returncode, "err": again.stderr, "run_dir": run_dir, "record": rec}}


def _stopped_inside_lbfgs(rec: dict) -> None:
    assert rec["status"] == "interrupted"
    assert rec["error"].startswith("Terminated: SIGTERM"), rec["error"]
    # raised in scipy's L-BFGS-B loop (the objective runs in Python between two `setulb` calls), in a fit of ours
    tb = rec["traceback"]
    assert "scipy/optimize/_lbfgsb_py.py" in tb and "sparselab/models/linear.py" in tb, tb[-2000:]
    assert tb.index("sparselab/models/linear.py") < tb.index("scipy/optimize/_lbfgsb_py.py"), tb[-2000:]


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
    got = terminate_at_fit(tmp_path / "runs", MULTILABEL, fit=4, wandb="disabled")     # fold 2's first fit
    assert got["rc"] == 130, got["err"][-3000:]
    assert got["err"].strip().splitlines() == [LINE], got["err"][-3000:]
    _stopped_inside_lbfgs(got["record"])
