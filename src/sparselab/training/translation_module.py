"""The LightningModule of the translation task (Peters et al. 2019's LSTM; the Transformer's extends it).

What it adds to :class:`sparselab.training.seq2seq_module.Seq2SeqModule`: teacher-forced token accuracy
(:class:`TokenAccuracy`) as the model-selection metric, early stopping by the MT reports' convergence rule
(:class:`PlateauStopping`), target-token counting for the speed measurement, and a halving rule stepped after every validation even when validation runs every N steps across epochs
(``check_val_every_n_epoch: null``).
"""
from __future__ import annotations

import torch
from torchmetrics import Metric

from sparselab import mappings
from sparselab.training.plateau_stopping import PlateauStopping
from sparselab.training.seq2seq_module import Seq2SeqModule


class TokenAccuracy(Metric):
    """Token accuracy (%) under teacher forcing: argmax predictions equal to the gold token, over non-padding
    target positions (EOS included)."""

    full_state_update = False

    def __init__(self, pad_id: int, **kwargs):
        super().__init__(**kwargs)
        self.pad_id = int(pad_id)
        self.add_state("correct", torch.tensor(0, dtype=torch.long), dist_reduce_fx="sum")
        self.add_state("total", torch.tensor(0, dtype=torch.long), dist_reduce_fx="sum")

    def update(self, pred: torch.Tensor, gold: torch.Tensor) -> None:
        mask = gold != self.pad_id
        self.correct += ((pred == gold) & mask).sum()
        self.total += mask.sum()

    def compute(self) -> torch.Tensor:
        return 100.0 * self.correct.double() / self.total.clamp(min=1)


class TranslationModule(Seq2SeqModule):
    """What translation adds to the generic module: teacher-forced token accuracy as the model-selection
    metric, target-token counting for the speed measurement, and a plateau scheduler stepped after every
    validation even when validation runs every N steps across epochs (``check_val_every_n_epoch: null``;
    Lightning's own step-interval scheduling counts batches within an epoch)."""

    metric_name = "val_acc"
    metric_mode = "max"
    # stop by the MT reports' convergence rule, so a run ends exactly when its report calls it converged
    early_stopping = PlateauStopping
    # training steps left out of the speed measurement: the first calls compile kernels (torch.compile of the
    # sparse mappings, 10-30 s on a CPU) and warm caches
    speed_warmup_steps = 5

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.train_tgt_tokens = 0
        self.speed_tokens = 0
        self._batch_tokens = 0

    @property
    def speed_time(self) -> float:
        """Seconds in the training steps after the warm-up (device time on CUDA, training/timing.py)."""
        return self.timer.total("speed")

    def timed_keys(self) -> tuple[str, ...]:
        return ("train", "speed") if self.global_step > self.speed_warmup_steps else ("train",)

    def tokens_per_s(self) -> float:
        """Target tokens per second of training steps after the warm-up (all steps if there were no more)."""
        if self.speed_time > 0:
            return self.speed_tokens / self.speed_time
        return self.train_tgt_tokens / self.train_time if self.train_time > 0 else 0.0

    def make_metric(self):
        return TokenAccuracy(pad_id=self.model.tgt_pad_id)

    def run_state(self) -> dict:
        return {**super().run_state(), "train_tgt_tokens": self.train_tgt_tokens, "speed_tokens": self.speed_tokens}

    def load_run_state(self, state: dict) -> None:
        super().load_run_state(state)
        self.train_tgt_tokens, self.speed_tokens = int(state["train_tgt_tokens"]), int(state["speed_tokens"])

    def decode(self, batch):
        """Teacher-forced argmax (B, T)."""
        return self.model(batch["src"], batch["src_len"], batch["tgt_in"]).argmax(-1)

    # one forward per validation batch: loss and accuracy from the same logits
    def validation_step(self, batch, batch_idx):
        logits = self.model(batch["src"], batch["src_len"], batch["tgt_in"])
        loss = mappings.fy_loss(logits.reshape(-1, logits.size(-1)), batch["tgt_out"].reshape(-1), self.alpha,
                                reduction="sum", ignore_index=self.pad_id)
        self.val_loss_sum.update(loss.detach())
        self.val_tokens.update((batch["tgt_out"] != self.pad_id).sum())
        self.val_metric.update(logits.argmax(-1), batch["tgt_out"])

    def on_before_batch_transfer(self, batch, dataloader_idx):
        # the step's target tokens, counted on the host copy of the batch: no device sync per step
        if self._trainer is not None and self.trainer.training:
            self._batch_tokens = int((batch["tgt_out"] != self.pad_id).sum())
        return batch

    def on_train_batch_end(self, outputs, batch, batch_idx):
        super().on_train_batch_end(outputs, batch, batch_idx)
        n = self._batch_tokens
        self.train_tgt_tokens += n
        if self.global_step > self.speed_warmup_steps:
            self.speed_tokens += n
