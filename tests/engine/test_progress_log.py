"""Clean job logs (issue 18, item 13): a non-TTY fit prints progress lines with step, rate and ETA at least every
30 s, and none of the library lines we silence (sparselab.engine.progress says which and why)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest

from sparselab.engine.progress import CappedRichProgressBar, ProgressLog, duration, epoch_cap, step_cap

PROJECT = Path(__file__).resolve().parents[2]
LINE = re.compile(r"step (\d+)/(\d+) \((\d+)%\) epoch (\d+)/(\d+)(?: validating \(batch \d+\))? \| ([\d.e+-]+) steps/s "
                  r"\| elapsed (\S+), ETA (\S+)")
SILENCED = ("💡 Tip", "litlogger", "GPU available: False", "TPU available: False", "LeafSpec",
            "smaller than the logging interval")

# A tiny fit through make_trainer as a task runs it: Lightning's handlers cleared as sparselab.run does, a logger
# attached (Lightning's logging-interval warning only fires with one), no terminal.
FIT = textwrap.dedent("""
    import logging, sys
    import lightning as L, torch
    from lightning.pytorch.loggers import CSVLogger
    from omegaconf import OmegaConf
    from sparselab.engine.context import RunContext
    from sparselab.engine.trainer import make_trainer

    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(name)s %(levelname)s %(message)s")
    for name in list(logging.root.manager.loggerDict):
        if name.startswith("lightning"):
            logging.getLogger(name).handlers.clear(); logging.getLogger(name).propagate = True

    class Tiny(L.LightningModule):
        def __init__(self):
            super().__init__(); self.lin = torch.nn.Linear(4, 1)
        def training_step(self, batch, i):
            loss = self.lin(batch[0]).pow(2).mean(); self.log("train_loss", loss); return loss
        def validation_step(self, batch, i):
            self.log("val_loss", self.lin(batch[0]).pow(2).mean())
        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.1)

    data = torch.utils.data.TensorDataset(torch.randn(10, 4))
    dl = torch.utils.data.DataLoader(data, batch_size=5)           # 2 batches per epoch
    ctx = RunContext(run_dir=__import__("pathlib").Path(sys.argv[1]), progress_bar=False,
                     lightning_logger_fn=lambda: CSVLogger(sys.argv[1]))
    tcfg = OmegaConf.create({"accelerator": "cpu", "devices": 1, "max_epochs": 100, "max_steps": 40,
                             "log_every_n_steps": 10})
    make_trainer(tcfg, ctx, train_batches=len(dl), num_sanity_val_steps=0).fit(Tiny(), dl, dl)
""")


@pytest.fixture(scope="module")
def fit_log(tmp_path_factory) -> str:
    tmp = tmp_path_factory.mktemp("fit")
    env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONWARNINGS="default")
    proc = subprocess.run([sys.executable, "-c", FIT, str(tmp)], cwd=PROJECT, env=env, capture_output=True,
                          text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout + proc.stderr


def test_a_non_tty_fit_prints_progress_lines_with_rate_and_eta(fit_log):
    lines = [m for m in map(LINE.search, fit_log.splitlines()) if m]
    assert lines, fit_log[-3000:]
    # a line every log_every_n_steps (10; Lightning's own interval is clamped to the 2 batches of an epoch, so it
    # does not warn), to the 40-step cap, counting epochs as Lightning does (from 0; it stops in epoch 19, not 99)
    assert [int(m.group(1)) for m in lines] == [10, 20, 30, 40]
    last = lines[-1]
    assert last.group(2) == "40" and last.group(3) == "100" and last.group(4) == "19" and last.group(5) == "19"
    assert float(last.group(6)) > 0 and last.group(8) == "0s"
    assert "train_loss=" in fit_log and "`Trainer.fit` stopped: `max_steps=40` reached." in fit_log


@pytest.mark.parametrize("text", SILENCED)
def test_silenced_library_lines_do_not_appear(fit_log, text):
    assert text not in fit_log


class _Clock:
    def __init__(self, step: float):
        self.t, self.step = 0.0, step

    def __call__(self) -> float:
        self.t += self.step
        return self.t


def _trainer(**kw):
    base = dict(global_step=0, current_epoch=0, max_steps=-1, max_epochs=10, num_training_batches=50,
                accumulate_grad_batches=1, callback_metrics={}, sanity_checking=False)
    return SimpleNamespace(**{**base, **kw})


def test_a_line_at_least_every_interval_between_step_lines(caplog):
    cb, trainer = ProgressLog(every_n_steps=10**6, interval_s=30, clock=_Clock(step=7.0)), _trainer()
    cb.on_train_start(trainer, None)
    with caplog.at_level("INFO", logger="sparselab"):
        for step in range(1, 21):              # 7 s per step: 30 s pass every 5th step
            trainer.global_step = step
            cb.on_train_batch_end(trainer, None, None, None, step - 1)
    got = [LINE.search(r.getMessage()) for r in caplog.records]
    assert [int(m.group(1)) for m in got] == [5, 10, 15, 20]
    # 20 steps in 140 s against the epoch cap 10 x 50 = 500 steps: 480 left at 1/7 step/s
    assert got[-1].group(2) == "500" and got[-1].group(6) == "0.143" and got[-1].group(8) == duration(480 * 7)
    trainer.global_step = 20
    with caplog.at_level("INFO", logger="sparselab"):
        for i in range(5):                      # a long validation shows signs of life too
            cb.on_validation_batch_end(trainer, None, None, None, i)
    assert "validating (batch 5)" in caplog.records[-1].getMessage()


def test_caps_and_the_progress_bar_count_to_where_the_run_stops():
    t = _trainer(max_steps=40, max_epochs=100, num_training_batches=2)
    assert (step_cap(t), epoch_cap(t)) == (40, 20)
    assert (step_cap(_trainer(max_epochs=-1)), epoch_cap(_trainer(max_epochs=-1))) == (None, None)
    assert step_cap(_trainer(max_epochs=3, num_training_batches=7, accumulate_grad_batches=2)) == 12
    bar = CappedRichProgressBar()
    bar._trainer = t
    assert bar._get_train_description(19).strip() == "Epoch 19/19"
    assert [duration(s) for s in (42, 365, 7380)] == ["42s", "6m05s", "2h03m"]
