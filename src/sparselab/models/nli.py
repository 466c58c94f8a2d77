"""Natural language inference with attention over the premise (Martins & Astudillo 2016, §4.3, eqs. 28-36).

Words x_1..x_L (premise) and x_{L+1}..x_N (hypothesis) are looked up in fixed pretrained vectors and
projected linearly to D dimensions. One GRU reads the premise (states h_1..h_L); a second GRU, with its own
parameters, reads the hypothesis starting from h_L (states ..h_N). Then, with the attention weights p:

    no attention (eq. 28):  u = tanh(W^{pu} h_L + W^{hu} h_N + b^u)
    with attention:         z_t = v^T tanh(W^{pm} h_t + W^{hm} h_N + b^m),   t = 1..L
                            p   = normalizer(z)
                            r   = sum_t p_t h_t
                            u   = tanh(W^{pu} r + W^{hu} h_N + b^u)
    output:                 softmax(W^{uy} u + b^y) over entailment / neutral / contradiction

The normalizer is a module (``None``: no attention): ``torch.nn.Sigmoid()`` for logistic attention (an
independent weight in [0, 1] per word), ``Entmax(1.0)`` or ``torch.nn.Softmax(-1)`` for soft attention,
``Entmax(2.0)`` for sparse attention (sparsemax); beyond the paper ``Entmax(1.5)`` and a learned α
(``Entmax(learnable=True)``, Correia et al. 2019). Padding scores are -inf, so padding gets exactly zero
weight under every one of them. Dropout is applied to the projected inputs and to u.
"""
from __future__ import annotations

import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


class PremiseAttention(nn.Module):
    """``forward(states (B,L,D), mask (B,L), query (B,D)) -> (r (B,D), p (B,L))``, eqs. above.

    ``mask`` is True at real premise words; the rest get score -inf and weight exactly 0.
    """

    def __init__(self, size: int, normalizer: nn.Module):
        super().__init__()
        self.state_proj = nn.Linear(size, size, bias=False)     # W^{pm}
        self.query_proj = nn.Linear(size, size)                 # W^{hm}, b^m
        self.v = nn.Linear(size, 1, bias=False)
        self.normalizer = normalizer

    def scores(self, states: torch.Tensor, mask: torch.Tensor, query: torch.Tensor) -> torch.Tensor:
        z = self.v(torch.tanh(self.state_proj(states) + self.query_proj(query).unsqueeze(1))).squeeze(-1)
        return z.masked_fill(~mask, float("-inf"))

    def forward(self, states: torch.Tensor, mask: torch.Tensor, query: torch.Tensor):
        p = self.normalizer(self.scores(states, mask, query))
        return (p.unsqueeze(-1) * states).sum(1), p


class NLIClassifier(nn.Module):
    """``forward(premise (B,L), premise_len (B,), hypothesis (B,M), hypothesis_len (B,)) -> (logits (B,C), p)``.

    ``p`` (B,L) are the attention weights (None without attention). The embedding table (``vocab_size`` x
    ``embedding_dim``) is frozen; the task copies the pretrained vectors into it (:meth:`set_embeddings`).
    """

    def __init__(self, vocab_size: int, embedding_dim: int, hidden_size: int = 100, dropout: float = 0.1,
                 normalizer: nn.Module | None = None, num_classes: int = 3, pad_id: int = 0):
        super().__init__()
        if hidden_size < 1 or not 0.0 <= dropout < 1.0:
            raise ValueError(f"hidden_size={hidden_size} must be >= 1 and dropout={dropout} in [0, 1)")
        self.pad_id = int(pad_id)
        self.embedding = nn.Embedding(vocab_size, embedding_dim, padding_idx=self.pad_id)
        self.embedding.weight.requires_grad_(False)
        self.project = nn.Linear(embedding_dim, hidden_size)
        self.premise_rnn = nn.GRU(hidden_size, hidden_size, batch_first=True)
        self.hypothesis_rnn = nn.GRU(hidden_size, hidden_size, batch_first=True)
        self.attention = PremiseAttention(hidden_size, normalizer) if normalizer is not None else None
        self.premise_out = nn.Linear(hidden_size, hidden_size, bias=False)     # W^{pu}
        self.hypothesis_out = nn.Linear(hidden_size, hidden_size)              # W^{hu}, b^u
        self.classifier = nn.Linear(hidden_size, num_classes)
        self.dropout = nn.Dropout(dropout)

    @torch.no_grad()
    def set_embeddings(self, vectors: torch.Tensor) -> None:
        if tuple(vectors.shape) != tuple(self.embedding.weight.shape):
            raise ValueError(f"vectors of shape {tuple(vectors.shape)}, expected {tuple(self.embedding.weight.shape)}")
        self.embedding.weight.copy_(vectors)

    def _inputs(self, ids: torch.Tensor) -> torch.Tensor:
        return self.dropout(self.project(self.embedding(ids)))

    def _run(self, rnn: nn.GRU, x: torch.Tensor, lengths: torch.Tensor, h0: torch.Tensor | None = None):
        packed = pack_padded_sequence(x, lengths.cpu(), batch_first=True, enforce_sorted=False)
        out, h = rnn(packed, h0)
        out, _ = pad_packed_sequence(out, batch_first=True, total_length=x.size(1))
        return out, h                                                    # (B,T,D), (1,B,D) last real states

    def encode(self, premise, premise_len, hypothesis, hypothesis_len):
        """Premise states (B,L,D), premise mask (B,L), h_L (B,D) and h_N (B,D)."""
        states, h_last = self._run(self.premise_rnn, self._inputs(premise), premise_len)
        _, h_final = self._run(self.hypothesis_rnn, self._inputs(hypothesis), hypothesis_len, h_last)
        mask = torch.arange(premise.size(1), device=premise.device).unsqueeze(0) < premise_len.unsqueeze(1)
        return states, mask, h_last[0], h_final[0]

    def forward(self, premise, premise_len, hypothesis, hypothesis_len):
        states, mask, h_l, h_n = self.encode(premise, premise_len, hypothesis, hypothesis_len)
        if self.attention is None:
            summary, p = h_l, None
        else:
            summary, p = self.attention(states, mask, h_n)
        u = torch.tanh(self.premise_out(summary) + self.hypothesis_out(h_n))
        return self.classifier(self.dropout(u)), p
