"""Issue 18, "Runs and reports you can trust": one job one folder, tables from the plan's jobs only, locks,
interrupts, one-line errors, configs checked before data, data fingerprints, thread pools.

Each test names the issue item it covers.
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
from omegaconf import OmegaConf

from sparselab.engine import datafiles, jobs, record
from sparselab.reports import records

import warm

PROJECT = Path(__file__).resolve().parents[2]
CONF = PROJECT / "conf"
FIG3 = "martins2016/figure3_label_proportions"
# two jobs of the Figure 3 smoke sweep (seconds each)
FIG3_TWO = ["data.num_labels=10", "data.length=200", "data.mixture=random"]


def env(**extra) -> dict[str, str]:
    e = {**os.environ, "OMP_NUM_THREADS": "1", "WANDB_MODE": "disabled"}
    e.pop("HYDRA_FULL_ERROR", None)
    e.update(extra)
    return e


def sparselab_run(*args, runs: Path, **kw) -> subprocess.CompletedProcess:
    return warm.run([sys.executable, "-m", "sparselab.run", *args, f"paths.runs={runs}"], cwd=PROJECT,
                          env=env(), capture_output=True, text=True, timeout=kw.pop("timeout", 300), **kw)


def compose(overrides, hydra: bool = False):
    from hydra import compose as hcompose, initialize_config_dir

    from sparselab.engine import resolvers

    resolvers.register()
    with initialize_config_dir(version_base="1.3", config_dir=str(CONF), job_name="t"):
        return hcompose(config_name="config", overrides=list(overrides), return_hydra_config=hydra)


# --- item 3: the job's identity is its normalised, resolved config; its folder follows from it -------------

def test_same_job_under_another_spelling_is_one_identity_and_one_folder():
    base = ["experiment=peters2019/table1_medium", "profile=smoke", "mapping.attn_alpha=1.5"]
    a = compose(base + ["mapping.alpha=1"], hydra=True)
    b = compose(base + ["mapping.alpha=1.0"], hydra=True)
    c = compose(base + ["mapping.alpha=1.0", "seed=0"], hydra=True)
    d = compose(base + ["mapping.alpha=1.0", "seed=1"], hydra=True)
    ids = [record.config_hash(x) for x in (a, b, c, d)]
    assert ids[0] == ids[1] == ids[2] != ids[3]
    # the sweep folder is ${job_id:}: the same folder for the three spellings
    folders = [OmegaConf.select(x, "hydra.sweep.subdir") for x in (a, b, c, d)]
    assert folders[:3] == [ids[0]] * 3 and folders[3] == ids[3]


def test_identity_ignores_where_a_job_runs_and_keeps_precision():
    cfg = {"seed": 0, "mapping": {"alpha": 1.5}, "paths": {"runs": "/a/runs"}, "threads": 1,
           "data": {"root": "/x", "cache_dir": "/a/runs/.cache/mt"},
           "trainer": {"devices": 1, "accelerator": "cpu", "strategy": "auto", "num_nodes": 1,
                       "precision": "32-true"}}
    moved = json.loads(json.dumps(cfg))
    moved["paths"]["runs"], moved["data"]["cache_dir"] = "/cluster/scratch/r", "/cluster/scratch/r/.cache/mt"
    moved["trainer"].update(devices=4, accelerator="gpu", strategy="ddp", num_nodes=2)
    moved["threads"] = 8
    assert record.job_id(cfg) == record.job_id(moved)
    moved["trainer"]["precision"] = "bf16-mixed"
    assert record.job_id(cfg) != record.job_id(moved)


def test_a_config_committed_with_scrubbed_paths_is_the_same_job():
    live = {"seed": 0, "paths": {"runs": "/work/runs"}, "data": {"cache_dir": "/work/runs/.cache/mt"}}
    committed = {"seed": 0, "data": {"cache_dir": "<runs root>/.cache/mt"}}  # runs.jsonl: paths dropped, scrubbed
    assert record.job_id(live) == record.job_id(committed)


def test_records_of_older_hash_versions_are_found_by_their_stored_config():
    # a record written before the normalisation: its stored config_hash is another hash, its config an int α
    old = {"status": "finished", "config_hash": "0123456789abcdef", "config": {"seed": 0, "mapping": {"alpha": 1}}}
    assert record.identity(old) == record.job_id({"seed": 0, "mapping": {"alpha": 1.0}})
    assert record.is_finished(old, record.job_id({"seed": 0.0, "mapping": {"alpha": 1.0}}))


# --- item 2: a report uses exactly its plan's jobs, each once -----------------------------------------------

def _write(runs: Path, folder: str, cfg: dict, acc: float, finished_at: str = "2026-01-01T00:00:00") -> None:
    record.write(runs / "smoke" / "exp" / folder, {"status": "finished", "config": cfg, "metrics": {"acc": acc},
                                                   "finished_at": finished_at})


def test_tables_take_the_plan_jobs_once_and_list_the_others(tmp_path):
    plan_cfg = {"seed": 0, "mapping": {"alpha": 1.5}}
    learned = {"seed": 0, "mapping": {"alpha": 1.5, "learnable": True}}
    _write(tmp_path, "a", plan_cfg, 30.0)
    _write(tmp_path, "b-old-name", {"seed": 0, "mapping": {"alpha": 1.5}}, 31.0, "2026-01-02T00:00:00")  # same job
    _write(tmp_path, "c", learned, 5.0)
    with records.plan_only({record.job_id(plan_cfg)}) as sel:
        got = records.load(tmp_path, "smoke", "exp")
        assert [r["metrics"]["acc"] for r in got] == [31.0]  # one job, its newest record
        assert [Path(r["run_dir"]).name for r in records.other_runs()] == ["c"]
    assert len(sel.others) == 1
    # outside a plan every job is still counted once
    assert sorted(r["metrics"]["acc"] for r in records.load(tmp_path, "smoke", "exp")) == [5.0, 31.0]


@pytest.mark.slow
def test_plan_expansion_gives_the_identities_the_sweep_runs(tmp_path):
    ids = jobs.identities(CONF, FIG3, "smoke", FIG3_TWO)
    assert len(ids) == 2 and len(set(ids)) == 2
    proc = sparselab_run("-m", f"experiment={FIG3}", "profile=smoke", *FIG3_TWO, runs=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    recs = record.find(tmp_path, "smoke", FIG3)
    assert sorted(record.identity(r) for r in recs) == sorted(ids)
    assert sorted(Path(r["run_dir"]).name for r in recs) == sorted(ids)  # one job, one folder, named by it
    assert all(r["config_hash"] == record.identity(r) for r in recs)
    # the same jobs spelled otherwise (explicit default seed, an int where the config has an int) are skipped
    again = sparselab_run("-m", f"experiment={FIG3}", "profile=smoke", *FIG3_TWO, "seed=0", runs=tmp_path)
    assert again.returncode == 0 and again.stdout.count("skip ") + again.stderr.count("skip ") == 2


# --- item 4: --report-only with no records writes nothing --------------------------------------------------

def test_report_only_without_records_exits_2_and_writes_nothing(tmp_path):
    out = tmp_path / "report"
    proc = warm.run([sys.executable, str(PROJECT / "pipelines" / "correia2019.py"), "--profile", "cpu",
                           "--report-only", "--out", str(out)], cwd=PROJECT,
                          env=env(SPARSELAB_RUNS=str(tmp_path / "runs")), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and proc.stderr.startswith("error: none of the")
    assert not out.exists()


# --- item 5: a running job is locked; a dead holder's lock is taken over ------------------------------------

@pytest.mark.slow
def test_a_job_held_by_a_live_process_is_skipped_and_a_dead_holders_lock_taken(tmp_path):
    from filelock import FileLock

    (job,) = jobs.expand(CONF, FIG3, "smoke", [*FIG3_TWO, "task.loss=softmax"])
    (jid,) = jobs.identities(CONF, FIG3, "smoke", [*FIG3_TWO, "task.loss=softmax"])
    run_dir = tmp_path / "smoke" / FIG3 / jid
    run_dir.mkdir(parents=True)
    lock = FileLock(str(run_dir / ".lock"))
    lock.acquire()
    try:
        proc = sparselab_run(*job, runs=tmp_path)
        assert proc.returncode == 0, proc.stderr[-2000:]
        assert "another process is running this job" in proc.stdout + proc.stderr
        assert not (run_dir / "run.json").exists()
    finally:
        lock.release()
    # the lock file left behind (as by a SIGKILLed holder) is not held by anyone: the job runs
    assert (run_dir / ".lock").exists()
    proc = sparselab_run(*job, runs=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert record.read(run_dir)["status"] == "finished"


# --- item 6: Ctrl-C is "interrupted", exit 130, one line ----------------------------------------------------

@pytest.mark.slow
def test_ctrl_c_records_interrupted_and_exits_130(tmp_path):
    args = ["experiment=peters2019/table1_medium", "profile=smoke", "mapping.alpha=1.0", "mapping.attn_alpha=1.0",
            "seed=0", "trainer.max_epochs=100000", "trainer.max_steps=-1", f"paths.runs={tmp_path}"]
    # the smoke profile caps a job at 40 steps (~4 s): lifted, so that the signal cannot arrive after the job has
    # ended, while the interpreter shuts down (Python has then restored SIGINT's default action: exit -2, no line)
    # a shell without job control starts background commands with SIGINT ignored, and Python keeps an ignored
    # SIGINT: give the job the default disposition a terminal's Ctrl-C meets
    proc = subprocess.Popen([sys.executable, "-m", "sparselab.run", "-m", *args], cwd=PROJECT, env=env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.time() + 240
    rec = None
    while time.time() < deadline and proc.poll() is None:
        found = record.find(tmp_path, status=None)
        rec = found[0] if found else None
        if rec and rec["status"] == "running" and (Path(rec["run_dir"]) / "wandb").exists() is False:
            time.sleep(4)  # inside fit
            break
        time.sleep(0.3)
    assert rec is not None, "the job never started"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err[-2000:]
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("interrupted:"), err[-2000:]
    (rec,) = record.find(tmp_path, status=None)
    assert rec["status"] == "interrupted"


# --- item 7: one error line for user errors, in the pipelines as in sparselab.run ---------------------------

def test_missing_data_root_is_one_line_in_the_pipeline(tmp_path):
    proc = warm.run([sys.executable, str(PROJECT / "pipelines" / "martins2016.py"), "--profile", "smoke",
                           "--out", str(tmp_path / "o"), "--only", "martins2016/table2_multilabel"], cwd=PROJECT,
                          env=env(SPARSELAB_RUNS=str(tmp_path / "runs"), SPARSELAB_DATA=str(tmp_path / "nowhere")),
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2
    lines = [x for x in proc.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:") and "Traceback" not in proc.stdout, proc.stderr


@pytest.mark.parametrize("entry", ["run", "pipeline"])
def test_runs_folder_that_cannot_be_made_is_one_line(tmp_path, entry):
    blocker = tmp_path / "plain-file"
    blocker.write_text("x")
    runs = blocker / "runs"
    if entry == "run":
        proc = sparselab_run(f"experiment={FIG3}", "profile=smoke", runs=runs)
    else:
        proc = warm.run([sys.executable, str(PROJECT / "pipelines" / "martins2016.py"), "--profile", "smoke",
                               "--out", str(tmp_path / "o")], cwd=PROJECT, env=env(SPARSELAB_RUNS=str(runs)),
                              capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    lines = [x for x in proc.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: cannot create the runs folder"), proc.stderr


def test_unknown_only_exits_2_with_the_valid_ones(tmp_path):
    proc = warm.run([sys.executable, str(PROJECT / "pipelines" / "martins2016.py"), "--profile", "smoke",
                           "--only", "nope", "--out", str(tmp_path / "o")], cwd=PROJECT,
                          env=env(SPARSELAB_RUNS=str(tmp_path / "runs")), capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stderr.startswith("error: --only nope") and "martins2016/" in proc.stderr


# --- item 8: a bad α is refused before any data is read or folder made --------------------------------------

@pytest.mark.parametrize("value", ["-1", "nan", "1.0,-2"])
def test_bad_alpha_is_refused_at_once_without_a_folder(tmp_path, value):
    t0 = time.time()
    proc = sparselab_run("-m", "experiment=peters2019/table1_medium", "profile=smoke", f"mapping.alpha={value}",
                         runs=tmp_path)
    assert proc.returncode == 2 and proc.stderr.startswith("error: mapping.alpha"), proc.stderr
    assert time.time() - t0 < 30
    assert not any(tmp_path.iterdir())


# --- item 9: a record stores what it read; changed data is refused, naming the file ------------------------

@pytest.mark.slow
def test_changed_data_is_refused_naming_the_file(tmp_path):
    import shutil

    from sparselab.data.excerpt import ROOT as EXCERPTS

    data = tmp_path / "data"
    shutil.copytree(EXCERPTS / "mulan" / "emotions", data / "mulan" / "emotions")   # shipped whole
    args = ["experiment=martins2016/table2_multilabel", "profile=smoke", "data.name=emotions", "task.loss=softmax"]
    e = env(SPARSELAB_DATA=str(data))

    def run():
        return warm.run([sys.executable, "-m", "sparselab.run", *args, f"paths.runs={tmp_path / 'runs'}"],
                              cwd=PROJECT, env=e, capture_output=True, text=True, timeout=300)

    proc = run()
    assert proc.returncode == 0, proc.stderr[-2000:]
    (rec,) = record.find(tmp_path / "runs")
    files = rec["data_files"]
    assert "mulan/emotions/emotions-train.arff" in files and all(not k.startswith("/") for k in files)
    assert len(files["mulan/emotions/emotions-train.arff"]["sha256"]) == 64
    assert run().returncode == 0  # unchanged data: skipped
    with open(data / "mulan" / "emotions" / "emotions-train.arff", "a") as fh:
        fh.write("% an appended comment\n")
    proc = run()
    assert proc.returncode == 2
    lines = [x for x in proc.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and "<data root>/mulan/emotions/emotions-train.arff changed" in lines[0], proc.stderr


def test_tracking_sees_reads_under_the_root_only(tmp_path):
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "a.txt").write_text("abc")
    (tmp_path / "elsewhere.txt").write_text("x")
    with datafiles.track(tmp_path / "d") as seen:
        (tmp_path / "d" / "a.txt").read_text()
        (tmp_path / "elsewhere.txt").read_text()
        (tmp_path / "d" / "written.txt").write_text("w")
    assert seen == {str(tmp_path / "d" / "a.txt")}
    cache = datafiles.HashCache(tmp_path / "cache.json")
    fp = datafiles.fingerprint(seen, tmp_path / "d", cache)
    assert fp == {"a.txt": {"size": 3, "sha256": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"}}
    assert datafiles.changed(fp, tmp_path / "d", cache) is None
    (tmp_path / "d" / "a.txt").write_text("abd")
    assert "a.txt changed (sha256" in datafiles.changed(fp, tmp_path / "d", cache)


# --- item 1: `threads` limits the BLAS pools too ----------------------------------------------------------

def test_threads_limit_the_blas_pools(tmp_path, monkeypatch):
    from threadpoolctl import threadpool_info, threadpool_limits

    from sparselab.engine import execute as ex

    seen = {}

    def task(cfg, ctx):
        seen["pools"] = [p["num_threads"] for p in threadpool_info()]
        return {"metrics": {"x": 1.0}}

    monkeypatch.setattr(ex, "task_function", lambda name: task)
    cfg = OmegaConf.create({"threads": 1, "seed": 0, "task": {"name": "fake"}, "data": {"root": str(tmp_path)},
                            "paths": {"runs": str(tmp_path / "runs")}, "engine": {"resume": True},
                            "logger": {"backend": "none", "mode": "disabled"}, "trainer": {"log_every_n_steps": 1}})
    with threadpool_limits(2):     # the pools start wider than the job's 1 (the suite runs them at 1)
        assert any(p["num_threads"] == 2 for p in threadpool_info())
        rec = ex.execute(cfg, tmp_path / "runs" / "job")
    assert rec["status"] == "finished"
    assert seen["pools"] and all(n == 1 for n in seen["pools"]), seen


def test_a_finished_job_in_an_old_style_folder_is_not_run_again(tmp_path, monkeypatch):
    """Runs made before folders were named by identity (named by the overrides) are adopted, not re-run."""
    from sparselab.engine import execute as ex

    calls = []
    monkeypatch.setattr(ex, "task_function", lambda name: lambda cfg, ctx: calls.append(1) or {"metrics": {}})
    cfg = OmegaConf.create({"threads": 1, "seed": 0, "task": {"name": "fake"}, "mapping": {"alpha": 1.5},
                            "data": {"root": str(tmp_path)}, "paths": {"runs": str(tmp_path)},
                            "engine": {"resume": True}, "logger": {"backend": "none", "mode": "disabled"}})
    jid = record.config_hash(cfg)
    old = tmp_path / "cpu" / "exp" / "mapping.alpha=1.5"
    record.write(old, {"status": "finished", "config": {**OmegaConf.to_container(cfg), "seed": 0.0},
                       "config_hash": "an-older-hash", "metrics": {"acc": 1.0}})
    rec = ex.execute(cfg, tmp_path / "cpu" / "exp" / jid)
    assert calls == [] and rec["metrics"] == {"acc": 1.0} and rec["run_dir"] == str(old)


def test_a_ddp_child_rank_does_not_take_the_lock_or_write_a_record(tmp_path, monkeypatch):
    """Lightning starts DDP ranks > 0 by re-running the command line into the same folder: they must train inside
    rank 0's locked job, not skip it (rank 0 would wait for them forever), and write no record."""
    from filelock import FileLock

    from sparselab.engine import execute as ex

    calls = []
    monkeypatch.setattr(ex, "task_function", lambda name: lambda cfg, ctx: calls.append(1) or {"metrics": {}})
    monkeypatch.setenv("LOCAL_RANK", "1")
    cfg = OmegaConf.create({"threads": 1, "seed": 0, "task": {"name": "fake"}, "data": {"root": str(tmp_path)},
                            "paths": {"runs": str(tmp_path)}, "engine": {"resume": True},
                            "logger": {"backend": "none", "mode": "disabled"}})
    run_dir = tmp_path / "job"
    run_dir.mkdir()
    held = FileLock(str(run_dir / ".lock"))
    held.acquire()  # rank 0 holds it
    try:
        ex.execute(cfg, run_dir)
    finally:
        held.release()
    assert calls == [1] and record.read(run_dir) is None


def test_trainer_ddp_leaves_the_job_identity_unchanged():
    """A job started on one device and finished under DDP on a cluster is one job (issue 19 item 4 too)."""
    base = ["experiment=peters2019/table1_medium", "profile=paper", "mapping.alpha=1.5", "mapping.attn_alpha=1.5"]
    plain = record.config_hash(compose(base))
    assert record.config_hash(compose(base + ["trainer=ddp"])) == plain
    assert record.config_hash(compose(base + ["trainer=ddp", "trainer.devices=4", "trainer.num_nodes=2"])) == plain
    # precision is part of the job (the paper profile trains in bf16-mixed; float32 is another job)
    assert record.config_hash(compose(base + ["trainer.precision=32-true"])) != plain
