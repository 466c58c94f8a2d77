"""An interrupted sweep resumes without redoing or losing finished runs.

Start the Martins 2016 smoke pipeline on its Figure 3 sweep (16 jobs of about 2 s:
the resume path is the same for every sweep, and the whole plan runs in
test_martins2016_pipeline.py), SIGKILL it once some jobs have finished, run it
again: finished jobs keep their records untouched, each job has one record,
and every number is the pinned one of an uninterrupted run.
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

from support import validations_saved
import warm

PROJECT = Path(__file__).resolve().parents[2]
PIPELINE = PROJECT / "pipelines" / "martins2016.py"
SWEEP = "martins2016/figure3_label_proportions"
TABLES = ("figure3_label_proportions.md",)
JOBS = 16


def pipeline(runs: Path, out: Path, **popen):
    # here and below no torch.compile: a job's first steps would compile its mapping (tested in test_mappings_compiled)
    env = {**os.environ, "SPARSELAB_RUNS": str(runs), "OMP_NUM_THREADS": "1", "WANDB_MODE": "disabled",
           "SPARSELAB_COMPILE": "0"}
    cmd = [sys.executable, str(PIPELINE), "--profile", "smoke", "--only", SWEEP, "--out", str(out)]
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
    assert len(after) == JOBS      # one finished record per job: a job's folder is named by its identity
    # every number is an uninterrupted run's: the pinned smoke numbers (tests/fixtures/smoke_metrics.json, from an
    # uninterrupted pipeline), to what these L-BFGS fits guarantee across machines (test_martins2016_pipeline.py)
    from support import SMOKE_FIXTURE as FIXTURE
    from sparselab.reports import martins2016, numbers
    got = martins2016.numbers(runs, "smoke")
    want = {r: v for r, v in json.loads(FIXTURE.read_text())["martins2016"].items() if r.startswith("figure3/")}
    assert len(got) == len(want) == JOBS and numbers.diff(got, want, abs_tol=1e-4) == []
    assert (tmp_path / "out" / TABLES[0]).stat().st_size > 0


# ------------------------------------------------------------------ resume inside a job
# A job SIGKILLed after its second validation resumes from checkpoints/last.ckpt (sparselab.training.loop) and, on
# CPU, ends with exactly the numbers of an uninterrupted run: same weights, optimizer, schedules, early-stopping
# state, batch order and random draws. Dropout is on so that the process RNG matters.
TIMING = ("time_s", "_per_s")   # wall-clock numbers differ between any two runs


def job(runs: Path, overrides: list[str], **popen):
    env = {**os.environ, "SPARSELAB_RUNS": str(runs), "OMP_NUM_THREADS": "1", "WANDB_MODE": "disabled",
           "SPARSELAB_COMPILE": "0"}
    cmd = [sys.executable, "-m", "sparselab.run", *overrides, "hydra.mode=RUN"]
    return subprocess.Popen(cmd, cwd=PROJECT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **popen)


def the_record(runs: Path) -> dict:
    (path,) = list(runs.rglob("run.json"))
    return json.loads(path.read_text())


def untimed(metrics: dict) -> dict:
    return {k: v for k, v in metrics.items() if not k.endswith(TIMING)}


RESUMABLE_JOBS = {
    # inflection: validation at every epoch end (2 batches an epoch), the lr halving rule, bucketed batches
    "inflection": ["experiment=peters2019/table1_medium", "profile=smoke", "mapping.alpha=1.5",
                   "mapping.attn_alpha=1.5", "model.dropout=0.3"],
    # Transformer: validation every 4 steps, inside its first epoch (token-budget batches), learned α
    # with its trajectory callback, the warm-up schedule stepped by Lightning; with 2 DataLoader workers, which
    # draw batches ahead of the training loop (the paper profile's setting): the checkpoint counts the batches
    # trained on, not those drawn. (One job for both: the same path without workers resumes inside a pass in
    # test_resumable_loader.py, and inflection and SNLI resume whole jobs without workers here.)
    "transformer_workers": ["experiment=correia2019/table1_bleu", "profile=smoke", "data.pair=de-en",
                            "mapping=alpha_entmax", "model.dropout=0.1", "trainer.val_check_interval=4",
                            "trainer.max_steps=16", "engine.loader_workers=2"],
    # SNLI: batches drawn from a torch generator the loader owns, an epoch a validation
    "snli": ["experiment=martins2016/table3_snli", "profile=smoke", "task.attention=learned", "task.l2=1e-4"],
}


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    """Each job's uninterrupted run, made once per module: the two inflection tests share theirs."""
    done: dict[str, dict] = {}

    def record_of(name: str) -> dict:
        if name not in done:
            runs = tmp_path_factory.mktemp(f"ref_{name}")
            assert job(runs, RESUMABLE_JOBS[name]).wait(timeout=600) == 0
            done[name] = the_record(runs)
        return done[name]
    return record_of


def killed_when(tmp_path: Path, overrides, ready, attempts: int = 3) -> Path:
    """The runs folder of the job SIGKILLed as soon as ``ready(runs)`` holds. A smoke job can finish between two
    polls on a loaded machine (a poll reads the checkpoint): then it is tried again in a new folder."""
    for attempt in range(attempts):
        runs = tmp_path / f"runs{attempt}"
        proc = job(runs, overrides, start_new_session=True)
        deadline = time.time() + 600
        while not ready(runs) and proc.poll() is None and time.time() < deadline:
            time.sleep(0.03)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            assert the_record(runs)["status"] == "running"
            return runs
        assert proc.returncode == 0, f"the job failed before it could be killed (exit {proc.returncode})"
    raise AssertionError(f"the job finished before it could be killed, {attempts} times")


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RESUMABLE_JOBS))
def test_sigkilled_job_resumes_from_last_validation_with_the_same_numbers(tmp_path, name, uninterrupted):
    overrides = RESUMABLE_JOBS[name]
    reference = uninterrupted(name)
    assert reference["status"] == "finished" and reference["extra"]["resumed_from_step"] == 0
    assert len(reference["extra"]["history"]) > 2, "the job must validate more than twice to test resume"

    runs = killed_when(tmp_path, overrides, lambda runs: validations_saved(runs) >= 2)
    assert (next(runs.rglob("checkpoints")) / "last.ckpt").is_file()

    assert job(runs, overrides).wait(timeout=600) == 0
    resumed = the_record(runs)
    assert resumed["status"] == "finished"
    step = resumed["extra"]["resumed_from_step"]
    ref_steps = [h["step"] for h in reference["extra"]["history"]]
    assert step in ref_steps[1:-1], f"resumed from step {step}, not from a validation after the second: {ref_steps}"
    assert not list(runs.rglob("checkpoints")), "the checkpoint folder outlived the job"
    # exactly equal: one process, one thread, the same kernels; the resumed run replays the same arithmetic
    assert untimed(resumed["metrics"]) == untimed(reference["metrics"])
    assert resumed["extra"]["history"] == reference["extra"]["history"]
    assert resumed["best"] == reference["best"]
    assert resumed["extra"].get("alpha_trajectory") == reference["extra"].get("alpha_trajectory")


@pytest.mark.slow
def test_a_job_killed_while_it_evaluates_resumes_without_training_again(tmp_path, uninterrupted):
    # training has ended (checkpoints/fit_done.json) but the record is not finished yet: the job is killed while it
    # evaluates (beam search can take hours at paper scale); the re-run restores the final state and trains nothing
    overrides = RESUMABLE_JOBS["inflection"]
    reference = uninterrupted("inflection")

    runs = killed_when(tmp_path, overrides, lambda runs: bool(list(runs.rglob("checkpoints/fit_done.json"))))
    (done,) = list(runs.rglob("checkpoints/fit_done.json"))
    ended = json.loads(done.read_text())

    log = tmp_path / "resumed.log"
    env = {**os.environ, "SPARSELAB_RUNS": str(runs), "OMP_NUM_THREADS": "1", "WANDB_MODE": "disabled",
           "SPARSELAB_COMPILE": "0"}
    with log.open("w") as fh:
        assert warm.run([sys.executable, "-m", "sparselab.run", *overrides, "hydra.mode=RUN"], cwd=PROJECT,
                              env=env, stdout=fh, stderr=subprocess.STDOUT, timeout=600).returncode == 0
    assert f"training had ended at step {ended['steps']}" in log.read_text()
    resumed = the_record(runs)
    assert resumed["status"] == "finished"
    assert resumed["metrics"]["fit_time_s"] == ended["fit_time_s"]      # the first attempt's fit, not a new one
    assert untimed(resumed["metrics"]) == untimed(reference["metrics"])
    assert resumed["extra"]["history"] == reference["extra"]["history"]
    assert resumed["extra"]["resumed_from_step"] == 0
    assert not list(runs.rglob("checkpoints")), "the checkpoint folder outlived the job"
