"""Shared report helpers (sparselab.reports): cells, tables, reference lookup, paths, index, runner."""
from __future__ import annotations

import json
import subprocess
import threading
import time
from pathlib import Path

import pytest

from sparselab.engine import record
from sparselab.reports import index, numbers, runner
from sparselab.reports.records import data_relative, load, relative_run, scrub
from sparselab.reports.reference import ReferenceMissing, reference, table_cell
from sparselab.reports.tables import MISSING, NOT_RUN, alpha_cell, best_keys, delta, fmt, md_table, pct, seed_mean

from support import broken_links, links
from support import load_script

PROJECT = Path(__file__).resolve().parents[2]


# ---------------------------------------------------------------- cells
def test_fmt_cells():
    assert fmt(None) == "–"
    assert fmt(0.5) == "0.50" and fmt(83.456) == "83.46" and fmt(1.0) == "1.00"
    assert fmt(0.123456, digits=4) == "0.1235"
    assert fmt(3) == "3" and fmt("x") == "x" and fmt(NOT_RUN) == "not run in this profile"
    assert pct(0.12345) == "12.35" and pct(1.0) == "100.00"


def test_an_alpha_of_the_grid_keeps_its_third_decimal():
    # fmt's 2 decimals would print Figure 4's 1.125 and 1.375 as 1.12 and 1.38, points the grid does not have
    assert [alpha_cell(a) for a in (1.0, 1.5, 1.125, 1.375, 1.625, 2.25)] == \
        ["1.00", "1.50", "1.125", "1.375", "1.625", "2.25"]


def test_md_table_formats_every_cell():
    text = md_table(["a", "b", "c"], [[1.0, None, "**x**"], [2, 0.125, MISSING]])
    assert text == "| a | b | c |\n|---|---|---|\n| 1.00 | – | **x** |\n| 2 | 0.12 | missing run |\n"


def test_best_keys_ties_and_rounding():
    assert best_keys({}) == set()
    assert best_keys({"a": 0.5, "b": 0.7, "c": 0.6}) == {"b"}
    assert best_keys({"a": 0.7, "b": 0.7 - 1e-9, "c": 0.6}) == {"a", "b"}     # equal to 6 decimals: both best
    assert best_keys({"a": 0.7, "b": 0.69999}) == {"a"}


def test_seed_mean_and_delta():
    recs = [{"metrics": {"acc": 10.0}}, {"metrics": {"acc": 20}}, {"metrics": {}}]
    assert seed_mean(recs, "acc") == 15.0
    assert seed_mean(recs, "edit_distance") is None and seed_mean([], "acc") is None
    assert delta(85.0, 84.5) == 0.5 and delta(None, 1.0) is None and delta(1.0, None) is None


def test_reference_columns(tmp_path):
    p = tmp_path / "papers.yaml"
    p.write_text("peters2019:\n  t1:\n    columns: [high_avg, medium_avg]\n    rows: {'1.0,1.5': [93.5, 82.25]}\n"
                 "  t2:\n    rows: {'1.0,1.5': [1, 2]}\n")
    ref = reference("peters2019", p)
    assert table_cell(ref, "t1", "1.0,1.5", "medium_avg") == 82.25
    assert table_cell(ref, "t1", "2.0,2.0", "medium_avg") is None          # row not in the paper
    assert table_cell(ref, "t1", "1.0,1.5", "low_avg") is None              # column not in the paper
    assert table_cell(ref, "t2", "1.0,1.5", "b", columns=["a", "b"]) == 2.0  # column order given by the caller
    assert table_cell(ref, "absent", "1.0,1.5", "a") is None
    for paper, path in (("martins2016", p), ("x", tmp_path / "missing.yaml")):   # never blank columns
        with pytest.raises(ReferenceMissing, match="nothing written"):
            reference(paper, path)


# ---------------------------------------------------------------- paths
def test_paths_are_named_relative_to_their_roots(tmp_path):
    assert relative_run(tmp_path / "smoke" / "exp" / "a=1", tmp_path) == "smoke/exp/a=1"
    assert relative_run("/elsewhere/x/smoke/exp/a=1", tmp_path) == "smoke/exp/a=1"
    msg = (f"dataset 'reuters_rcv1v2' not found: expected mulan/rcv1v2/x.arff (or LIBSVM rcv1_topics) under data root "
           f"{tmp_path}. Fetch it with `python -m sparselab.data fetch reuters_rcv1v2`.")
    out = data_relative(msg, tmp_path)
    assert str(tmp_path) not in out
    assert "expected <data root>/mulan/rcv1v2/x.arff (or LIBSVM rcv1_topics). Fetch it" in out
    assert data_relative(f"see {tmp_path}/mulan", tmp_path) == "see <data root>/mulan"
    assert scrub(f"run {tmp_path}/smoke/x and {PROJECT}/conf", runs=tmp_path) == "run <runs root>/smoke/x and <project>/conf"


def test_load_uses_the_record_finder(tmp_path):
    for name, status in (("a", "finished"), ("b", "failed"), ("c", "finished")):
        record.write(tmp_path / "smoke" / "paper" / "exp" / name, {"status": status, "metrics": {"acc": 1.0}})
    (tmp_path / "smoke" / "paper" / "exp" / "torn").mkdir()
    (tmp_path / "smoke" / "paper" / "exp" / "torn" / "run.json").write_text("{")
    recs = load(tmp_path, "smoke", "paper/exp")
    assert [Path(r["run_dir"]).name for r in recs] == ["a", "c"]
    only_c = load(tmp_path, "smoke", "paper/exp", where=lambda r: Path(r["run_dir"]).name == "c")
    assert [Path(r["run_dir"]).name for r in only_c] == ["c"]
    assert load(tmp_path, "cpu", "paper/exp") == []


# ---------------------------------------------------------------- index.html, runs.jsonl
def fake_recs(runs: Path) -> list[dict]:
    out = []
    for i, commit in enumerate(("abc123", "abc123", "def456-dirty")):
        d = runs / "smoke" / "paper" / "exp" / f"seed={i}"
        out.append({"run_dir": str(d), "experiment": "paper/exp", "status": "finished", "config_hash": f"h{i}",
                    "git_commit": commit, "finished_at": f"2026-01-0{i + 1}T10:00:00+0000", "wall_time_s": 1.5,
                    "device": "cpu (x86_64)", "versions": {"torch": "2.13.0"},
                    "config": {"seed": i, "paths": {"runs": str(runs)}, "data": {"root": "/abs/data", "name": "d"}},
                    "metrics": {"acc": 0.5 + i}, "best": {}})
    return out


def test_write_configs_drops_machine_paths(tmp_path):
    runs = tmp_path / "runs"
    path = index.write_configs(tmp_path, fake_recs(runs), runs)
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    assert [r["run"] for r in rows] == ["smoke/paper/exp/seed=0", "smoke/paper/exp/seed=1", "smoke/paper/exp/seed=2"]
    assert "paths" not in rows[0]["config"] and rows[0]["config"]["data"]["root"] == "<data root>"
    assert str(tmp_path) not in path.read_text() and "/abs/data" not in path.read_text()


def test_index_renders_tables_figures_and_provenance(tmp_path):
    runs = tmp_path / "runs"
    out = tmp_path / "report"
    out.mkdir()
    (out / "t.md").write_text("# T\n\nProfile: **smoke**.\n\n" + md_table(["x", "y"], [[1.0, "**2.00**"]]))
    (out / "f.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (out / "p.csv").write_text("a,b\n1,<2>\n")
    items = [("Table", "t.md", "a table"), ("Figure", "f.png", "a figure"), ("CSV", "p.csv", "per row"),
             ("Absent", "absent.md", "not written")]
    html = index.write_index(out, "Title & co", items, fake_recs(runs), notes="profile **smoke**; `code`",
                             runs=runs).read_text()
    assert "<table>" in html and "<td><strong>2.00</strong></td>" in html      # Markdown table rendered inline
    assert "<img src='f.png' alt='Figure'>" in html
    assert "<td>&lt;2&gt;</td>" in html                                       # CSV rendered as an escaped table
    assert "profile <strong>smoke</strong>; <code>code</code>" in html and "**" not in html
    assert "<h3>T</h3>" in html                                                # report headings sit below sections
    # a file that is not there gets no link and no section, only its name under "not in this folder"
    assert "href='absent.md'" not in html and "Not in this folder" in html and "Absent (absent.md)" in html
    assert broken_links(out / "index.html") == [] and {"t.md", "f.png", "p.csv"} <= set(links(out / "index.html"))
    for expected in ("abc123", "def456-dirty", "2026-01-01T10:00:00+0000", "2026-01-03T10:00:00+0000", "h0", "h2",
                     "smoke/paper/exp/seed=1", "Title &amp; co"):
        assert expected in html, expected
    assert str(tmp_path) not in html and "/abs/data" not in html



def test_index_opens_with_the_verdict_counts_of_the_typed_claims_and_the_smoke_caveat(tmp_path):
    from sparselab.reports.claims import Claim, Verdict

    (tmp_path / "claims.md").write_text("| claim | verdict |\n|---|---|\n| A | holds |\n")
    found = [Claim("A", "§1", "q", Verdict.HOLDS), Claim("B", "§2", "q", Verdict.FAILS),
             Claim("C", "§3", "q", Verdict.UNTESTED, reason="not run")]
    items = [("Claims", "claims.md", "d")]
    smoke = index.write_index(tmp_path, "t", items, [], runs=tmp_path, profile="smoke", claims=found).read_text()
    head = smoke.split("<nav>", 1)[0]
    assert "Smoke profile:" in head and "test the plumbing, not the paper" in head
    assert "3 claims" in head and "1 holds, 1 does not hold, 1 untested" in head
    assert "<td>&quot;C&quot; (§3)</td><td>untested (not run)</td><td><a href='#a0'>claims.md</a></td>" in head
    cpu = index.write_index(tmp_path, "t", items, [], runs=tmp_path, profile="cpu").read_text()
    assert "Smoke profile" not in cpu and "No claim has a verdict" in cpu.split("<nav>", 1)[0]


# ---------------------------------------------------------------- numbers
def test_numbers_diff():
    want = {"r1": {"acc": 1.0, "js": 0.5}, "r2": {"acc": 2.0}}
    assert numbers.diff({"r1": {"acc": 1.0 + 1e-9, "js": 0.5}, "r2": {"acc": 2.0}}, want) == []
    problems = numbers.diff({"r1": {"acc": 1.1}, "r3": {"acc": 0.0}}, want)
    assert problems == ["r2: missing", "r3: unexpected row", "r1: acc = 1.1, expected 1.0",
                        "r1: js only in expected numbers"]


# ---------------------------------------------------------------- runner and pipelines
def load_pipeline(name: str):
    path = PROJECT / "pipelines" / f"{name}.py"
    assert "sys.path" not in path.read_text()
    return load_script(f"pipelines/{name}.py", f"pipeline_{name}")


def sweeps_of(cmd) -> list[list[str]]:
    """The ``python -m sparselab.run`` arguments of each sweep a runner subprocess runs: a sequential plan starts
    one process for all its sweeps (``-m sparselab.sweeps JSON``), lanes and submitit one per sweep."""
    if cmd[1:3] == ["-m", "sparselab.sweeps"]:
        assert len(cmd) == 4, cmd
        return json.loads(cmd[3])
    assert cmd[1:3] == ["-m", "sparselab.run"], cmd
    return [cmd[3:]]


def commands(monkeypatch, plan, profile, jobs=None, runs="/r"):
    calls, procs = [], []

    class Finished:  # the runner's sweep subprocess, as if it ran and exited 0
        def __init__(self, cmd, **kw):
            procs.append(cmd)
            calls.extend(sweeps_of(cmd))

        def wait(self):
            return 0

    monkeypatch.setattr(subprocess, "Popen", Finished)
    runner.run_plan(plan, profile, jobs, runs)
    if runner.lane_count(plan.launcher, jobs) == 1 and plan.launcher not in runner.SUBMITIT:
        assert len(procs) == 1          # a sequential plan: every sweep in one process
    return calls


def test_pipelines_are_plans_over_the_shared_runner(monkeypatch):
    peters, martins = load_pipeline("peters2019"), load_pipeline("martins2016")
    assert set(peters.PLANS) == set(martins.PLANS) == set(runner.PROFILES)
    mt = "experiment=peters2019/table2_mt"
    assert commands(monkeypatch, peters.PLANS["smoke"], "smoke") == [
        ["-m", "experiment=peters2019/baseline_medium", "profile=smoke", "paths.runs=/r"],
        ["-m", "experiment=peters2019/table1_medium", "profile=smoke", "paths.runs=/r", "seed=0"],
        ["-m", "experiment=peters2019/table1_medium", "profile=smoke", "paths.runs=/r", "mapping.alpha=1.0,2.0",
         "mapping.attn_alpha=1.0,2.0", "seed=1"],
        ["-m", "experiment=peters2019/ensemble_medium", "profile=smoke", "paths.runs=/r", "mapping.alpha=1.0,2.0",
         "mapping.attn_alpha=1.0,2.0"],
        ["-m", mt, "profile=smoke", "paths.runs=/r", "data.pair=de-en", "seed=0"],
        ["-m", mt, "profile=smoke", "paths.runs=/r", "data.pair=de-en", "mapping.alpha=1.5", "mapping.attn_alpha=2.0",
         "seed=0"],
        ["-m", mt, "profile=smoke", "paths.runs=/r", "data.pair=de-en", "mapping.attn_alpha=1.5", "mapping.alpha=1.25",
         "seed=0"]]
    launcher = []     # --jobs 1: one lane, Hydra's basic launcher (the lanes of --jobs 2: test_lanes_...)
    cpu = commands(monkeypatch, peters.PLANS["cpu"], "cpu", jobs=1)
    assert cpu[:2] == [
        ["-m", "experiment=peters2019/baseline_medium", "profile=cpu", "paths.runs=/r", *launcher],
        ["-m", "experiment=peters2019/table1_medium", "profile=cpu", "paths.runs=/r", "seed=0", *launcher]]
    assert list(peters.PLANS["cpu"].last) == ["peters2019/ensemble_medium"]
    # 3 seeds and their ensembles in all 9 cells; MT de-en and ja-en with 2 seeds each
    assert cpu[2:6] == [
        ["-m", "experiment=peters2019/table1_medium", "profile=cpu", "paths.runs=/r", "mapping.alpha=1.0,1.5,2.0",
         "mapping.attn_alpha=1.0,1.5,2.0", "seed=1,2", *launcher],
        ["-m", "experiment=peters2019/ensemble_medium", "profile=cpu", "paths.runs=/r", "mapping.alpha=1.0,1.5,2.0",
         "mapping.attn_alpha=1.0,1.5,2.0", *launcher],
        ["-m", mt, "profile=cpu", "paths.runs=/r", "data.pair=de-en", "seed=0,1", *launcher],
        ["-m", mt, "profile=cpu", "paths.runs=/r", "data.pair=ja-en", "seed=0,1", *launcher]]
    # Figure 4's output-α curve on the paper's 10 points, then seed 1 where its claims are decided
    assert cpu[-2][-2:] == ["mapping.alpha=1.0,1.125,1.25,1.375,1.625,1.75,1.875,2.0,2.25", "seed=0"]
    assert cpu[-1][-2:] == ["mapping.alpha=1.0,1.375,2.25", "seed=1"]
    assert [c[1] for c in commands(monkeypatch, peters.PLANS["paper"], "paper")][:6] == [
        "experiment=peters2019/baseline_high", "experiment=peters2019/table1_high", "experiment=peters2019/ensemble_high",
        "experiment=peters2019/baseline_medium", "experiment=peters2019/table1_medium",
        "experiment=peters2019/ensemble_medium"]
    options = peters.PLANS["cpu"].options
    assert {k: options[k] for k in ("settings", "seeds", "ensemble", "baseline")} == {
        "settings": ["medium"], "seeds": [0, 1, 2], "ensemble": True, "baseline": True}
    assert options["mt"]["seeds"] == [0, 1] and options["seeded_cells"] == [1.0, 1.5, 2.0]
    assert options["mt"]["pairs"] == ["de-en", "ja-en"]   # issue 20: the two directions that fit the budget
    assert commands(monkeypatch, martins.PLANS["smoke"], "smoke") == [
        ["-m", "experiment=martins2016/table2_multilabel", "profile=smoke", "paths.runs=/r", "data.name=emotions,scene"],
        ["-m", "experiment=martins2016/figure3_label_proportions", "profile=smoke", "paths.runs=/r",
         "data.length=200,1000"],
        ["-m", "experiment=martins2016/table3_snli", "profile=smoke", "paths.runs=/r", "task.l2=0", "seed=0"]]
    assert all("hydra/launcher" not in " ".join(c) for c in commands(monkeypatch, martins.PLANS["cpu"], "cpu", jobs=1))
    assert runner.launcher_overrides("parallel", None) == ["hydra/launcher=parallel"]


def test_runner_command_line(monkeypatch, tmp_path, capsys):
    from sparselab.reports import peters2019

    called = {}
    monkeypatch.setattr(runner, "run_plan", lambda *a, **k: called.setdefault("run", a))
    monkeypatch.setattr(peters2019, "write_reports", lambda *a: called.setdefault("report", a) and [])
    monkeypatch.setenv("SPARSELAB_RUNS", str(tmp_path / "runs"))
    monkeypatch.setattr(runner, "sweep_identities", lambda *a: [("exp", ["job"])])  # as if the plan had one job ...
    monkeypatch.setattr(runner, "finished_jobs", lambda *a: {"job"})     # ... with a finished record
    plans = {"smoke": runner.Plan(sweeps=[], options={"settings": ["medium"]})}
    assert runner.main(peters2019, plans, ["--profile", "smoke", "--out", str(tmp_path / "o"), "--report-only"]) == 0
    assert "run" not in called
    assert called["report"][0] == "smoke" and called["report"][2] == {"settings": ["medium"]}
    assert called["report"][3] == tmp_path / "runs"
    assert runner.main(peters2019, plans, ["--profile", "smoke", "--out", str(tmp_path / "o"), "--jobs", "3"]) == 0
    assert called["run"][1:3] == ("smoke", 3)
    with pytest.raises(SystemExit):
        runner.main(peters2019, plans, ["--profile", "gpu"])


def test_run_plan_only_runs_the_named_experiments_and_names_the_valid_ones(monkeypatch):
    peters = load_pipeline("peters2019")
    calls = []

    class Finished:
        def __init__(self, cmd, **kw):
            calls.extend(sweeps_of(cmd))

        def wait(self):
            return 0

    monkeypatch.setattr(subprocess, "Popen", Finished)
    runner.run_plan(peters.PLANS["cpu"], "cpu", 1, "/r", only=["peters2019/table2_mt"])
    assert calls and all(c[1] == "experiment=peters2019/table2_mt" for c in calls)
    assert len(calls) == 5        # Table 2 (de-en, ja-en), the two Figure 4 grids, the output grid's second seeds
    with pytest.raises(runner.PipelineError, match=r"--only peters2019/table9: not in the cpu plan; valid: .*peters2019/table2_mt"):
        runner.run_plan(peters.PLANS["cpu"], "cpu", None, "/r", only=["peters2019/table9"])


def test_configs_and_index_hide_machine_paths(tmp_path):
    runs = tmp_path / "runs"
    cfg = {"paths": {"runs": str(runs)}, "seed": 0,
           "data": {"root": "/data", "cache_dir": f"{runs}/.cache/mt", "name": "mt"}}
    rec = {"run_dir": str(runs / "cpu" / "x" / "seed=0"), "config_hash": "h", "config": cfg, "metrics": {"acc": 1.0}}
    assert index.public_config(cfg) == {"data": {"root": "<data root>", "cache_dir": f"{runs}/.cache/mt",
                                                 "name": "mt"}, "seed": 0}
    row = json.loads(index.write_configs(tmp_path, [rec], runs).read_text())
    assert row["config"]["data"]["cache_dir"] == "<runs root>/.cache/mt" and str(tmp_path) not in json.dumps(row)
    html = index.write_index(tmp_path, "t", [], [rec], runs=runs).read_text()
    # placeholders are text in the page, not tags
    assert "&lt;runs root&gt;/.cache/mt" in html and "<runs root>" not in html and str(tmp_path) not in html


def lane_events(monkeypatch, plan, jobs, failing=None, events=None):
    """Run ``plan`` with fake sweeps: the first lane to start a sweep holds it 0.3 s (its jobs), a later lane
    skips the held jobs (0.02 s); ``failing``'s sweep exits 3. Returns (lane, experiment, start, end, command)."""
    events, held, guard = [] if events is None else events, set(), threading.Lock()

    class Sweep:
        def __init__(self, cmd, **kw):
            self.experiment, self.cmd, self.start = cmd[4].split("=", 1)[1], cmd[3:], time.monotonic()
            with guard:
                self.first = self.experiment not in held
                held.add(self.experiment)

        def wait(self):
            time.sleep(0.3 if self.first else 0.02)
            events.append((threading.current_thread().name, self.experiment, self.start, time.monotonic(), self.cmd))
            return 3 if self.experiment == failing else 0

    monkeypatch.setattr(subprocess, "Popen", Sweep)
    runner.run_plan(plan, "cpu", jobs, "/r")
    return events


def test_lanes_keep_every_slot_busy_across_sweep_boundaries(monkeypatch):
    """--jobs 2 under the parallel launcher: 2 lanes each run every sweep (one job at a time, skipping the jobs the
    other holds), so one lane starts the next sweep while the other still trains the last job of this one; the
    sweeps of ``last`` (ensembles: they load earlier jobs' models) start only when every other sweep has ended."""
    plan = runner.Plan(sweeps=[("a", ["x=1,2"]), ("b", []), ("ens", []), ("c", [])], launcher="parallel",
                       last=["ens"])
    events = lane_events(monkeypatch, plan, 2)
    assert sorted(e[1] for e in events) == ["a", "a", "b", "b", "c", "c", "ens", "ens"]
    assert len({e[0] for e in events}) == 2                               # two lanes
    assert all(not any(o.startswith("hydra") for o in e[4]) for e in events)   # basic launcher, one job at a time
    assert ["-m", "experiment=a", "profile=cpu", "paths.runs=/r", "x=1,2"] in [e[4] for e in events]
    end = {x: max(e[3] for e in events if e[1] == x) for x in "abc"}
    assert min(e[2] for e in events if e[1] == "ens") >= max(end.values())    # the ensembles wait for every sweep
    assert min(e[2] for e in events if e[1] == "b") < end["a"]                 # no slot idles at the boundary
    assert runner.lane_count("parallel", None) == 2            # conf/hydra/launcher/parallel.yaml n_jobs
    assert runner.lane_count("parallel", 3) == 3 and runner.lane_count("parallel", 1) == 1
    assert runner.lane_count("slurm", 4) == runner.lane_count(None, 4) == 1
    assert runner.lane_count("parallel", 4, ["hydra.launcher.n_jobs=4"]) == 1  # --set tunes joblib: sweeps go there


def test_two_lanes_run_each_job_of_a_real_sweep_once(tmp_path, capfd):
    """Real sweeps in 2 lanes on one runs folder: every job ends with one finished record, none run twice (a lane
    skips the job the other holds or has finished)."""
    plan = runner.Plan(sweeps=[("martins2016/figure3_label_proportions", ["data.length=200", "data.num_labels=10"])],
                       launcher="parallel")
    runner.run_plan(plan, "smoke", 2, tmp_path)
    recs = record.find(tmp_path, "smoke")
    assert len(recs) == 4 and len({record.identity(r) for r in recs}) == 4   # 2 mixtures x 2 losses
    assert all(r["status"] == "finished" for r in recs)
    log = "".join(capfd.readouterr())
    assert log.count("[sparselab][INFO] - finished ") == 4 and log.count(" - skip ") == 4


def test_a_failing_lane_stops_the_plan_with_its_status(monkeypatch):
    plan = runner.Plan(sweeps=[("a", []), ("b", []), ("ens", [])], launcher="parallel", last=["ens"])
    with pytest.raises(runner.PipelineError) as err:
        lane_events(monkeypatch, plan, 2, failing="b")
    assert err.value.code == 3
    events = []
    with pytest.raises(runner.PipelineError):
        lane_events(monkeypatch, plan, 2, failing="a", events=events)
    assert sorted(e[1] for e in events) == ["a", "a"]        # after a failure no lane starts a sweep


def test_launcher_option_submits_every_sweep_before_waiting(monkeypatch):
    """--launcher slurm: every sweep of the plan is submitted at once and waited for; then the ensembles, which load
    the seeds' models (submitted with the rest, they failed: no finished member yet)."""
    peters = load_pipeline("peters2019")
    events = []

    class Submitted:
        def __init__(self, cmd, **kw):
            events.append(("start", cmd[3:]))

        def wait(self):
            events.append(("wait",))
            return 0

    monkeypatch.setattr(subprocess, "Popen", Submitted)
    runner.run_plan(peters.PLANS["smoke"], "smoke", None, "/r", launcher="slurm",
                    extra=["hydra.launcher.partition=gpu"])
    starts = [e for e in events if e[0] == "start"]
    assert [e[0] for e in events] == ["start"] * 6 + ["wait"] * 6 + ["start", "wait"]
    assert [c[1] for _, c in starts].count("experiment=peters2019/ensemble_medium") == 1
    assert starts[-1][1][1] == "experiment=peters2019/ensemble_medium"
    assert all(c[-2:] == ["hydra/launcher=slurm", "hydra.launcher.partition=gpu"] for _, c in starts)
    assert runner.launcher_overrides("parallel", 3, "slurm") == ["hydra/launcher=slurm"]
    assert runner.launcher_overrides("parallel", 3, "basic") == []
    assert "slurm" in runner.launcher_options() and "slurm_local" in runner.launcher_options()


def test_set_refuses_what_changes_a_job(monkeypatch):
    peters = load_pipeline("peters2019")
    with pytest.raises(runner.PipelineError, match=r"^error: --set seed=3: only overrides of where jobs run"):
        runner.run_plan(peters.PLANS["smoke"], "smoke", None, "/r", launcher="slurm", extra=["seed=3"])
