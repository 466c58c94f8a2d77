"""Issue 57 item 7: `make reproduce-correia2019` ran the speed benchmark first (silent for minutes, into the committed
reports/correia2019/<profile>/speed.md) and only then the data check, which fails offline. Now the pipeline runs it
(``--benchmark``) after the data check, before the sweeps, with its progress on stderr, into the report folder being
built."""
from __future__ import annotations

import dataclasses
import subprocess

from .conftest import PROJECT, error_lines, tracked_state

# the smoke model, few steps: the order and the output are tested here, not the speeds
QUICK = ("--quick", "--breakdown", "never", "--threads", "1", "--pairs", "256", "--steps", "2")


def _pipeline():
    from support import load_script

    return load_script("pipelines/correia2019.py", "pipeline_correia2019")


def test_make_reproduce_runs_the_pipeline_with_its_benchmark():
    """One command: the pipeline with --benchmark (its data check first); nothing written into reports/ by make."""
    proc = subprocess.run(["make", "-n", "reproduce-correia2019", "PROFILE=smoke"], cwd=PROJECT, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = [line for line in proc.stdout.splitlines() if "python" in line and "-c" not in line.split()]
    assert any("pipelines/correia2019.py --profile smoke --benchmark" in line for line in lines), proc.stdout
    assert not any("bench_transformer_speed.py" in line or "reports/correia2019" in line for line in lines), lines


def test_offline_the_data_check_stops_before_the_benchmark(tmp_path, monkeypatch, capfd, committed_before):
    from sparselab.reports.runner import main

    monkeypatch.setenv("SPARSELAB_RUNS", str(tmp_path / "runs"))
    monkeypatch.setenv("SPARSELAB_DATA", str(tmp_path / "no_data"))
    monkeypatch.setenv("SPARSELAB_FETCH_BASE_URL", "http://127.0.0.1:9")       # offline: connection refused
    mod = _pipeline()
    assert main(mod.report, mod.PLANS, ["--profile", "cpu", "--benchmark"]) == 2
    out = capfd.readouterr()
    err = error_lines(out.err)
    assert len(err) == 1 and "could not be downloaded" in err[0], out.err
    assert "[bench]" not in out.err and "benchmark" not in out.out
    assert not list(tmp_path.rglob("speed.md"))
    assert tracked_state() == committed_before                 # reports/correia2019/cpu/speed.md as committed


def test_the_benchmark_runs_after_the_data_check_into_the_report_folder(tmp_path, monkeypatch, capfd,
                                                                         committed_before):
    from sparselab.reports import runner

    mod = _pipeline()
    smoke = mod.PLANS["smoke"]
    monkeypatch.setitem(mod.PLANS, "smoke", dataclasses.replace(smoke, benchmark=(*smoke.benchmark, *QUICK)))
    monkeypatch.setenv("SPARSELAB_RUNS", str(tmp_path / "runs"))
    monkeypatch.setenv("SPARSELAB_COMPILE", "0")
    out = tmp_path / "report"
    started = []
    # the sweeps are not what is tested: note what is on disk when they would start, run none
    monkeypatch.setattr(runner, "run_plan", lambda *a, **k: started.append((out / "speed.md").is_file()))
    code = runner.main(mod.report, mod.PLANS, ["--profile", "smoke", "--benchmark", "--out", str(out)])
    text = capfd.readouterr()
    assert started == [True], text.err[-2000:]                  # written before the sweeps
    assert code == 2 and "has a finished record" in text.err    # no sweep ran, so no record: the report stops
    assert f"benchmark (before the sweeps, on an idle machine) -> {out / 'speed.md'}" in text.out
    progress = [line for line in text.err.splitlines() if line.startswith("[bench] ")]
    assert any("round 2/2" in line for line in progress) and progress[-1] == f"[bench] written {out / 'speed.md'}"
    assert "| softmax |" in (out / "speed.md").read_text()
    assert tracked_state() == committed_before


def test_a_committed_profile_gets_its_speed_md_in_the_runs_report_folder(tmp_path, monkeypatch):
    """cpu (committed): the report, and so speed.md, goes to <runs>/reports/correia2019/cpu unless --out or
    --replace-committed says otherwise."""
    from sparselab.reports import runner

    target = runner.choose_target("correia2019", "cpu", None, False, tmp_path / "runs")
    calls = []
    monkeypatch.setattr(runner.subprocess, "run", lambda cmd, **k: calls.append(cmd) or subprocess.CompletedProcess(
        cmd, 0))
    runner.run_benchmark("correia2019", _pipeline().PLANS["cpu"], "cpu", target, None)
    (cmd,) = calls
    assert cmd[cmd.index("--out") + 1] == str(tmp_path / "runs" / "reports" / "correia2019" / "cpu" / "speed.md")
    assert cmd[cmd.index("--profile") + 1] == "cpu"
    calls.clear()
    runner.run_benchmark("correia2019", _pipeline().PLANS["cpu"], "cpu", target, "slurm")   # times the login node
    assert calls == []
