"""The Lightning Trainer every gradient-trained task uses.

In a terminal it shows a progress bar; in batch/CI runs it prints one line every
``log_every_n_steps`` instead (rich prints only its last frame in a non-tty and
tqdm floods the log, STACK.md).

:class:`ValidateOnLastStep` makes the last training step reach validation (and so the
checkpoint callback's model selection) when it falls between two validation checks.
"""
from __future__ import annotations

import logging
import time

import lightning as L
from omegaconf import DictConfig, OmegaConf

from sparselab.engine.context import RunContext

log = logging.getLogger("sparselab")


class LogLineProgress(L.Callback):
    """One log line every N training steps, with throughput."""

    def __init__(self, every: int):
        self.every = max(1, int(every))
        self._t0 = time.time()

    def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx):
        step = trainer.global_step
        if step % self.every:
            return
        metrics = {k: float(v) for k, v in trainer.callback_metrics.items() if v.numel() == 1}
        shown = " ".join(f"{k}={v:.4g}" for k, v in sorted(metrics.items()))
        log.info("epoch %d step %d (%.0fs) %s", trainer.current_epoch, step, time.time() - self._t0, shown)


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


def make_trainer(tcfg: DictConfig, ctx: RunContext, callbacks=(), **overrides) -> L.Trainer:
    """``callbacks`` come first; a ``ModelCheckpoint`` among them turns checkpointing on (a task
    that passes none keeps its state itself and gets no checkpoint files)."""
    from lightning.pytorch.callbacks import ModelCheckpoint

    kwargs = OmegaConf.to_container(tcfg, resolve=True)
    every = kwargs.get("log_every_n_steps", 50)
    cbs = list(callbacks)
    kwargs.setdefault("enable_checkpointing", any(isinstance(c, ModelCheckpoint) for c in cbs))
    kwargs.update(overrides)
    if not ctx.progress_bar:
        cbs.append(LogLineProgress(every))
    return L.Trainer(
        **kwargs,
        callbacks=cbs,
        logger=ctx.lightning_logger() or False,
        enable_progress_bar=ctx.progress_bar,
        enable_model_summary=False,
        default_root_dir=str(ctx.run_dir),
    )
