"""An interrupted sweep resumes without redoing or losing finished runs.

Start the Martins 2016 smoke pipeline, SIGKILL it once some jobs have finished,
run it again: finished jobs keep their records untouched, and the final tables
are byte-identical to those of an uninterrupted run.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[1]
PIPELINE = PROJECT / "pipelines" / "martins2016.py"
TABLES = ("table2_multilabel.md", "figure3_label_proportions.md")


def pipeline(runs: Path, out: Path, **popen):
    env = {**os.environ, "SPARSELAB_RUNS": str(runs), "OMP_NUM_THREADS": "1", "WANDB_MODE": "disabled"}
    cmd = [sys.executable, str(PIPELINE), "--profile", "smoke", "--out", str(out)]
    return subprocess.Popen(cmd, cwd=PROJECT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **popen)


def finished(runs: Path) -> dict[str, tuple[str, int]]:
    out = {}
    for p in runs.rglob("run.json"):
        try:
            rec = json.loads(p.read_text())
        except json.JSONDecodeError:
            continue
        if rec.get("status") == "finished":
            out[str(p)] = (rec["started_at"], rec["pid"])
    return out


@pytest.mark.slow
def test_sigkilled_sweep_resumes_without_rerunning(tmp_path):
    reference = pipeline(tmp_path / "runs_ref", tmp_path / "out_ref")
    assert reference.wait(timeout=900) == 0

    runs = tmp_path / "runs"
    proc = pipeline(runs, tmp_path / "out", start_new_session=True)
    deadline = time.time() + 600
    while len(finished(runs)) < 3 and proc.poll() is None and time.time() < deadline:
        time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    before = finished(runs)
    assert len(before) >= 3, "the sweep did not get far enough to test resume"

    assert pipeline(runs, tmp_path / "out").wait(timeout=900) == 0
    after = finished(runs)
    assert len(after) > len(before), "the kill came after the last job: nothing was left to resume"
    for path, stamp in before.items():
        assert after[path] == stamp, f"{path} was re-run"
    for name in TABLES:
        assert (tmp_path / "out" / name).read_bytes() == (tmp_path / "out_ref" / name).read_bytes(), name
