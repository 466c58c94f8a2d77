"""The Lightning Trainer every gradient-trained task uses.

In a terminal it shows a progress bar (:class:`~sparselab.engine.progress.CappedRichProgressBar`); in
batch/CI runs a log line every ``log_every_n_steps`` steps and at least every 30 s, with rate and ETA
(:class:`~sparselab.engine.progress.ProgressLog`; rich prints only its last frame in a non-tty and tqdm
floods the log, STACK.md). Library chatter is silenced (:func:`~sparselab.engine.progress.quiet_library_logs`).

:class:`ValidateOnLastStep` makes the last training step reach validation (and so the
checkpoint callback's model selection) when it falls between two validation checks.
"""
from __future__ import annotations

import time
from typing import Any, Mapping

import lightning as L
from omegaconf import DictConfig, OmegaConf

from sparselab.engine.context import RunContext
from sparselab.engine.progress import CappedRichProgressBar, ProgressLog, quiet_library_logs

PROGRESS_INTERVAL_S = 30.0      # a batch log shows a sign of life at least this often
WARMUP_STEPS = 10               # steps left out of the record's throughput (the first job of a sweep pays imports)


class ValidateOnLastStep(L.Callback):
    """Validate after the last training step even when it falls between two validation checks.

    Lightning counts ``val_check_interval`` within each epoch, so the steps after the last check
    (up to a whole interval when ``max_steps`` ends mid-epoch) would never reach model selection.
    On the final step (``max_steps`` reached, or the last batch of the last epoch) this sets
    ``trainer.should_stop``, which makes the training loop run validation before it stops, inside
    ``fit`` (so ``ModelCheckpoint`` and ``EarlyStopping`` see it). Adds nothing when that step is a
    validation step anyway.
    """

    def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx):
        max_steps = trainer.max_steps
        last_step = max_steps is not None and max_steps >= 0 and trainer.global_step >= max_steps
        max_epochs = trainer.max_epochs
        last_batch = (max_epochs is not None and max_epochs >= 0 and trainer.current_epoch + 1 >= max_epochs
                      and trainer.fit_loop.epoch_loop.batch_progress.is_last_batch)
        if last_step or last_batch:
            trainer.should_stop = True


class WarmThroughput(L.Callback):
    """Training samples/s after warm-up: from the end of this process's first ``skip`` steps (imports, the first
    batches' allocations and kernel compiles) to the end of training, validation time left out; put in
    ``ctx.throughput`` for the record. A fit of ``skip`` steps or fewer leaves it None (the record then says its
    figure includes warm-up)."""

    def __init__(self, ctx: RunContext, skip: int = WARMUP_STEPS):
        self.ctx, self.skip = ctx, int(skip)
        self._first = self._t0 = self._n0 = None
        self._val_t0, self._val_s, self._steps = None, 0.0, 0

    def on_train_start(self, trainer, pl_module):
        self._first = int(trainer.global_step)       # a resumed fit counts from where it resumed

    def on_train_batch_start(self, trainer, pl_module, batch, batch_idx):
        # at a batch's start the module has counted every earlier batch's samples (its batch-end hook runs last)
        done = int(trainer.global_step) - (self._first or 0)
        if self._t0 is None and done >= self.skip:
            self._t0, self._n0, self._val_s, self._steps = time.perf_counter(), self.ctx.samples_seen, 0.0, done

    def on_validation_start(self, trainer, pl_module):
        self._val_t0 = time.perf_counter()

    def on_validation_end(self, trainer, pl_module):
        if self._val_t0 is not None and self._t0 is not None:
            self._val_s += time.perf_counter() - self._val_t0
        self._val_t0 = None

    def on_train_end(self, trainer, pl_module):
        if self._t0 is None:
            return
        seconds = time.perf_counter() - self._t0 - self._val_s
        steps = int(trainer.global_step) - (self._first or 0) - self._steps
        samples = self.ctx.samples_seen - self._n0
        if steps > 0 and samples > 0 and seconds > 0:
            self.ctx.throughput = {"samples_per_s": round(samples / seconds, 3), "steps": steps,
                                   "after_warmup_steps": self.skip, "seconds": round(seconds, 3)}


def make_trainer(tcfg: DictConfig | Mapping[str, Any], ctx: RunContext, callbacks=(), train_batches: int | None = None,
                 **overrides) -> L.Trainer:
    """``callbacks`` come first; a ``ModelCheckpoint`` among them turns checkpointing on (a task
    that passes none keeps its state itself and gets no checkpoint files). ``train_batches`` (the
    training loader's length) caps ``log_every_n_steps``: Lightning warns when an epoch is shorter
    than the interval, and its loggers would then log no training step at all."""
    from lightning.pytorch.callbacks import ModelCheckpoint

    quiet_library_logs()
    kwargs = OmegaConf.to_container(tcfg, resolve=True) if OmegaConf.is_config(tcfg) else dict(tcfg)
    kwargs.update(overrides)
    every = int(kwargs.get("log_every_n_steps") or 50)
    # Lightning's loggers get the clamped interval; our progress lines keep the configured one
    kwargs["log_every_n_steps"] = min(every, int(train_batches)) if train_batches else every
    cbs = list(callbacks)
    kwargs.setdefault("enable_checkpointing", any(isinstance(c, ModelCheckpoint) for c in cbs))
    cbs.append(CappedRichProgressBar() if ctx.progress_bar else ProgressLog(every, PROGRESS_INTERVAL_S))
    cbs.append(WarmThroughput(ctx))
    return L.Trainer(
        **kwargs,
        callbacks=cbs,
        logger=ctx.lightning_logger() or False,
        enable_progress_bar=ctx.progress_bar,
        enable_model_summary=False,
        default_root_dir=str(ctx.run_dir),
    )
