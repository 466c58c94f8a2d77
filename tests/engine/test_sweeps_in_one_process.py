"""``python -m sparselab.sweeps``: a sequential plan's sweeps in one process, each as ``python -m sparselab.run``
runs it (the pipelines' e2e tests run them for real)."""
from __future__ import annotations

import json
import runpy
import sys

import pytest

from sparselab import run, sweeps


def test_sweeps_run_in_order_and_the_first_failure_stops_the_rest(monkeypatch, capsys):
    ran = []
    monkeypatch.setattr(run.signals, "install", lambda: True)
    monkeypatch.setattr(run, "cli", lambda argv: ran.append(argv) or (2 if "bad=1" in argv else 0))
    assert sweeps.main([["-m", "experiment=a"], ["experiment=b", "bad=1"], ["-m", "experiment=c"]]) == 2
    assert ran == [["-m", "experiment=a"], ["experiment=b", "bad=1"]]
    out = capsys.readouterr().out.splitlines()
    assert out == [f"[sparselab] $ {sys.executable} -m sparselab.run -m experiment=a",
                   f"[sparselab] $ {sys.executable} -m sparselab.run experiment=b bad=1"]
    ran.clear()
    assert sweeps.main([["-m", "experiment=a"], ["-m", "experiment=c"]]) == 0 and len(ran) == 2


@pytest.mark.parametrize("argv, expected", [
    ([json.dumps([["-m", "experiment=a"]])], "plan"),
    # Lightning starts a DDP job's extra ranks as `python -m <the __main__ module> <the job's overrides>`
    (["experiment=a", "hydra.run.dir=x", "hydra.job.name=train_ddp_process_1"], "job"),
])
def test_the_module_runs_a_plan_or_a_ddp_rank_of_one_job(monkeypatch, argv, expected):
    got = []
    monkeypatch.setattr(run.signals, "install", lambda: True)
    monkeypatch.setattr(run, "cli", lambda a: got.append(("job", a)) or 0)
    monkeypatch.setattr(sys, "argv", ["sweeps.py", *argv])
    monkeypatch.delitem(sys.modules, "sparselab.sweeps", raising=False)
    with pytest.raises(SystemExit) as stop:
        runpy.run_module("sparselab.sweeps", run_name="__main__")
    assert stop.value.code == 0
    assert got == ([("job", ["-m", "experiment=a"])] if expected == "plan" else [("job", argv)])


def test_cli_gives_a_one_line_error_its_status_instead_of_exiting(capsys):
    """The checks before Hydra return the exit status (a process running several sweeps goes on to report it)."""
    assert run.cli(["experiment=martins2016/table2_multilabel", "profile=smoke", "paths.runs="]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and "paths.runs" in err[0]
