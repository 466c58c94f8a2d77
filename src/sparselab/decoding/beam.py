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


@dataclass(frozen=True)
class BeamSettings:
    """How a run beam-decodes (``task.beam``, ``task.decode_batch_size``, ``task.max_decode_len``,
    ``task.length_norm``): built once by the task (:mod:`sparselab.tasks.settings`)."""
    beam: int
    batch_size: int
    max_len: int
    length_norm: float = 0.0


class StepModel(Protocol):
    bos: int
    eos: int
    # optional: ``device`` (where ``probs`` returns its tensors); the search's own tensors live there

    def init(self, batch: Any) -> Any: ...
    def probs(self, prev: torch.Tensor, state: Any) -> tuple[torch.Tensor, Any]: ...
    def select(self, state: Any, index: torch.Tensor) -> Any: ...


@dataclass
class Hypothesis:
    tokens: list[int]        # without BOS, without EOS
    prob: float
    logprob: float
    score: float | None = None   # what the beam ranks finished outputs by: logprob / (len + 1)^length_norm

    def __post_init__(self):
        if self.score is None:
            self.score = self.logprob


@dataclass
class BeamResult:
    hypotheses: list[Hypothesis] = field(default_factory=list)   # finished, best score first
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
    Probabilities are computed in float64 so that products of ones stay exactly one. BOS/EOS are the
    model's (``bos_id``/``eos_id``) unless given; decoding runs on the model's device."""

    def __init__(self, model, alpha: float, bos: int | None = None, eos: int | None = None):
        self.model, self.alpha = model, float(alpha)
        self.bos = int(model.bos_id if bos is None else bos)
        self.eos = int(model.eos_id if eos is None else eos)

    @property
    def device(self) -> torch.device:
        return next(self.model.parameters()).device

    def init(self, batch):
        d = self.device
        return self.model.encode(batch["src"].to(d), batch["src_len"].to(d))

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

    @property
    def device(self) -> torch.device:
        return device_of(self.members[0])

    def init(self, batch):
        return [m.init(batch) for m in self.members]

    def probs(self, prev, state):
        outs = [m.probs(prev, s) for m, s in zip(self.members, state)]
        p = torch.stack([o[0].double() for o in outs]).mean(0)
        return p, [o[1] for o in outs]

    def select(self, state, index):
        return [m.select(s, index) for m, s in zip(self.members, state)]


def device_of(model) -> torch.device:
    """Where a step model decodes: its ``device``, else the CPU."""
    return torch.device(getattr(model, "device", None) or "cpu")


@torch.no_grad()
def beam_search(model: StepModel, batch: Any, batch_size: int, beam: int = 5, max_len: int = 50,
                tol: float = 1e-6, length_norm: float = 0.0) -> list[BeamResult]:
    """Decode ``batch_size`` inputs with beam size ``beam``; one :class:`BeamResult` per input.

    Each step, the ``beam`` best-scoring nonzero continuations of an input are taken (a
    zero-probability continuation is never scored); those ending in EOS finish, the others fill
    the beam (so it may hold fewer than ``beam`` live hypotheses). Everything runs on the model's
    device as batched tensor ops; only finished hypotheses are copied out.

    An input stops when it has no live hypothesis, or when its best finished hypothesis beats every
    live one *and* finished + live mass is already below ``1 - tol`` (the certificate can no longer
    become true, so continuing would only lengthen the n-best list), or at ``max_len``.

    ``length_norm`` > 0 ranks finished outputs by ``log p / (len + 1)^length_norm`` (len without EOS)
    instead of ``log p``, and compares live hypotheses by the same score at their next length in the
    stopping rule (a heuristic, as in OpenNMT: a longer output can still score higher). The search
    itself, the probabilities and the certificate are unchanged.
    """
    B, K = batch_size, beam
    device = device_of(model)
    results = [BeamResult() for _ in range(B)]
    state = model.init(batch)
    state = model.select(state, torch.arange(B, device=device).repeat_interleave(K))
    active = list(range(B))                                     # input ids still decoding, one per row
    logp = torch.full((B, K), -math.inf, dtype=torch.float64, device=device)
    logp[:, 0] = 0.0
    prev = torch.full((B * K,), model.bos, dtype=torch.long, device=device)
    hist = torch.zeros((B, K, 0), dtype=torch.long, device=device)   # tokens of each live hypothesis
    mass = torch.zeros(B, dtype=torch.float64, device=device)         # finished mass per row
    best_fin = torch.full((B,), -math.inf, dtype=torch.float64, device=device)  # best finished score per row
    slots = torch.arange(K, device=device)
    neg_inf = torch.tensor(-math.inf, dtype=torch.float64, device=device)
    ln = float(length_norm)

    for t in range(max_len):
        n = len(active)
        p, state = model.probs(prev, state)                           # (n*K, V)
        V = p.size(-1)
        p = p.double().view(n, K, V)
        alive = torch.isfinite(logp)
        ok = (p > 0) & alive.unsqueeze(-1)
        # pruning: zero-probability continuations are never scored (no log 0)
        cand = torch.where(ok, logp.unsqueeze(-1) + torch.log(torch.where(ok, p, torch.ones_like(p))),
                           neg_inf).view(n, K * V)
        top, idx = cand.topk(min(K * V, 2 * K), dim=-1)
        # the beam's K slots per step: the K best candidates (EOS ones finish, the others stay live)
        top, idx = top[:, :K], idx[:, :K]
        src_row, tok = idx // V, idx % V
        valid = top > -math.inf
        fin = valid & (tok == model.eos)
        live = valid & (tok != model.eos)
        # live candidates to the front of the row, in their order; empty slots: logp -inf, EOS token
        order = torch.sort((~live).to(torch.uint8), dim=1, stable=True).indices
        live_sorted = live.gather(1, order)
        new_logp = torch.where(live_sorted, top.gather(1, order), neg_inf)
        new_src = torch.where(live_sorted, src_row.gather(1, order), torch.zeros_like(src_row))
        new_tok = torch.where(live_sorted, tok.gather(1, order), torch.full_like(tok, model.eos))

        if bool(fin.any()):
            fr, fj = fin.nonzero(as_tuple=True)                       # row-major: each row's candidates in order
            f_src = src_row[fr, fj]
            f_logp, f_rows, f_tokens = top[fr, fj].tolist(), fr.tolist(), hist[fr, f_src].tolist()
            norm = (t + 1) ** ln if ln else 1.0
            for r, s, tokens in zip(f_rows, f_logp, f_tokens):
                res = results[active[r]]
                pr = math.exp(s)
                res.hypotheses.append(Hypothesis(tokens, pr, s, s / norm if ln else s))
                res.mass += pr                                        # summed in candidate order, in Python
            touched = sorted(set(f_rows))
            mass[touched] = torch.tensor([results[active[r]].mass for r in touched], dtype=torch.float64,
                                         device=device)
            f_score = torch.where(fin, top / norm, neg_inf) if ln else torch.where(fin, top, neg_inf)
            best_fin = torch.maximum(best_fin, f_score.max(1).values)

        filled = live.sum(1)
        live_p = torch.exp(new_logp)
        live_mass = live_p[:, 0]
        for j in range(1, K):                                         # left to right, as a sum over the live slots
            live_mass = live_mass + live_p[:, j]
        live_best = new_logp.max(1).values
        if ln:
            live_best = live_best / (t + 2) ** ln
        done = (filled == 0) | ((best_fin >= live_best) & (mass + live_mass < 1.0 - tol))

        logp = new_logp
        hist = torch.cat([hist.gather(1, new_src.unsqueeze(-1).expand(n, K, hist.size(2))), new_tok.unsqueeze(-1)], 2)
        rows = (torch.arange(n, device=device).unsqueeze(1) * K + new_src).view(-1)
        state = model.select(state, rows)
        prev = new_tok.view(-1)
        if bool(done.any()):
            keep = (~done).nonzero(as_tuple=True)[0]
            if keep.numel() == 0:
                active = []
                break
            active = [active[r] for r in keep.tolist()]
            logp, hist, mass, best_fin = logp[keep], hist[keep], mass[keep], best_fin[keep]
            sel = (keep.unsqueeze(1) * K + slots).view(-1)
            state = model.select(state, sel)
            prev = prev[sel]
    for r in results:
        r.hypotheses.sort(key=lambda h: -h.score)
    return results
