"""Issue 57 items 10 (output), 9 (TensorBoard tags) and 6 (Lightning side): one Transformer job on a terminal, with
TensorBoard, SIGTERMed after its second validation and run again; both attempts on a pseudo-terminal, as a user
sees them (rich's live progress bar is drawn there). Checked: every log line stays on the screen whole (it went
over the bar's line and was erased before); the resumed attempt prints none of Lightning's two warnings about its
intended state; the record's samples/s leave warm-up out; one TensorBoard tag per quantity."""
from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from .conftest import PROJECT
from .terminal import TerminalJob, screen_lines
from support import validations_saved

# validation at every epoch end (19 batches an epoch): a resume from such a checkpoint is the one that made Lightning
# warn twice; 80 steps, so the resumed attempt trains more than the warm-up it leaves out of its throughput
JOB = ["experiment=correia2019/table1_bleu", "profile=smoke", "data.pair=de-en", "mapping=alpha_entmax",
       "hydra.mode=RUN", "logger=tensorboard", "trainer.max_steps=80", "trainer.val_check_interval=1.0",
       "trainer.check_val_every_n_epoch=1"]
LINE = "interrupted: by SIGTERM; finished jobs are kept and a running job is recorded as 'interrupted'; run the same " \
       "command to resume"
RESUME_WARNINGS = ("could not find the monitored key", "exists and is not empty")

pytestmark = pytest.mark.slow


def _record(runs: Path) -> tuple[Path, dict]:
    (path,) = list(runs.rglob("run.json"))
    return path.parent, json.loads(path.read_text())


@pytest.fixture(scope="module")
def attempts(tmp_path_factory):
    from sparselab.training.loop import unreadable_checkpoint

    runs = tmp_path_factory.mktemp("terminal") / "runs"
    env = {**os.environ, "SPARSELAB_RUNS": str(runs), "OMP_NUM_THREADS": "1", "SPARSELAB_COMPILE": "0"}
    cmd = [sys.executable, "-m", "sparselab.run", *JOB]
    first = TerminalJob(cmd, cwd=PROJECT, env=env)
    deadline = time.time() + 300
    while validations_saved(runs) < 2 and first.proc.poll() is None and time.time() < deadline:
        time.sleep(0.05)
    first.proc.send_signal(signal.SIGTERM)
    rc1 = first.wait(120)
    run_dir, rec1 = _record(runs)
    ckpt = run_dir / "checkpoints" / "last.ckpt"
    ckpt_ok = ckpt.is_file() and unreadable_checkpoint(ckpt) is None
    log1 = (run_dir / "run.log").read_text().splitlines()
    again = TerminalJob(cmd, cwd=PROJECT, env=env)
    rc2 = again.wait(300)
    _, rec2 = _record(runs)
    log2 = (run_dir / "run.log").read_text().splitlines()[len(log1):]      # Hydra appends the second attempt's
    return {"first": {"rc": rc1, "out": first.output, "record": rec1, "log": log1, "ckpt_ok": ckpt_ok},
            "again": {"rc": rc2, "out": again.output, "record": rec2, "log": log2}, "run_dir": run_dir}


def test_sigterm_on_a_lightning_job_stops_at_a_batch_and_is_recorded(attempts):
    first = attempts["first"]
    assert first["rc"] == 130, first["out"][-3000:]
    assert first["out"].count(LINE) == 1 and "Traceback" not in first["out"], first["out"][-3000:]
    # Lightning's own path (SIGTERMException at a batch end), not an exception raised in the middle of a step
    assert first["record"]["status"] == "interrupted" and first["record"]["error"].startswith("SIGTERMException")
    assert first["ckpt_ok"], "last.ckpt was left torn"
    assert attempts["again"]["rc"] == 0 and attempts["again"]["record"]["status"] == "finished"
    assert attempts["again"]["record"]["extra"]["resumed_from_step"] > 0


@pytest.mark.parametrize("attempt", ["first", "again"])
def test_log_lines_stay_on_the_screen_whole_beside_the_progress_bar(attempts, attempt):
    """Rich's bar is drawn (it is a terminal) and every line the job logged is on the screen, none written into the
    bar's line and erased by its next refresh."""
    a = attempts[attempt]
    assert "Epoch " in a["out"] and "━" in a["out"], "no progress bar was drawn"
    shown = set(screen_lines(a["out"]))
    lines = [line for line in a["log"] if line.startswith("[")]
    assert len(lines) >= 4 and any("validation epoch" in line for line in lines), lines
    lost = [line for line in lines if line not in shown]
    assert not lost, f"{len(lost)} of {len(lines)} log lines were drawn over: {lost[:3]}"


def test_a_resume_prints_no_warning_about_its_intended_state(attempts):
    out = attempts["again"]["out"]
    assert "resumed from step" in out
    for text in RESUME_WARNINGS:
        assert text not in out, text


def test_throughput_leaves_warm_up_out(attempts):
    """The record's samples/s count the steps after this process's first 10 (imports, first allocations), not the
    whole job (which gave the first job of a sweep 86 samples/s against 296 for the next)."""
    from sparselab.engine.trainer import WARMUP_STEPS

    rec = attempts["again"]["record"]
    resumed = rec["extra"]["resumed_from_step"]
    trained = int(rec["metrics"]["steps"]) - resumed
    assert rec["throughput_measured"].startswith(f"training steps after this process's first {WARMUP_STEPS} "
                                                 f"({trained - WARMUP_STEPS} steps,"), rec["throughput_measured"]
    assert rec["throughput_samples_per_s"] > 0


def test_one_tensorboard_tag_per_quantity(attempts):
    """The head statistics were logged twice, as js/enc_self/l0 while training and as the record's js_enc_self_l0
    at the end; now the final values stay in the record and the curve is the one tag."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    events = EventAccumulator(str(attempts["run_dir"] / "tensorboard"), size_guidance={"scalars": 0})
    events.Reload()
    tags = events.Tags()["scalars"]
    assert "js/enc_self/l0" in tags and "density/context/l1" in tags, tags
    flat: dict[str, list[str]] = {}
    for tag in tags:
        flat.setdefault(tag.replace("/", "_"), []).append(tag)
    assert {k: v for k, v in flat.items() if len(v) > 1} == {}
    assert "js_enc_self_l0" in attempts["again"]["record"]["metrics"]       # the record keeps its own names


def test_warm_throughput_skips_slow_first_steps(tmp_path):
    """The measurement itself: steps that are slow at first (a compile, a cold cache) are left out."""
    import lightning as L
    import torch

    from sparselab.engine.context import RunContext
    from sparselab.engine.trainer import WarmThroughput

    class Slow(L.LightningModule):
        def __init__(self):
            super().__init__()
            self.layer = torch.nn.Linear(2, 1)

        def training_step(self, batch, batch_idx):
            if self.global_step < 3:
                time.sleep(0.3)                    # warm-up
            return self.layer(batch[0]).sum()

        def on_train_batch_end(self, outputs, batch, batch_idx):
            ctx.samples_seen += 4

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.01)

    ctx = RunContext(run_dir=tmp_path)
    data = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.zeros(64, 2)), batch_size=4)
    trainer = L.Trainer(max_steps=13, logger=False, enable_checkpointing=False, enable_progress_bar=False,
                        enable_model_summary=False, callbacks=[WarmThroughput(ctx, skip=3)],
                        default_root_dir=str(tmp_path))
    t0 = time.perf_counter()
    trainer.fit(Slow(), data)
    whole = ctx.samples_seen / (time.perf_counter() - t0)
    assert ctx.throughput["steps"] == 10 and ctx.throughput["after_warmup_steps"] == 3
    assert ctx.throughput["samples_per_s"] > 3 * whole, (ctx.throughput, whole)
