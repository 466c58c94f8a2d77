"""Early stopping by the MT reports' convergence rule (:func:`sparselab.analysis.plateau.convergence`).

Training stops at the first validation where, over the last ``patience`` validations in updates (patience ×
the trainer's step cadence), both the 2-validation smoothed validation accuracy and the best validation gained
less than ``min_delta`` points: the check each MT report makes of every run. Lightning's own
``EarlyStopping`` stopped a de-en run whose smoothed curve was still rising: gains below ``min_delta`` never reset
its patience, however many add up. The decision is a function of the module's validation history, which a resume
restores, so a resumed run stops where an uninterrupted one would.
"""
from __future__ import annotations

import logging

import torch
from lightning.pytorch.callbacks.early_stopping import EarlyStoppingReason

from sparselab.analysis.plateau import SMOOTH_VALIDATIONS, convergence
from sparselab.training.seq2seq_module import EarlyStoppingAfterStart

log = logging.getLogger("sparselab")


class PlateauStopping(EarlyStoppingAfterStart):
    """``EarlyStoppingAfterStart`` (patience counts once the metric has moved ``start_delta`` past its first value)
    whose stopping test is :func:`convergence` over the module's ``history`` instead of Lightning's patience
    counter. Only for a metric that is better when higher, validated every N training steps."""

    def __init__(self, *args, smooth: int = SMOOTH_VALIDATIONS, **kwargs):
        super().__init__(*args, **kwargs)
        if self.mode != "max":
            raise ValueError(f"PlateauStopping judges a metric that is better when higher, not mode={self.mode!r}")
        self.smooth, self.gain = int(smooth), abs(float(self.min_delta))
        self._trainer = None

    @property
    def state_key(self) -> str:
        # EarlyStoppingAfterStart's key: a run checkpointed under that callback resumes with its `started` flag
        return f"{EarlyStoppingAfterStart.__qualname__}{dict(monitor=self.monitor, mode=self.mode)!r}"

    def setup(self, trainer, pl_module, stage: str) -> None:
        super().setup(trainer, pl_module, stage)
        self._trainer = trainer

    def window_steps(self) -> int:
        every = self._trainer.val_check_interval
        if not isinstance(every, int) or isinstance(every, bool) or every <= 0:
            raise ValueError("early stopping by plateau needs validation every N training steps "
                             f"(trainer.val_check_interval an int), got {every!r}")
        return int(self.patience) * every

    def _evaluate_stopping_criteria(self, current: torch.Tensor) -> tuple[bool, str | None]:
        if not torch.isfinite(current):
            return super()._evaluate_stopping_criteria(current)   # Lightning's non-finite stop
        conv = convergence(self._trainer.lightning_module.history, window=self.window_steps(),
                           smooth=self.smooth, gain=self.gain)
        if not conv["stopped"]:
            return False, None
        self.stopping_reason = EarlyStoppingReason.PATIENCE_EXHAUSTED
        why = (f"{self.monitor} stopped improving: over the last {conv['window']} steps the {self.smooth}-validation "
               f"smoothed curve gained {conv['trend']:+.2f} and the best {conv['record']:+.2f} (both below "
               f"{self.gain}); stopping")
        log.info(why)
        return True, why
