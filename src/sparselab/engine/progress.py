"""What a training job shows while it runs, and the library chatter it does not show.

- :class:`ProgressLog` (batch and CI runs, no progress bar): a log line every ``every_n_steps`` training steps
  and at least every ``interval_s`` seconds (also while a long validation runs), with the step, the rate
  (steps/s since training started) and the ETA to the step or epoch cap.
- :class:`CappedRichProgressBar` (a terminal): Lightning's rich bar, whose "Epoch i/N" counts to the epoch
  where the run really stops (``max_steps`` or ``max_epochs``, whichever comes first): "Epoch 19/19" for a
  40-step run of 2 batches per epoch, where Lightning shows ``max_epochs - 1`` ("Epoch 19/99"), and log lines routed
  through rich's console while it is drawn (they print above the bar instead of into its line).
- :func:`quiet_library_logs` silences library lines that carry nothing for a reader of our logs.
"""
from __future__ import annotations

import logging
import math
import re
import sys
import time
import warnings
from typing import Callable

import lightning as L
from lightning.pytorch.callbacks import RichProgressBar

log = logging.getLogger("sparselab")

# Lines silenced, each with its text and why (Lightning 2.6.6, torch 2.13):
#   logger lightning.pytorch.utilities.rank_zero (INFO), printed by every Trainer:
#   - "💡 Tip: For seamless cloud logging and experiment tracking, try installing [litlogger] ..." and
#     "💡 Tip: For seamless cloud uploads and versioning, try installing [litmodels] ...": advertisements;
#     we log to W&B and keep our own run records.
#   - "GPU available: False, used: False" and "TPU available: False, using: 0 TPU cores": say only that a CPU
#     job ran on the CPU, which run.json records (device). A line saying a GPU or TPU *is* there is kept.
#   Python warning (FutureWarning, from lightning/pytorch/utilities/_pytree.py):
#   - "`isinstance(treespec, LeafSpec)` is deprecated, use `isinstance(treespec, TreeSpec) and
#     treespec.is_leaf()` instead.": Lightning 2.6.6 builds torch's LeafSpec, deprecated in torch 2.13; nothing
#     of ours calls it and nothing we can change (it goes with a Lightning update).
# Not silenced but removed at the cause: Lightning's "The number of training batches (2) is smaller than the
# logging interval Trainer(log_every_n_steps=10)" (make_trainer clamps log_every_n_steps to the epoch length).
# Kept: "`Trainer.fit` stopped: `max_steps=40` reached." (why a run ended).
# A resumed fit's two warnings about its intended state are silenced for that fit (training.loop.RESUME_WARNINGS).
SILENCED_LINES = (re.compile(r"^💡 Tip: "), re.compile(r"^(GPU|TPU) available: False\b"))
SILENCED_WARNINGS = (r"`isinstance\(treespec, LeafSpec\)` is deprecated",)
LIGHTNING_LOGGERS = ("lightning.pytorch.utilities.rank_zero", "lightning.fabric.utilities.rank_zero")


class _DropLines(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        msg = record.getMessage()
        return not any(p.search(msg) for p in SILENCED_LINES)


_FILTER = _DropLines()


def quiet_library_logs() -> None:
    """Install the filters above (idempotent: a logger keeps one copy of a filter; warnings are de-duplicated)."""
    for name in LIGHTNING_LOGGERS:
        logging.getLogger(name).addFilter(_FILTER)
    for message in SILENCED_WARNINGS:
        warnings.filterwarnings("ignore", message=message, category=FutureWarning)


def _stream_handlers() -> list[logging.StreamHandler]:
    """Every console handler of the process's loggers (file handlers excepted: they never reach the terminal)."""
    loggers = [logging.root, *(lg for lg in logging.root.manager.loggerDict.values() if isinstance(lg, logging.Logger))]
    return [h for lg in loggers for h in lg.handlers
            if isinstance(h, logging.StreamHandler) and not isinstance(h, logging.FileHandler)]


# ---------------------------------------------------------------- caps
def steps_per_epoch(trainer: L.Trainer) -> int | None:
    n = trainer.num_training_batches
    if not n or math.isinf(n):
        return None
    return max(1, math.ceil(n / max(1, trainer.accumulate_grad_batches)))


def step_cap(trainer: L.Trainer) -> int | None:
    """The optimizer step at which training ends at the latest (None: no cap, or unknown epoch length)."""
    caps = []
    if trainer.max_steps is not None and trainer.max_steps > 0:
        caps.append(trainer.max_steps)
    per_epoch = steps_per_epoch(trainer)
    if trainer.max_epochs is not None and trainer.max_epochs >= 0 and per_epoch:
        caps.append(trainer.max_epochs * per_epoch)
    return min(caps) if caps else None


def epoch_cap(trainer: L.Trainer) -> int | None:
    """How many epochs training runs at most, counting the epoch in which ``max_steps`` is reached."""
    caps = []
    if trainer.max_epochs is not None and trainer.max_epochs >= 0:
        caps.append(trainer.max_epochs)
    per_epoch = steps_per_epoch(trainer)
    if trainer.max_steps is not None and trainer.max_steps > 0 and per_epoch:
        caps.append(math.ceil(trainer.max_steps / per_epoch))
    return min(caps) if caps else None


def duration(seconds: float) -> str:
    """``42s``, ``6m05s``, ``2h03m``."""
    s = int(round(seconds))
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s // 3600}h{s % 3600 // 60:02d}m"


# ---------------------------------------------------------------- callbacks
class ProgressLog(L.Callback):
    """A progress line every ``every_n_steps`` steps and at least every ``interval_s`` seconds, e.g.

    ``step 1200/2500 (48%) epoch 2/5 | 3.21 steps/s | elapsed 6m14s, ETA 6m45s | train_loss=0.51 val_acc=42``

    The ETA is to the cap (early stopping may end the run sooner). ``clock`` is for tests.
    """

    def __init__(self, every_n_steps: int, interval_s: float = 30.0, clock: Callable[[], float] = time.monotonic):
        self.every = max(1, int(every_n_steps))
        self.interval_s = float(interval_s)
        self.clock = clock
        self._t0 = self._last = 0.0
        self._step0 = 0

    def on_train_start(self, trainer, pl_module):
        self._t0 = self._last = self.clock()
        self._step0 = trainer.global_step

    def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx):
        now = self.clock()
        if trainer.global_step % self.every == 0 or now - self._last >= self.interval_s:
            self._emit(trainer, now)

    def on_validation_batch_end(self, trainer, pl_module, outputs, batch, batch_idx, dataloader_idx=0):
        now = self.clock()
        if not trainer.sanity_checking and now - self._last >= self.interval_s:
            self._emit(trainer, now, phase=f"validating (batch {batch_idx + 1})")

    def line(self, trainer, now: float, phase: str = "") -> str:
        step, elapsed = trainer.global_step, now - self._t0
        rate = (step - self._step0) / elapsed if elapsed > 0 else 0.0
        cap, epochs = step_cap(trainer), epoch_cap(trainer)
        # epochs as Lightning and our validation lines count them: from 0, "/N" the last one
        parts = [f"step {step}" + (f"/{cap} ({100 * step / cap:.0f}%)" if cap else "")
                 + f" epoch {trainer.current_epoch}" + (f"/{epochs - 1}" if epochs else "")]
        if phase:
            parts[0] += f" {phase}"
        eta = (f"ETA {duration((cap - step) / rate)}" if cap and rate > 0 else
               "ETA ? (no step or epoch cap)" if not cap else "ETA ?")
        parts += [f"{rate:.3g} steps/s", f"elapsed {duration(elapsed)}, {eta}"]
        metrics = {k: float(v) for k, v in trainer.callback_metrics.items() if v.numel() == 1}
        if metrics:
            parts.append(" ".join(f"{k}={v:.4g}" for k, v in sorted(metrics.items())))
        return " | ".join(parts)

    def _emit(self, trainer, now: float, phase: str = "") -> None:
        self._last = now
        log.info("%s", self.line(trainer, now, phase))


class _UnderLock:
    """A rich proxy written under the live display's lock. The proxy writes its line to the terminal after it has
    released that lock, so the refresh thread could write its frame in between, with a cursor-up count taken
    before the line, and erase the line (seen as a flaky CI failure); under the lock the line and the frame that
    follows it go out together."""

    def __init__(self, proxy, lock):
        self.proxy, self.lock = proxy, lock

    def write(self, text: str) -> int:
        with self.lock:
            return self.proxy.write(text)

    def flush(self) -> None:
        with self.lock:
            self.proxy.flush()


class CappedRichProgressBar(RichProgressBar):
    """Lightning's rich bar, counting epochs to where the run stops (see the module docstring), with the log lines
    routed through rich's console while the bar is live.

    Rich redirects ``sys.stdout``/``sys.stderr`` to its console while the bar shows (``rich.file_proxy.FileProxy``:
    a line printed goes above the bar), but a logging handler keeps the stream it was made with (Hydra's console
    handler: the real stdout), so its lines were written into the bar's line and then drawn over. While the bar
    is live every such handler writes to rich's proxy of its stream instead, and gets its own stream back after."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._routed: list[tuple[logging.StreamHandler, object]] = []

    def _init_progress(self, trainer) -> None:
        super()._init_progress(trainer)
        if self._routed:
            return
        from rich.file_proxy import FileProxy

        proxies = {id(p.rich_proxied_file): p for p in (sys.stdout, sys.stderr) if isinstance(p, FileProxy)}
        lock = self.progress.live._lock
        for handler in _stream_handlers():
            proxy = proxies.get(id(handler.stream))
            if proxy is not None:
                self._routed.append((handler, handler.setStream(_UnderLock(proxy, lock))))

    def _stop_progress(self) -> None:
        for handler, stream in reversed(self._routed):
            handler.setStream(stream)
        self._routed.clear()
        super()._stop_progress()

    def _get_train_description(self, current_epoch: int) -> str:
        epochs = epoch_cap(self.trainer)           # Lightning's format: from 0, "/N" the last epoch
        text = f"Epoch {current_epoch}" + (f"/{epochs - 1}" if epochs else "")
        return f"{text:{len(self.validation_description)}}"     # same width as "Validation": no flicker
