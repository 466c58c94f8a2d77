"""The LightningModule of the NLI task: cross-entropy, Adam with an L2 penalty, dev accuracy, model selection.

* **Loss**: cross-entropy of the three-way classifier (:class:`sparselab.models.nli.NLIClassifier`).
* **Optimiser**: Adam on the trainable parameters (the pretrained embeddings are frozen) with
  ``weight_decay = l2``, i.e. the gradient of ``loss + l2/2 ||θ||²`` (Martins & Astudillo 2016: Adam,
  learning rate 3e-4, L2 tuned on dev).
* **Validation**: ``val_acc`` (%, torchmetrics ``MulticlassAccuracy`` micro-averaged) and ``val_loss`` on the
  dev set after every epoch; each validation appends ``{epoch, step, val_loss, val_acc}`` to :attr:`history`.
* **Model selection**: :meth:`callbacks` gives Lightning's ``ModelCheckpoint`` on ``val_acc`` (weights only,
  best one kept) and optionally ``EarlyStopping`` on it; :meth:`load_best` loads the kept state.
"""
from __future__ import annotations

import logging
from pathlib import Path

import lightning as L
import torch
import torch.nn.functional as F
from torchmetrics import MeanMetric
from torchmetrics.classification import MulticlassAccuracy

from sparselab.training.run_state import KeepsRunState
from sparselab.training.timing import StepTimer

log = logging.getLogger("sparselab")
METRIC = "val_acc"


class NLIModule(KeepsRunState, L.LightningModule):
    metric_name = METRIC
    metric_mode = "max"

    def __init__(self, model, lr: float = 3e-4, l2: float = 0.0, ctx=None, num_classes: int = 3):
        super().__init__()
        self.model, self.lr, self.l2, self.ctx = model, float(lr), float(l2), ctx
        self.val_accuracy = MulticlassAccuracy(num_classes=num_classes, average="micro")
        self.val_loss = MeanMetric()
        self.history: list[dict] = []
        self.best_score: float | None = None
        self.best_epoch = -1
        self.train_samples = 0
        self.timer = StepTimer()

    def forward(self, batch):
        return self.model(batch["premise"], batch["premise_len"], batch["hypothesis"], batch["hypothesis_len"])

    def configure_optimizers(self):
        params = [p for p in self.model.parameters() if p.requires_grad]
        return torch.optim.Adam(params, lr=self.lr, weight_decay=self.l2)

    # ---- training (timed: samples/s of the training steps only)
    @property
    def train_time(self) -> float:
        """Seconds spent in training steps (on CUDA the device's time, training/timing.py)."""
        return self.timer.total("train")

    def on_train_batch_start(self, batch, batch_idx):
        self.timer.start(self.device)

    def training_step(self, batch, batch_idx):
        logits, _ = self(batch)
        loss = F.cross_entropy(logits, batch["label"])
        self.log("train_loss", loss.detach(), prog_bar=True, batch_size=batch["label"].size(0))
        return loss

    def on_train_batch_end(self, outputs, batch, batch_idx):
        n = int(batch["label"].size(0))
        self.timer.stop("train")
        self.train_samples += n
        if self.ctx is not None:
            self.ctx.samples_seen += n

    # ---- validation
    def on_validation_epoch_start(self):
        self.val_accuracy.reset()
        self.val_loss.reset()

    def validation_step(self, batch, batch_idx):
        logits, _ = self(batch)
        self.val_loss.update(F.cross_entropy(logits, batch["label"], reduction="none"))
        self.val_accuracy.update(logits.argmax(-1), batch["label"])

    def on_validation_epoch_end(self):
        if self.trainer.sanity_checking or not self.val_accuracy.update_called:
            return
        acc = 100.0 * float(self.val_accuracy.compute())
        loss = float(self.val_loss.compute())
        self.log(METRIC, acc)
        self.log("val_loss", loss)
        self.history.append({"epoch": int(self.current_epoch), "step": int(self.global_step), "val_loss": loss,
                             METRIC: acc})
        better = self.best_score is None or acc > self.best_score   # strict, like ModelCheckpoint
        if better:
            self.best_score, self.best_epoch = acc, int(self.current_epoch)
        log.info("validation epoch %d: val_loss=%.4f val_acc=%.2f%s", self.current_epoch, loss, acc,
                 " (best)" if better else "")

    # ---- model selection
    @staticmethod
    def callbacks(dirpath: str | Path, early_stopping_patience: int | None = None,
                  early_stopping_min_delta: float = 0.0, early_stopping_start: float = 0.0) -> list[L.Callback]:
        """Best state by dev accuracy, early stopping on it when ``early_stopping_patience`` is set (Lightning's
        own: ``early_stopping_start`` is not used by this task). Same call as ``Seq2SeqModule.callbacks``."""
        from lightning.pytorch.callbacks import EarlyStopping, ModelCheckpoint

        patience, min_delta = early_stopping_patience, early_stopping_min_delta

        cbs: list[L.Callback] = [ModelCheckpoint(dirpath=str(dirpath), filename="best", monitor=METRIC, mode="max",
                                                 save_top_k=1, save_weights_only=True, save_last=False,
                                                 auto_insert_metric_name=False)]
        if patience is not None:
            cbs.append(EarlyStopping(monitor=METRIC, mode="max", patience=int(patience),
                                     min_delta=float(min_delta or 0.0)))
        return cbs

    def load_best(self, checkpoint) -> bool:
        path = getattr(checkpoint, "best_model_path", checkpoint)
        if not path:
            return False
        self.load_state_dict(torch.load(path, map_location=self.device, weights_only=True)["state_dict"])
        return True
