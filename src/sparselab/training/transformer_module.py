"""The LightningModule of the adaptively sparse Transformer (Correia, Niculae & Martins 2019).

What it adds to :class:`sparselab.training.translation_module.TranslationModule` (teacher-forced token accuracy for model
selection, target-token speed counting):

* **Optimiser and schedule of the paper**: Adam (β = (0.9, 0.98), ε = 1e-9) with a linear warm-up over
  ``warmup_steps`` to ``lr``, then inverse-square-root decay, lr(s) = lr · min(s / w, sqrt(w / s)) -- a
  ``LambdaLR`` that Lightning steps after every optimizer step. The learned α parameters (the ``a`` of every
  learnable :class:`sparselab.mappings.Entmax`) are trained by the same optimizer and schedule, as in the
  paper; ``alpha_lr`` (optional) gives them their own peak learning rate (same schedule).
* **Output α**: ``mapping.alpha`` (1 = cross-entropy), or -- beyond the paper -- a learned one when the model has
  an ``output_normalizer`` that is a learnable ``Entmax``: the Fenchel–Young loss then takes its α (a tensor with
  a gradient, ``sparselab.mappings.fy_loss``).
* **Head statistics during validation**, logged per layer and attention type as ``js/<kind>/l<layer>`` (Jensen–
  Shannon head diversity) and ``density/<kind>/l<layer>`` (mean head density), from the same forward as the loss
  (:class:`sparselab.analysis.heads.HeadStatistics`).
"""
from __future__ import annotations

import torch

from sparselab import mappings
from sparselab.analysis.heads import HeadStatistics
from sparselab.training.schedules import inverse_sqrt
from sparselab.training.seq2seq_module import EarlyStoppingAfterStart
from sparselab.training.translation_module import TranslationModule


def is_alpha_parameter(name: str, model: torch.nn.Module) -> bool:
    """Whether parameter ``name`` is the ``a`` of a learnable Entmax (a learned α)."""
    owner, _, leaf = name.rpartition(".")
    mod = model.get_submodule(owner) if owner else model
    return leaf == "a" and isinstance(mod, mappings.Entmax) and mod.learnable


class TransformerModule(TranslationModule):
    # Lightning's patience (only the paper profile stops early): the Correia report judges convergence over the
    # kit's fixed 2,000-step window, not over a patience, so the plateau rule would not match it either
    early_stopping = EarlyStoppingAfterStart

    def __init__(self, model, alpha: float, lr: float = 1e-3, ctx=None, warmup_steps: int = 4000,
                 alpha_lr: float | None = None, betas=(0.9, 0.98), eps: float = 1e-9):
        super().__init__(model, alpha, lr=lr, ctx=ctx)
        self.warmup_steps, self.alpha_lr = int(warmup_steps), alpha_lr
        self.betas, self.eps = tuple(betas), float(eps)
        self.head_stats = HeadStatistics(model.heads, len(model.encoder), len(model.decoder))

    # ---- optimisation: Adam + warm-up / inverse-sqrt, stepped by Lightning every step
    def configure_optimizers(self):
        alpha_params, other = [], []
        for name, p in self.model.named_parameters():
            (alpha_params if is_alpha_parameter(name, self.model) else other).append(p)
        groups = [{"params": other, "lr": self.lr}]
        if alpha_params:
            groups.append({"params": alpha_params, "lr": float(self.alpha_lr) if self.alpha_lr else self.lr})
        opt = torch.optim.Adam(groups, lr=self.lr, betas=self.betas, eps=self.eps)
        self.plateau = None       # no plateau halving: the schedule is the warm-up / decay
        sched = torch.optim.lr_scheduler.LambdaLR(opt, inverse_sqrt(self.warmup_steps))
        return {"optimizer": opt, "lr_scheduler": {"scheduler": sched, "interval": "step", "frequency": 1}}

    # ---- output α: fixed, or learned (beyond the paper)
    def output_alpha(self):
        """The loss α: a tensor (with a gradient) when the model learns its output α, else ``mapping.alpha``."""
        norm = getattr(self.model, "output_normalizer", None)
        if isinstance(norm, mappings.Entmax) and norm.learnable:
            return norm.alpha
        return self.alpha

    def final_output_alpha(self) -> float:
        a = self.output_alpha()
        return float(a.detach()) if isinstance(a, torch.Tensor) else float(a)

    def _fy(self, logits, gold, reduction):
        return mappings.fy_loss(logits.reshape(-1, logits.size(-1)), gold.reshape(-1), self.output_alpha(),
                                reduction=reduction, ignore_index=self.pad_id)

    def loss(self, batch, reduction: str = "mean") -> torch.Tensor:
        return self._fy(self.model(batch["src"], batch["src_len"], batch["tgt_in"]), batch["tgt_out"], reduction)

    # ---- validation: loss, token accuracy and head statistics from one forward
    def on_validation_epoch_start(self):
        super().on_validation_epoch_start()
        self.head_stats.reset()

    def validation_step(self, batch, batch_idx):
        logits, maps = self.model(batch["src"], batch["src_len"], batch["tgt_in"], return_attn=True)
        loss = self._fy(logits, batch["tgt_out"], "sum")
        self.val_loss_sum.update(loss.detach())
        self.val_tokens.update((batch["tgt_out"] != self.pad_id).sum())
        self.val_metric.update(logits.argmax(-1), batch["tgt_out"])
        self.head_stats.update(maps)

    def on_validation_epoch_end(self):
        if not self.trainer.sanity_checking and self.val_metric.update_called:
            for key, value in self.head_stats.summary().items():
                self.log(key, value)
        super().on_validation_epoch_end()
