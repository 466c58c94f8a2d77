"""Thin LightningModule around :class:`sparselab.models.seq2seq.Seq2Seq` for inflection.

Loss: α-entmax Fenchel–Young loss on the output scores (``mapping.alpha``; α=1 is cross-entropy).
Optimiser: Adam (lr 1e-3), learning rate halved whenever the validation loss rises.
Model selection: the state with the best validation (greedy) word accuracy is kept in memory.
"""
from __future__ import annotations

import copy
import time

import lightning as L
import torch

from sparselab import mappings
from sparselab.data.sigmorphon import EOS_ID, PAD_ID


class InflectionModule(L.LightningModule):
    def __init__(self, model, alpha: float, lr: float = 1e-3, ctx=None, max_decode_len: int = 50):
        super().__init__()
        self.model, self.alpha, self.lr, self.ctx = model, float(alpha), float(lr), ctx
        self.max_decode_len = max_decode_len
        self.best_acc = -1.0
        self.best_state = None
        self.best_epoch = -1
        self.prev_val_loss = None
        self.history: list[dict] = []
        self.train_time = 0.0
        self.train_samples = 0
        self._t = None
        self._val = None

    def configure_optimizers(self):
        return torch.optim.Adam(self.model.parameters(), lr=self.lr)

    def _loss(self, batch):
        logits = self.model(batch["src"], batch["src_len"], batch["tgt_in"])
        return mappings.fy_loss(logits.reshape(-1, logits.size(-1)), batch["tgt_out"].reshape(-1), self.alpha,
                                reduction="mean", ignore_index=PAD_ID)

    # ---- training (timed: samples/s of the training steps only)
    def on_train_batch_start(self, batch, batch_idx):
        self._t = time.perf_counter()

    def training_step(self, batch, batch_idx):
        loss = self._loss(batch)
        self.log("train_loss", loss.detach(), prog_bar=True, batch_size=batch["src"].size(0))
        return loss

    def on_train_batch_end(self, outputs, batch, batch_idx):
        n = int(batch["src"].size(0))
        if self._t is not None:
            self.train_time += time.perf_counter() - self._t
        self.train_samples += n
        if self.ctx is not None:
            self.ctx.samples_seen += n

    # ---- validation: loss (teacher forcing) + greedy word accuracy
    def on_validation_epoch_start(self):
        self._val = {"loss": 0.0, "tokens": 0, "correct": 0, "n": 0}

    def validation_step(self, batch, batch_idx):
        logits = self.model(batch["src"], batch["src_len"], batch["tgt_in"])
        ntok = int((batch["tgt_out"] != PAD_ID).sum())
        loss = mappings.fy_loss(logits.reshape(-1, logits.size(-1)), batch["tgt_out"].reshape(-1), self.alpha,
                                reduction="sum", ignore_index=PAD_ID)
        pred = self.model.greedy(batch["src"], batch["src_len"], batch["tgt_out"].size(1) + 5)
        for b in range(pred.size(0)):
            gold = batch["tgt_out"][b]
            gold = gold[: int((gold != PAD_ID).sum())].tolist()
            p = pred[b].tolist()
            p = p[: p.index(EOS_ID) + 1] if EOS_ID in p else p
            self._val["correct"] += int(p == gold)
        self._val["loss"] += float(loss)
        self._val["tokens"] += ntok
        self._val["n"] += pred.size(0)

    def on_validation_epoch_end(self):
        if self.trainer.sanity_checking or not self._val["n"]:
            return
        val_loss = self._val["loss"] / max(1, self._val["tokens"])
        val_acc = 100.0 * self._val["correct"] / self._val["n"]
        self.log("val_loss", val_loss)
        self.log("val_acc", val_acc)
        opt = self.trainer.optimizers[0] if self.trainer.optimizers else None
        if opt is not None and self.prev_val_loss is not None and val_loss > self.prev_val_loss:
            for g in opt.param_groups:
                g["lr"] *= 0.5
        self.prev_val_loss = val_loss
        lr = opt.param_groups[0]["lr"] if opt is not None else None
        self.history.append({"epoch": int(self.current_epoch), "step": int(self.global_step),
                             "val_loss": val_loss, "val_acc": val_acc, "lr": lr})
        if val_acc > self.best_acc:
            self.best_acc, self.best_epoch = val_acc, int(self.current_epoch)
            self.best_state = copy.deepcopy({k: v.detach().cpu() for k, v in self.model.state_dict().items()})
