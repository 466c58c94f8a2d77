"""Sparsity statistics of attention and output distributions (Peters et al. 2019, §5; Correia et al. 2019).

* attended positions per target step: the number of source positions with nonzero attention weight;
* output support size per target step: the number of vocabulary entries with nonzero probability
  under ``entmax(logits, α)``, and its histogram.

Counts are over real target steps only (``mask``: padding excluded). Works on any device.
"""
from __future__ import annotations

from collections import Counter
from typing import Iterable

import torch

from sparselab import mappings


def support_size(p: torch.Tensor, dim: int = -1) -> torch.Tensor:
    """Number of strictly positive entries along ``dim`` (a long tensor)."""
    return (p > 0).sum(dim)


class SupportStats:
    """Running sums of attention support and output support over target steps, and the output-support histogram."""

    def __init__(self):
        self.attn_sum = 0.0
        self.out_sum = 0.0
        self.steps = 0
        self.histogram: Counter = Counter()

    def update(self, attn: torch.Tensor | None, probs: torch.Tensor, mask: torch.Tensor) -> None:
        """``attn`` (..., S) attention weights, ``probs`` (..., V) output probabilities, ``mask`` (...) True at
        real target steps. ``attn`` None: output statistics only."""
        support = support_size(probs)[mask]
        if attn is not None:
            self.attn_sum += float(support_size(attn)[mask].sum())
        self.out_sum += float(support.sum())
        self.steps += int(mask.sum())
        self.histogram.update(support.tolist())

    def summary(self) -> tuple[dict[str, float], dict]:
        """``({"attn_support", "out_support"}, {"support_histogram", "target_steps"})``: means per target step."""
        steps = max(1, self.steps)
        return ({"attn_support": self.attn_sum / steps, "out_support": self.out_sum / steps},
                {"support_histogram": {str(k): v for k, v in sorted(self.histogram.items())}, "target_steps": steps})


@torch.no_grad()
def teacher_forced_sparsity(model, batches: Iterable[dict], alpha: float, pad_id: int) -> tuple[dict, dict]:
    """Run ``model(src, src_len, tgt_in, return_attn=True) -> (logits (B,T,V), attention (B,T,S))`` over
    ``batches`` with teacher forcing (eval mode, on the model's device) and measure, per real target step,
    attended source positions and the support of ``entmax(logits, alpha)``.

    Returns ``(metrics, extra)``: ``attn_support``, ``out_support`` (means) and the support histogram,
    ``target_steps`` and ``target_vocab_size``.
    """
    model.eval()
    device = next(model.parameters()).device
    stats = SupportStats()
    vocab = None
    for batch in batches:
        logits, attn = model(batch["src"].to(device), batch["src_len"].to(device), batch["tgt_in"].to(device),
                             return_attn=True)
        vocab = logits.size(-1)
        mask = batch["tgt_out"].to(device) != pad_id
        stats.update(attn, mappings.entmax(logits, alpha, dim=-1), mask)
    metrics, extra = stats.summary()
    extra["target_vocab_size"] = vocab
    return metrics, extra
