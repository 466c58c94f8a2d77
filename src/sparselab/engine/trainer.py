"""The Lightning Trainer every gradient-trained task uses.

In a terminal it shows a progress bar; in batch/CI runs it prints one line every
``log_every_n_steps`` instead (rich prints only its last frame in a non-tty and
tqdm floods the log, STACK.md).
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


def make_trainer(tcfg: DictConfig, ctx: RunContext, callbacks=(), **overrides) -> L.Trainer:
    kwargs = OmegaConf.to_container(tcfg, resolve=True)
    every = kwargs.get("log_every_n_steps", 50)
    kwargs.setdefault("enable_checkpointing", False)  # tasks keep their own best state
    kwargs.update(overrides)
    cbs = list(callbacks)
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
