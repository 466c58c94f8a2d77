"""The LightningModule of inflection (Peters et al. 2019): the generic sequence-to-sequence module
(:mod:`sparselab.training.seq2seq_module`) with exact-match word accuracy of a greedy decode as its metric."""
from __future__ import annotations

from sparselab.training.seq2seq_module import Seq2SeqModule, SequenceAccuracy


class InflectionModule(Seq2SeqModule):
    """What inflection adds to the generic module: exact-match word accuracy of a greedy decode."""

    metric_name = "val_acc"
    metric_mode = "max"

    def make_metric(self):
        return SequenceAccuracy(eos_id=self.model.eos_id, pad_id=self.model.tgt_pad_id)

    def decode(self, batch):
        return self.model.greedy(batch["src"], batch["src_len"], batch["tgt_out"].size(1) + 5)
