"""Beam search with sparse outputs (Peters et al. 2019): pruning, exactness certificate, ensembles.

The toy model's output distribution is a fixed table prefix -> next-symbol probabilities, so the
probability of every complete output is known exactly.
"""
from __future__ import annotations

import itertools
import math

import pytest
import torch

from sparselab.decoding.beam import EnsembleStepModel, beam_search

BOS, EOS = 1, 2
V = 6  # 0 pad, 1 bos, 2 eos, 3..5 symbols a b c


class TableModel:
    """Next-symbol distribution looked up by prefix (tuple of emitted tokens); unknown prefix -> EOS."""

    bos, eos = BOS, EOS

    def __init__(self, tables):
        self.tables = tables  # one dict per input: prefix tuple -> {token: prob}

    def init(self, batch):
        return [(b, ()) for b in range(len(self.tables))]

    def probs(self, prev, state):
        new_state, rows = [], []
        for (b, prefix), tok in zip(state, prev.tolist()):
            if tok not in (BOS,):
                prefix = prefix + (tok,)
            new_state.append((b, prefix))
            dist = self.tables[b].get(prefix, {EOS: 1.0})
            p = torch.zeros(V, dtype=torch.float64)
            for k, v in dist.items():
                p[k] = v
            rows.append(p)
        return torch.stack(rows), new_state

    def select(self, state, index):
        return [state[i] for i in index.tolist()]


def outputs(table, prefix=()):
    """All complete outputs with nonzero probability: {tokens: prob}."""
    out = {}
    for tok, p in table.get(prefix, {EOS: 1.0}).items():
        if p <= 0:
            continue
        if tok == EOS:
            out[prefix] = out.get(prefix, 0.0) + p
        else:
            for seq, q in outputs(table, prefix + (tok,)).items():
                out[seq] = out.get(seq, 0.0) + p * q
    return out


A, B_, C = 3, 4, 5
# sparse: three outputs with nonzero probability (fits a beam of 5)
SPARSE = {(): {A: 0.6, B_: 0.4}, (A,): {EOS: 0.5, C: 0.5}, (A, C): {EOS: 1.0}, (B_,): {EOS: 1.0}}
# one output with all the mass
SINGLE = {(): {A: 1.0}, (A,): {B_: 1.0}, (A, B_): {EOS: 1.0}}
# greedy trap: the first symbol's argmax leads to a worse sequence
TRAP = {(): {A: 0.55, B_: 0.45}, (A,): {A: 0.34, B_: 0.33, C: 0.33}, (B_,): {EOS: 1.0}}
# dense: every prefix of length < 3 has 4 continuations -> more nonzero outputs than a beam holds
DENSE = {p: {EOS: 0.25, A: 0.25, B_: 0.25, C: 0.25}
         for n in range(3) for p in itertools.product((A, B_, C), repeat=n)}


def run(tables, beam=5):
    return beam_search(TableModel(tables), None, len(tables), beam=beam, max_len=10)


def test_finds_argmax_and_exact_probabilities():
    res = run([SPARSE, SINGLE, TRAP])
    for table, r in zip([SPARSE, SINGLE, TRAP], res):
        truth = outputs(table)
        best = max(truth, key=truth.get)
        assert tuple(r.best) == best
        for h in r.hypotheses:
            assert h.prob == pytest.approx(truth[tuple(h.tokens)], abs=1e-12)
    assert tuple(res[2].best) == (B_,)       # the greedy path (A, ...) is worse


def test_certificate_true_exactly_when_beam_holds_all_mass():
    res = run([SPARSE, SINGLE, TRAP, DENSE])
    assert [r.exact() for r in res] == [True, True, True, False]
    for table, r in zip([SPARSE, SINGLE, TRAP], res):
        assert {tuple(h.tokens) for h in r.hypotheses} == set(outputs(table))   # nothing nonzero dropped
        assert r.mass == pytest.approx(1.0)
    assert res[3].mass < 1 - 1e-6
    assert [r.single() for r in res] == [False, True, False, False]


def test_certificate_depends_on_beam_size():
    # SPARSE has 3 nonzero candidates at step 2 (A EOS, A C, B EOS): beams 1 and 2 lose mass, 3 keeps it all
    assert not run([SPARSE], beam=1)[0].exact()
    assert not run([SPARSE], beam=2)[0].exact()
    r = run([SPARSE], beam=3)[0]
    assert r.exact() and len(r.hypotheses) == 3


def test_zero_probability_continuations_are_pruned_never_scored():
    res = run([SPARSE])[0]
    assert all(h.prob > 0 and math.isfinite(h.logprob) for h in res.hypotheses)
    assert len(res.hypotheses) == len(outputs(SPARSE))


def test_batched_equals_one_by_one():
    tables = [SPARSE, DENSE, TRAP, SINGLE]
    together = run(tables, beam=3)
    for t, r in zip(tables, together):
        alone = run([t], beam=3)[0]
        assert [(h.tokens, round(h.prob, 12)) for h in alone.hypotheses] == \
               [(h.tokens, round(h.prob, 12)) for h in r.hypotheses]


def test_ensemble_averages_raw_probabilities():
    m1 = TableModel([{(): {A: 1.0}, (A,): {EOS: 1.0}}])
    m2 = TableModel([{(): {B_: 1.0}, (B_,): {EOS: 1.0}}])
    r = beam_search(EnsembleStepModel([m1, m2]), None, 1, beam=5, max_len=5)[0]
    # a continuation with probability zero in one model but not the other survives, at half its mass
    got = {tuple(h.tokens): h.prob for h in r.hypotheses}
    assert got == pytest.approx({(A,): 0.5, (B_,): 0.5})
    assert r.exact()


def test_ensemble_is_not_log_linear():
    t1 = {(): {A: 0.9, B_: 0.1}, (A,): {EOS: 1.0}, (B_,): {EOS: 1.0}}
    t2 = {(): {A: 0.1, B_: 0.9}, (A,): {EOS: 1.0}, (B_,): {EOS: 1.0}}
    ens = EnsembleStepModel([TableModel([t1]), TableModel([t2])])
    p, _ = ens.probs(torch.tensor([BOS]), ens.init(None))
    assert p[0, A].item() == pytest.approx(0.5) and p[0, B_].item() == pytest.approx(0.5)
