"""Global attention as a module whose normaliser is any scores -> simplex mapping.

Luong, Pham & Manning (2015), global attention with input feeding: for a query ``q`` (decoder state)
and memory ``h_s`` (encoder outputs),

    score(q, h_s) = q^T W_a h_s   ("general")   or   q^T h_s   ("dot"),
    a = normalizer(score)          (padding masked to -inf, so it gets exactly 0),
    c = sum_s a_s h_s,             out = tanh(W_c [c; q]).

Peters, Niculae & Martins (2019) use ``normalizer = Entmax(alpha)`` (α = 1 softmax, 1.5 entmax15,
2 sparsemax); Correia, Niculae & Martins (2019) learn α: ``Entmax(learnable=True)``. Any
``nn.Module`` mapping the last dim onto the simplex fits (``torch.nn.Softmax(-1)`` too).
"""
from __future__ import annotations

import torch
from torch import nn

from sparselab.mappings import Entmax

SCORES = ("general", "dot")


class GlobalAttention(nn.Module):
    """``forward(query (N,Hq), keys (N,S,Hq), memory (N,S,Hk), mask (N,S)) -> (out (N,Hq), weights (N,S))``.

    ``keys = attention.keys(memory)`` is computed once per source (the ``general`` projection
    ``memory W_a^T``), not once per decoder step. ``mask`` is True at real source positions.
    """

    def __init__(self, query_size: int, key_size: int | None = None, score: str = "general",
                 normalizer: nn.Module | None = None):
        super().__init__()
        key_size = query_size if key_size is None else key_size
        if score not in SCORES:
            raise ValueError(f"score={score!r}: must be one of {', '.join(SCORES)}")
        if score == "dot" and key_size != query_size:
            raise ValueError(f"score='dot' needs key_size == query_size, got {key_size} and {query_size}")
        self.score, self.query_size, self.key_size = score, int(query_size), int(key_size)
        # created in this order (W_a, then W_c): parameter initialisation draws from the RNG in creation order
        self.linear_in = nn.Linear(key_size, query_size, bias=False) if score == "general" else None
        self.linear_out = nn.Linear(key_size + query_size, query_size, bias=False)
        self.normalizer = normalizer if normalizer is not None else Entmax(1.0)

    def keys(self, memory: torch.Tensor) -> torch.Tensor:
        return self.linear_in(memory) if self.linear_in is not None else memory

    def weights(self, query: torch.Tensor, keys: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
        # broadcast-multiply-sum rather than bmm: with S ~ 20 and a batch of 100s of rows, bmm's
        # per-matrix overhead made it the largest CPU cost of a training step (measured, fwd+bwd).
        scores = (keys * query.unsqueeze(1)).sum(-1)                 # (N,S)
        if mask is not None:
            scores = scores.masked_fill(~mask, float("-inf"))
        return self.normalizer(scores)

    def forward(self, query: torch.Tensor, keys: torch.Tensor, memory: torch.Tensor,
                mask: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        attn = self.weights(query, keys, mask)
        ctx = (attn.unsqueeze(2) * memory).sum(1)
        return torch.tanh(self.linear_out(torch.cat([ctx, query], dim=-1))), attn

    def extra_repr(self) -> str:
        return f"score={self.score!r}, query_size={self.query_size}, key_size={self.key_size}"
