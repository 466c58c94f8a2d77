"""What a LightningModule of ours keeps outside Lightning's checkpoint, saved into it and read back on resume.

Lightning saves the weights, the optimizer, the schedulers it steps, the loops' progress and every
callback's ``state_dict``. Our modules also keep, across validations: the validation :attr:`history`,
the best score and its epoch, the training-sample counter and the step timer's totals (samples/s and
tokens/s of a resumed run count the whole run). :class:`KeepsRunState` saves them under
``checkpoint["sparselab"]`` (``on_save_checkpoint``) and restores them (``on_load_checkpoint``); a
module with more such state extends :meth:`run_state` / :meth:`load_run_state`.
"""
from __future__ import annotations


class KeepsRunState:
    """Mixin for a LightningModule with ``history``, ``best_score``, ``best_epoch``, ``train_samples``,
    ``timer`` (:class:`~sparselab.training.timing.StepTimer`) and ``ctx`` attributes."""

    def run_state(self) -> dict:
        return {"history": list(self.history), "best_score": self.best_score, "best_epoch": self.best_epoch,
                "train_samples": self.train_samples, "timer": self.timer.state_dict()}

    def load_run_state(self, state: dict) -> None:
        self.history = list(state["history"])
        self.best_score, self.best_epoch = state["best_score"], int(state["best_epoch"])
        self.train_samples = int(state["train_samples"])
        self.timer.load_state_dict(state["timer"])
        if self.ctx is not None:   # the record's samples_seen / throughput count the whole run
            self.ctx.samples_seen = self.train_samples

    def on_save_checkpoint(self, checkpoint: dict) -> None:
        checkpoint["sparselab"] = self.run_state()

    def on_load_checkpoint(self, checkpoint: dict) -> None:
        if "sparselab" in checkpoint:
            self.load_run_state(checkpoint["sparselab"])
