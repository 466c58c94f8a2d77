"""One LightningModule for every task that trains a sequence decoder with a Fenchel–Young loss.

* **Loss**: α-entmax Fenchel–Young loss on the output scores, ``sparselab.mappings.fy_loss`` with
  α = ``mapping.alpha`` (α = 1 is cross-entropy), mean over non-padding target tokens.
* **Optimiser**: Adam; the learning rate is halved after a validation by one of two rules
  (``lr_rule``), stepped right after each validation (whatever the validation schedule: within
  epochs, every N global steps, every k epochs), except the one after the last training step:

  - ``"best"``: ``torch.optim.lr_scheduler.ReduceLROnPlateau(factor=0.5, patience=0)`` on ``val_loss``:
    halve after every validation whose loss is not a new best;
  - ``"previous"``: :class:`HalveOnLossIncrease`, Peters et al. (2019)'s rule: halve "whenever the loss
    increases on the validation set", i.e. when it is higher than at the previous validation;
  - ``"constant"``: never halve (a control for the issue-20 diagnosis: does a run that starts late catch up
    when its rate is not cut?).
* **Validation**: teacher-forced loss per target token and the task's metric on its own decode,
  accumulated with torchmetrics (``SumMetric`` in float64, so the sums are those of Python floats).
  Each validation appends ``{epoch, step, val_loss, <metric>, lr}`` to :attr:`history`.
* **Model selection**: :meth:`callbacks` gives Lightning's ``ModelCheckpoint`` (best state by the
  task's metric, ``save_top_k=1``, weights only) and, optionally, early stopping on the same
  metric (:attr:`early_stopping`, by default :class:`EarlyStoppingAfterStart`: patience counts only once the
  run has started to learn);
  :meth:`load_best` loads the kept state with ``torch.load(..., weights_only=True)``.

A task subclasses it and adds only its metric (:meth:`make_metric`, named :attr:`metric_name`,
better when higher unless :attr:`metric_mode` is ``"min"``) and its decode (:meth:`decode`).
"""
from __future__ import annotations

import logging
from pathlib import Path

import lightning as L
import torch
from lightning.pytorch.callbacks import EarlyStopping
from torchmetrics import Metric, SumMetric

from sparselab import mappings
from sparselab.training.run_state import KeepsRunState
from sparselab.training.timing import StepTimer

log = logging.getLogger("sparselab")


class SequenceAccuracy(Metric):
    """Exact-match accuracy (%) of predicted token sequences against gold ones.

    A prediction is cut after its first EOS (kept whole if it has none); gold rows are the padded
    targets (``tgt_out``: the sequence, EOS, then padding). Correct iff the two are equal, EOS included.
    """

    full_state_update = False

    def __init__(self, eos_id: int, pad_id: int, **kwargs):
        super().__init__(**kwargs)
        self.eos_id, self.pad_id = int(eos_id), int(pad_id)
        self.add_state("correct", torch.tensor(0, dtype=torch.long), dist_reduce_fx="sum")
        self.add_state("total", torch.tensor(0, dtype=torch.long), dist_reduce_fx="sum")

    def update(self, pred: torch.Tensor, gold: torch.Tensor) -> None:
        L, T = pred.size(1), gold.size(1)
        is_eos = pred == self.eos_id
        pred_len = torch.where(is_eos.any(1), is_eos.int().argmax(1) + 1, torch.full_like(pred[:, 0], L))
        gold_len = (gold != self.pad_id).sum(1)
        m = min(L, T)
        pos = torch.arange(m, device=pred.device)
        same = (pred[:, :m] == gold[:, :m]) | (pos.unsqueeze(0) >= gold_len.unsqueeze(1))
        ok = (pred_len == gold_len) & same.all(1)
        self.correct += ok.sum()
        self.total += ok.numel()

    def compute(self) -> torch.Tensor:
        return 100.0 * self.correct.double() / self.total.clamp(min=1)


class HalveOnLossIncrease:
    """Multiply the learning rate by ``factor`` whenever the validation loss is higher than at the previous
    validation (Peters et al. 2019: "halved whenever the loss increases on the validation set").

    Hand-written because torch has no such scheduler: ``ReduceLROnPlateau`` compares with the best loss so
    far, so a loss that rises once and then falls again (but stays above the best) halves the rate at every
    validation until it beats the best, where this rule halves once.
    """

    def __init__(self, optimizer: torch.optim.Optimizer, factor: float = 0.5):
        self.optimizer, self.factor = optimizer, float(factor)
        self.last: float | None = None

    def step(self, loss: float) -> None:
        if self.last is not None and loss > self.last:
            for g in self.optimizer.param_groups:
                g["lr"] = g["lr"] * self.factor
        self.last = float(loss)

    def state_dict(self) -> dict:
        return {"last": self.last, "factor": self.factor}

    def load_state_dict(self, state: dict) -> None:
        self.last, self.factor = state["last"], float(state["factor"])


LR_RULES = ("best", "previous", "constant")


class EarlyStoppingAfterStart(EarlyStopping):
    """Lightning's ``EarlyStopping`` whose patience starts counting only once the monitored metric has
    moved past its first validation's value by more than ``start_delta`` (in the better direction).

    Why not a minimum number of epochs: when a run starts to learn depends on the lr and on α (measured in
    measured: at lr 1e-3, softmax output, an attention-α 1.5 model was still at 0-4 % dev accuracy at epoch
    14, while attention α 1 was at 25 %), so any fixed minimum is either too short for a late starter or
    wasted on an early one. A run that never starts runs to the trainer's epoch / step cap, which the
    reports flag.
    """

    def __init__(self, *args, start_delta: float = 0.0, **kwargs):
        super().__init__(*args, **kwargs)
        self.start_delta = float(start_delta)
        self.first: float | None = None
        self.started = self.start_delta <= 0
        self.started_epoch: int | None = 0 if self.started else None   # recorded: when patience began to count

    def _run_early_stopping_check(self, trainer) -> None:
        if not self.started:
            value = trainer.callback_metrics.get(self.monitor)
            if value is None:
                return
            value = float(value)
            if self.first is None:
                self.first = value
            sign = 1.0 if self.mode == "max" else -1.0
            self.started = sign * (value - self.first) > self.start_delta
            if not self.started:
                return
            self.started_epoch = int(trainer.current_epoch)
        super()._run_early_stopping_check(trainer)

    def state_dict(self) -> dict:
        return {**super().state_dict(), "first": self.first, "started": self.started,
                "started_epoch": self.started_epoch}

    def load_state_dict(self, state: dict) -> None:
        super().load_state_dict(state)
        self.first, self.started = state.get("first"), bool(state.get("started", True))
        self.started_epoch = state.get("started_epoch", self.started_epoch)


class Seq2SeqModule(KeepsRunState, L.LightningModule):
    """``model``: an ``nn.Module`` with ``forward(src, src_len, tgt_in) -> logits (B,T,V)`` and a
    ``tgt_pad_id`` attribute (e.g. :class:`sparselab.models.seq2seq.Seq2Seq`)."""

    metric_name = "val_acc"
    metric_mode = "max"
    early_stopping = EarlyStoppingAfterStart    # the early-stopping callback class (translation: plateau rule)

    def __init__(self, model, alpha: float, lr: float = 1e-3, ctx=None, lr_factor: float = 0.5,
                 lr_patience: int = 0, lr_rule: str = "best"):
        super().__init__()
        if lr_rule not in LR_RULES:
            raise ValueError(f"lr_rule={lr_rule!r}: must be one of {', '.join(LR_RULES)}")
        self.model, self.alpha, self.lr, self.ctx = model, float(alpha), float(lr), ctx
        self.lr_factor, self.lr_patience, self.lr_rule = float(lr_factor), int(lr_patience), str(lr_rule)
        self.pad_id = int(model.tgt_pad_id)
        self.val_loss_sum = SumMetric().set_dtype(torch.float64)
        self.val_tokens = SumMetric().set_dtype(torch.float64)
        self.val_metric = self.make_metric()
        self.history: list[dict] = []
        self.best_score: float | None = None
        self.best_epoch = -1
        self.train_samples = 0
        self.timer = StepTimer()
        self._plateau_state: dict | None = None   # a resumed run's halving-rule state, until configure_optimizers

    # ---- what a task adds
    def make_metric(self) -> Metric:
        """The validation metric (a torchmetrics ``Metric`` updated with ``(decode(batch), tgt_out)``)."""
        raise NotImplementedError

    def decode(self, batch) -> torch.Tensor:
        """Predicted token ids (B, L) for the validation metric."""
        raise NotImplementedError

    # ---- optimisation
    def configure_optimizers(self):
        """Adam; the halving rule (``lr_rule``) is stepped by :meth:`on_validation_epoch_end`, not by Lightning.

        Why by hand: Lightning steps a scheduler every ``frequency`` batches *counted within the epoch*
        (or every ``frequency`` epochs), so it cannot follow a validation schedule of every N global steps
        across epochs (translation) or one validation per 10 epochs; stepping right after each validation
        follows any schedule. ``threshold=0``: any decrease below the best loss counts as an improvement.
        """
        opt = torch.optim.Adam(self.model.parameters(), lr=self.lr)
        if self.lr_rule == "previous":
            self.plateau = HalveOnLossIncrease(opt, factor=self.lr_factor)
        elif self.lr_rule == "constant":
            self.plateau = None
        else:
            self.plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=self.lr_factor,
                                                                      patience=self.lr_patience, threshold=0.0)
        if self._plateau_state is not None:
            self.plateau.load_state_dict(self._plateau_state)
            self._plateau_state = None
        return opt

    # ---- resume (sparselab.training.run_state): the halving rule is stepped by hand, so not Lightning's to save
    def run_state(self) -> dict:
        plateau = getattr(self, "plateau", None)
        return {**super().run_state(), "plateau": plateau.state_dict() if plateau is not None else None}

    def load_run_state(self, state: dict) -> None:
        super().load_run_state(state)
        if state.get("plateau") is not None:
            if getattr(self, "plateau", None) is not None:   # a strategy that restores after setup
                self.plateau.load_state_dict(state["plateau"])
            else:
                self._plateau_state = state["plateau"]

    def _lr(self):
        opts = self.trainer.optimizers if self._trainer is not None else []
        return opts[0].param_groups[0]["lr"] if opts else None

    def loss(self, batch, reduction: str = "mean") -> torch.Tensor:
        logits = self.model(batch["src"], batch["src_len"], batch["tgt_in"])
        return mappings.fy_loss(logits.reshape(-1, logits.size(-1)), batch["tgt_out"].reshape(-1), self.alpha,
                                reduction=reduction, ignore_index=self.pad_id)

    # ---- training (timed: samples/s of the training steps only)
    @property
    def train_time(self) -> float:
        """Seconds spent in training steps (on CUDA the device's time, training/timing.py)."""
        return self.timer.total("train")

    def timed_keys(self) -> tuple[str, ...]:
        """The totals of :attr:`timer` the current step's time is added to."""
        return ("train",)

    def on_train_batch_start(self, batch, batch_idx):
        self.timer.start(self.device)

    def training_step(self, batch, batch_idx):
        loss = self.loss(batch)
        self.log("train_loss", loss.detach(), prog_bar=True, batch_size=batch["src"].size(0))
        return loss

    def on_train_batch_end(self, outputs, batch, batch_idx):
        n = int(batch["src"].size(0))
        self.timer.stop(*self.timed_keys())
        self.train_samples += n
        if self.ctx is not None:
            self.ctx.samples_seen += n

    # ---- validation: loss per target token (teacher forcing) + the task's metric on its decode
    def on_validation_epoch_start(self):
        # float64 again: the trainer's precision plugin casts the module (metric states included) to float32
        for m in (self.val_loss_sum, self.val_tokens):
            m.set_dtype(torch.float64)
        for m in (self.val_loss_sum, self.val_tokens, self.val_metric):
            m.reset()

    def validation_step(self, batch, batch_idx):
        loss = self.loss(batch, reduction="sum")
        self.val_loss_sum.update(loss.detach())
        self.val_tokens.update((batch["tgt_out"] != self.pad_id).sum())
        self.val_metric.update(self.decode(batch), batch["tgt_out"])

    def on_validation_epoch_end(self):
        if self.trainer.sanity_checking or not self.val_metric.update_called:
            return
        val_loss = float(self.val_loss_sum.compute()) / max(1.0, float(self.val_tokens.compute()))
        score = float(self.val_metric.compute())
        self.log("val_loss", val_loss)
        self.log(self.metric_name, score)
        self.history.append({"epoch": int(self.current_epoch), "step": int(self.global_step),
                             "val_loss": val_loss, self.metric_name: score, "lr": self._lr()})
        better = self.best_score is None or (score > self.best_score if self.metric_mode == "max"
                                             else score < self.best_score)
        if better:  # strict, like ModelCheckpoint: the first of equal scores is the one kept
            self.best_score, self.best_epoch = score, int(self.current_epoch)
        if self.training_finished():
            self.history[-1]["lr"] = self._lr()   # after the last step: nothing left to schedule
        elif getattr(self, "plateau", None) is not None:
            # the logged (float32) value, as a Lightning-managed scheduler would have compared it
            self.plateau.step(float(torch.tensor(val_loss, dtype=torch.float32)))
            self.history[-1]["lr"] = self._lr()
        log.info("validation epoch %d step %d: val_loss=%.4f %s=%.4g lr=%.3g%s", self.current_epoch,
                 self.global_step, val_loss, self.metric_name, score, self._lr(), " (best)" if better else "")

    def lr_halvings(self) -> int:
        """How many validations lowered the learning rate (read from :attr:`history`)."""
        lrs = [h["lr"] for h in self.history if h.get("lr") is not None]
        return sum(b < a for a, b in zip([self.lr, *lrs], lrs))

    def training_finished(self) -> bool:
        """Whether this validation follows the last training step (``ValidateOnLastStep``, max_steps)."""
        t = self.trainer
        return bool(t.should_stop) or (t.max_steps is not None and 0 <= t.max_steps <= t.global_step)

    # ---- model selection
    def callbacks(self, dirpath: str | Path, early_stopping_patience: int | None = None,
                  early_stopping_min_delta: float = 0.0, early_stopping_start: float = 0.0) -> list[L.Callback]:
        """``ModelCheckpoint`` keeping the best state by :attr:`metric_name` (and early stopping on it when
        ``early_stopping_patience`` is not None, whose patience counts only once the metric has moved more
        than ``early_stopping_start`` past its first validation's value)."""
        from lightning.pytorch.callbacks import ModelCheckpoint

        cbs: list[L.Callback] = [ModelCheckpoint(dirpath=str(dirpath), filename="best", monitor=self.metric_name,
                                                 mode=self.metric_mode, save_top_k=1, save_weights_only=True,
                                                 save_last=False, auto_insert_metric_name=False)]
        if early_stopping_patience is not None:
            cbs.append(self.early_stopping(monitor=self.metric_name, mode=self.metric_mode,
                                           patience=int(early_stopping_patience),
                                           min_delta=float(early_stopping_min_delta or 0.0),
                                           start_delta=float(early_stopping_start or 0.0)))
        return cbs

    def load_best(self, checkpoint) -> bool:
        """Load the best state a ``ModelCheckpoint`` kept (``weights_only=True``); False if it kept none."""
        path = getattr(checkpoint, "best_model_path", checkpoint)
        if not path:
            return False
        state = torch.load(path, map_location=self.device, weights_only=True)["state_dict"]
        self.load_state_dict(state)
        return True
