"""Batched beam search that is correct for sparse output distributions, with an exactness certificate.

With α-entmax outputs (α > 1) many continuations have probability exactly 0. They are pruned: a
zero-probability continuation never enters the beam (it is never scored as ``log 0``), so a beam
of size K may hold fewer than K live hypotheses. Finished hypotheses are kept with their
probabilities. If the finished probabilities of an input sum to 1 (within ``tol``), the beam
holds every output of nonzero probability: the search was exact for that input (certificate).

The model is anything implementing :class:`StepModel`: ``init`` (state for B inputs),
``probs(prev_tokens, state) -> (probs (N,V), state)`` and ``select(state, index)``.
:class:`EnsembleStepModel` averages the members' raw per-step probabilities (not log-probs), so a
continuation that is zero in one model but not in another survives.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Protocol, Sequence

import torch

from sparselab import mappings


class StepModel(Protocol):
    bos: int
    eos: int

    def init(self, batch: Any) -> Any: ...
    def probs(self, prev: torch.Tensor, state: Any) -> tuple[torch.Tensor, Any]: ...
    def select(self, state: Any, index: torch.Tensor) -> Any: ...


@dataclass
class Hypothesis:
    tokens: list[int]        # without BOS, without EOS
    prob: float
    logprob: float


@dataclass
class BeamResult:
    hypotheses: list[Hypothesis] = field(default_factory=list)   # finished, most probable first
    mass: float = 0.0                                              # sum of finished probabilities

    @property
    def best(self) -> list[int]:
        return self.hypotheses[0].tokens if self.hypotheses else []

    def exact(self, tol: float = 1e-6) -> bool:
        """Certificate: the finished hypotheses hold all the probability mass."""
        return self.mass >= 1.0 - tol

    def single(self, tol: float = 1e-6) -> bool:
        """Exactly one output has nonzero probability (it has probability 1)."""
        return len(self.hypotheses) >= 1 and self.hypotheses[0].prob >= 1.0 - tol


class Seq2SeqStepModel:
    """Adapter: a :class:`sparselab.models.seq2seq.Seq2Seq` with output mapping ``entmax(·, alpha)``.
    Probabilities are computed in float64 so that products of ones stay exactly one."""

    def __init__(self, model, alpha: float, bos: int = 1, eos: int = 2):
        self.model, self.alpha, self.bos, self.eos = model, float(alpha), bos, eos

    def init(self, batch):
        return self.model.encode(batch["src"], batch["src_len"])

    def probs(self, prev, state):
        logits, _, state = self.model.step(prev, state)
        return mappings.entmax(logits.double(), self.alpha, dim=-1), state

    def select(self, state, index):
        return state.select(index)


class EnsembleStepModel:
    """Average of the members' per-step probabilities (raw probabilities, not log-probabilities)."""

    def __init__(self, members: Sequence[StepModel]):
        if not members:
            raise ValueError("an ensemble needs at least one model")
        self.members = list(members)
        self.bos, self.eos = members[0].bos, members[0].eos

    def init(self, batch):
        return [m.init(batch) for m in self.members]

    def probs(self, prev, state):
        outs = [m.probs(prev, s) for m, s in zip(self.members, state)]
        p = torch.stack([o[0].double() for o in outs]).mean(0)
        return p, [o[1] for o in outs]

    def select(self, state, index):
        return [m.select(s, index) for m, s in zip(self.members, state)]


@torch.no_grad()
def beam_search(model: StepModel, batch: Any, batch_size: int, beam: int = 5, max_len: int = 50,
                tol: float = 1e-6) -> list[BeamResult]:
    """Decode ``batch_size`` inputs with beam size ``beam``; one :class:`BeamResult` per input.

    An input stops when it has no live hypothesis, or when its best finished hypothesis beats every
    live one *and* finished + live mass is already below ``1 - tol`` (the certificate can no longer
    become true, so continuing would only lengthen the n-best list), or at ``max_len``.
    """
    B, K = batch_size, beam
    results = [BeamResult() for _ in range(B)]
    state = model.init(batch)
    state = model.select(state, torch.arange(B).repeat_interleave(K))
    active = torch.arange(B)                                     # input ids still decoding
    logp = torch.full((B, K), -math.inf, dtype=torch.float64)
    logp[:, 0] = 0.0
    prev = torch.full((B * K,), model.bos, dtype=torch.long)
    hist: list[list[list[int]]] = [[[] for _ in range(K)] for _ in range(B)]   # per active row

    for t in range(max_len):
        n = active.numel()
        p, state = model.probs(prev, state)                           # (n*K, V)
        V = p.size(-1)
        p = p.double().view(n, K, V)
        alive = torch.isfinite(logp)
        ok = (p > 0) & alive.unsqueeze(-1)
        # pruning: zero-probability continuations are never scored (no log 0)
        cand = torch.where(ok, logp.unsqueeze(-1) + torch.log(torch.where(ok, p, torch.ones_like(p))),
                           torch.full_like(p, -math.inf)).view(n, K * V)
        k2 = min(K * V, 2 * K)   # EOS candidates leave the beam, so look at up to 2K to refill it
        top, idx = cand.topk(k2, dim=-1)
        src_row, tok = idx // V, idx % V
        new_logp = torch.full((n, K), -math.inf, dtype=torch.float64)
        new_src = torch.zeros((n, K), dtype=torch.long)
        new_tok = torch.full((n, K), model.eos, dtype=torch.long)
        new_hist: list[list[list[int]]] = []
        top_l, src_l, tok_l = top.tolist(), src_row.tolist(), tok.tolist()
        keep = []
        for r in range(n):
            b = int(active[r])
            filled, taken = 0, 0
            rows_hist = []
            for j in range(k2):
                if taken >= K:          # the beam's K slots per step: K best candidates (EOS ones finish)
                    break
                s = top_l[r][j]
                if s == -math.inf:
                    break
                taken += 1
                sr, tk = src_l[r][j], tok_l[r][j]
                if tk == model.eos:
                    results[b].hypotheses.append(Hypothesis(list(hist[r][sr]), math.exp(s), s))
                    results[b].mass += math.exp(s)
                else:
                    new_logp[r, filled] = s
                    new_src[r, filled] = sr
                    new_tok[r, filled] = tk
                    rows_hist.append(hist[r][sr] + [tk])
                    filled += 1
            rows_hist += [[] for _ in range(K - filled)]
            new_hist.append(rows_hist)
            live = new_logp[r, :filled]
            if filled == 0:
                done = True
            else:
                live_mass = float(torch.exp(live).sum())
                best_fin = max((h.logprob for h in results[b].hypotheses), default=-math.inf)
                done = best_fin >= float(live.max()) and results[b].mass + live_mass < 1.0 - tol
            if not done:
                keep.append(r)
        logp, hist = new_logp, new_hist
        rows = (torch.arange(n).unsqueeze(1) * K + new_src).view(-1)
        state = model.select(state, rows)
        prev = new_tok.view(-1)
        if len(keep) < n:
            if not keep:
                active = active[:0]
                break
            keep_t = torch.tensor(keep)
            active = active[keep_t]
            logp = logp[keep_t]
            hist = [hist[r] for r in keep]
            sel = (keep_t.unsqueeze(1) * K + torch.arange(K)).view(-1)
            state = model.select(state, sel)
            prev = prev[sel]
    for r in results:
        r.hypotheses.sort(key=lambda h: -h.logprob)
    return results
