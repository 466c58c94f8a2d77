"""Beam search with sparse outputs (Peters et al. 2019): pruning, exactness certificate, ensembles.

The toy model's output distribution is a fixed table prefix -> next-symbol probabilities, so the
probability of every complete output is known exactly. Every test runs on each available device
(the `device` fixture): the search keeps its tensors on the model's device.
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

    def __init__(self, tables, device="cpu"):
        self.tables = tables  # one dict per input: prefix tuple -> {token: prob}
        self.device = torch.device(device)

    def init(self, batch):
        return [(b, ()) for b in range(len(self.tables))]

    def probs(self, prev, state):
        assert prev.device == self.device           # the search created its tensors on the model's device
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
        return torch.stack(rows).to(self.device), new_state

    def select(self, state, index):
        assert index.device == self.device
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


def run(tables, device, beam=5, **kw):
    return beam_search(TableModel(tables, device), None, len(tables), beam=beam, max_len=10, **kw)


def test_finds_argmax_and_exact_probabilities(device):
    res = run([SPARSE, SINGLE, TRAP], device)
    for table, r in zip([SPARSE, SINGLE, TRAP], res):
        truth = outputs(table)
        best = max(truth, key=truth.get)
        assert tuple(r.best) == best
        for h in r.hypotheses:
            assert h.prob == pytest.approx(truth[tuple(h.tokens)], abs=1e-12)
    assert tuple(res[2].best) == (B_,)       # the greedy path (A, ...) is worse


def test_certificate_true_exactly_when_beam_holds_all_mass(device):
    res = run([SPARSE, SINGLE, TRAP, DENSE], device)
    assert [r.exact() for r in res] == [True, True, True, False]
    for table, r in zip([SPARSE, SINGLE, TRAP], res):
        assert {tuple(h.tokens) for h in r.hypotheses} == set(outputs(table))   # nothing nonzero dropped
        assert r.mass == pytest.approx(1.0)
    assert res[3].mass < 1 - 1e-6
    assert [r.single() for r in res] == [False, True, False, False]


def test_certificate_depends_on_beam_size(device):
    # SPARSE has 3 nonzero candidates at step 2 (A EOS, A C, B EOS): beams 1 and 2 lose mass, 3 keeps it all
    assert not run([SPARSE], device, beam=1)[0].exact()
    assert not run([SPARSE], device, beam=2)[0].exact()
    r = run([SPARSE], device, beam=3)[0]
    assert r.exact() and len(r.hypotheses) == 3


def test_zero_probability_continuations_are_pruned_never_scored(device):
    res = run([SPARSE], device)[0]
    assert all(h.prob > 0 and math.isfinite(h.logprob) for h in res.hypotheses)
    assert len(res.hypotheses) == len(outputs(SPARSE))


def test_batched_equals_one_by_one(device):
    tables = [SPARSE, DENSE, TRAP, SINGLE]
    together = run(tables, device, beam=3)
    for t, r in zip(tables, together):
        alone = run([t], device, beam=3)[0]
        assert [(h.tokens, round(h.prob, 12)) for h in alone.hypotheses] == \
               [(h.tokens, round(h.prob, 12)) for h in r.hypotheses]


def test_ensemble_averages_raw_probabilities(device):
    m1 = TableModel([{(): {A: 1.0}, (A,): {EOS: 1.0}}], device)
    m2 = TableModel([{(): {B_: 1.0}, (B_,): {EOS: 1.0}}], device)
    r = beam_search(EnsembleStepModel([m1, m2]), None, 1, beam=5, max_len=5)[0]
    # a continuation with probability zero in one model but not the other survives, at half its mass
    got = {tuple(h.tokens): h.prob for h in r.hypotheses}
    assert got == pytest.approx({(A,): 0.5, (B_,): 0.5})
    assert r.exact()


def test_ensemble_is_not_log_linear(device):
    t1 = {(): {A: 0.9, B_: 0.1}, (A,): {EOS: 1.0}, (B_,): {EOS: 1.0}}
    t2 = {(): {A: 0.1, B_: 0.9}, (A,): {EOS: 1.0}, (B_,): {EOS: 1.0}}
    ens = EnsembleStepModel([TableModel([t1], device), TableModel([t2], device)])
    p, _ = ens.probs(torch.tensor([BOS], device=device), ens.init(None))
    assert p[0, A].item() == pytest.approx(0.5) and p[0, B_].item() == pytest.approx(0.5)


def test_length_normalisation_reranks_finished_outputs_only(device):
    # two outputs of probability 0.5 each: (A,) and (B, B, B); per-length scores favour the long one
    table = {(): {A: 0.5, B_: 0.5}, (A,): {EOS: 1.0}, (B_,): {B_: 1.0}, (B_, B_): {B_: 1.0}, (B_, B_, B_): {EOS: 1.0}}
    plain, normed = run([table], device)[0], run([table], device, length_norm=1.0)[0]
    assert plain.best == [A]                                  # ties broken by finishing order
    assert normed.best == [B_, B_, B_]                        # log .5 / 4 > log .5 / 2
    assert {tuple(h.tokens): h.prob for h in plain.hypotheses} == {tuple(h.tokens): h.prob for h in normed.hypotheses}
    assert normed.exact() and plain.exact()
    assert normed.hypotheses[0].score == pytest.approx(math.log(0.5) / 4)
    assert all(h.score == h.logprob for h in plain.hypotheses)  # off by default: scores are log p


def test_seq2seq_beam_on_device_batched_equals_one_by_one(device):
    """A real (random, sparse-output) Seq2Seq decodes on its device; batching changes nothing."""
    from sparselab.decoding.beam import Seq2SeqStepModel
    from sparselab.mappings import Entmax
    from sparselab.models.attention import GlobalAttention
    from sparselab.models.seq2seq import Seq2Seq
    from functools import partial

    torch.manual_seed(0)
    model = Seq2Seq(12, 9, src_pad_id=0, tgt_pad_id=0, bos_id=1, eos_id=2, emb_size=8, hidden_size=8,
                    enc_layers=1, dec_layers=1, dropout=0.0,
                    attention=partial(GlobalAttention, normalizer=Entmax(1.5))).to(device).eval()
    with torch.no_grad():
        model.out.weight.mul_(8.0)                            # peaked scores: 2-entmax outputs get sparse
    src = torch.tensor([[3, 4, 5, 6], [7, 8, 0, 0], [9, 10, 11, 0]], device=device)
    batch = {"src": src, "src_len": (src != 0).sum(1)}
    step = Seq2SeqStepModel(model, alpha=2.0)
    assert step.device.type == device.type and (step.bos, step.eos) == (1, 2)
    together = beam_search(step, batch, 3, beam=4, max_len=8)
    for b in range(3):
        one = {"src": src[b: b + 1, : int(batch["src_len"][b])], "src_len": batch["src_len"][b: b + 1]}
        alone = beam_search(step, one, 1, beam=4, max_len=8)[0]
        # same outputs, same probabilities up to float32 batching noise of the LSTM
        assert sorted(h.tokens for h in alone.hypotheses) == sorted(h.tokens for h in together[b].hypotheses)
        probs = {tuple(h.tokens): h.prob for h in together[b].hypotheses}
        assert all(h.prob == pytest.approx(probs[tuple(h.tokens)], rel=1e-4) for h in alone.hypotheses)
    for r in together:
        assert r.hypotheses and all(0 < h.prob <= 1 for h in r.hypotheses)
        assert r.mass == pytest.approx(sum(h.prob for h in r.hypotheses))


def test_inflection_dev_shares_pool_every_language(monkeypatch):
    """Issue 20: the task measures the single-sequence / exact-beam shares on the split it is given (dev), pooled
    over languages, under the names the report reads (val_single_share, val_exact_share)."""
    from sparselab.decoding.beam import BeamResult, BeamSettings, Hypothesis
    from sparselab.decoding import inflection

    def hyp(tokens, p):
        return Hypothesis(tokens, p, math.log(p))

    one = BeamResult([hyp([4], 1.0)], mass=1.0)                                 # single and exact
    two = BeamResult([hyp([4], 0.75), hyp([5], 0.25)], mass=1.0)                # exact only
    cut = BeamResult([hyp([4], 0.5)], mass=0.5)                                 # neither
    monkeypatch.setattr(inflection, "decode", lambda *a, **k: {"a": [one, two], "b": [cut, one]})
    beam = BeamSettings(beam=5, batch_size=8, max_len=10, length_norm=0.0)
    got = inflection.beam_shares(None, {}, None, None, beam, prefix="val_")
    assert got == {"val_exact_share": 0.75, "val_single_share": 0.5, "val_n_decoded": 4.0}
