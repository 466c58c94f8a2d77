"""The NLI model of Martins & Astudillo (2016) §4.3 with every attention variant of conf/task/snli.yaml."""
from __future__ import annotations

import pytest
import torch
from hydra.utils import instantiate
from omegaconf import OmegaConf

from sparselab.models.nli import NLIClassifier
from sparselab.run import CONF_DIR

TASK = OmegaConf.load(CONF_DIR / "task" / "snli.yaml")
VARIANTS = list(TASK.normalizers)
DISTRIBUTIONS = ("soft", "sparse", "entmax15", "learned")


def normalizer(variant: str):
    node = TASK.normalizers[variant]
    return None if node is None else instantiate(node)


def model(variant: str, device, vocab=30, dim=8, hidden=16, seed=0) -> NLIClassifier:
    torch.manual_seed(seed)
    m = NLIClassifier(vocab, dim, hidden_size=hidden, dropout=0.0, normalizer=normalizer(variant)).to(device)
    m.set_embeddings(torch.randn(vocab, dim) * torch.tensor([0.0] + [1.0] * (vocab - 1)).unsqueeze(1))
    return m.eval()


def batch(device, lens=(5, 2, 7, 1), hyp_lens=(3, 4, 1, 2), vocab=30, seed=1):
    g = torch.Generator().manual_seed(seed)
    L, M = max(lens), max(hyp_lens)
    premise = torch.randint(1, vocab, (len(lens), L), generator=g)
    hypothesis = torch.randint(1, vocab, (len(lens), M), generator=g)
    for i, (n, m) in enumerate(zip(lens, hyp_lens)):
        premise[i, n:] = 0
        hypothesis[i, m:] = 0
    return [t.to(device) for t in (premise, torch.tensor(lens), hypothesis, torch.tensor(hyp_lens))]


def test_the_config_offers_the_paper_variants_and_the_entmax_family():
    assert VARIANTS == ["none", "logistic", "soft", "sparse", "entmax15", "learned"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_attention_is_a_distribution_or_logistic_and_padding_gets_zero(variant, device):
    m = model(variant, device)
    prem, plen, hyp, hlen = batch(device)
    logits, p = m(prem, plen, hyp, hlen)
    assert logits.shape == (4, 3) and torch.isfinite(logits).all()
    if variant == "none":
        assert p is None
        return
    assert p.shape == prem.shape
    real = torch.arange(prem.size(1), device=device).unsqueeze(0) < plen.unsqueeze(1)
    assert torch.equal(p[~real], torch.zeros_like(p[~real]))          # padding: exactly zero weight
    assert (p >= 0).all() and (p <= 1).all()
    if variant in DISTRIBUTIONS:
        torch.testing.assert_close(p.sum(-1), torch.ones(4, device=device), rtol=0, atol=1e-5)
    else:   # logistic: an independent sigmoid per real word, strictly inside (0, 1) here
        assert (p[real] > 0).all() and (p[real] < 1).all()


@pytest.mark.parametrize("variant", VARIANTS)
def test_padding_does_not_change_the_output(variant, device):
    """A pair gives the same logits alone and padded inside a longer batch (packed GRUs, masked attention)."""
    m = model(variant, device)
    prem, plen, hyp, hlen = batch(device)
    full, p_full = m(prem, plen, hyp, hlen)
    i = 1   # premise of 2 words, hypothesis of 4
    alone, p_alone = m(prem[i:i + 1, :2], plen[i:i + 1], hyp[i:i + 1, :4], hlen[i:i + 1])
    torch.testing.assert_close(full[i:i + 1], alone, rtol=1e-5, atol=1e-6)
    if p_full is not None:
        torch.testing.assert_close(p_full[i:i + 1, :2], p_alone, rtol=1e-5, atol=1e-6)


def test_the_hypothesis_gru_starts_from_the_last_premise_state(device):
    m = model("none", device)
    prem, plen, hyp, hlen = batch(device)
    states, mask, h_l, h_n = m.encode(prem, plen, hyp, hlen)
    x = m.project(m.embedding(prem[2:3, :7]))
    _, h_premise = m.premise_rnn(x)
    torch.testing.assert_close(h_l[2], h_premise[0, 0], rtol=1e-5, atol=1e-6)
    _, h_hyp = m.hypothesis_rnn(m.project(m.embedding(hyp[2:3, :1])), h_premise)
    torch.testing.assert_close(h_n[2], h_hyp[0, 0], rtol=1e-5, atol=1e-6)
    assert mask.tolist()[1] == [True, True] + [False] * 5


@pytest.mark.parametrize("variant", ["sparse", "learned", "logistic"])
def test_gradients_reach_the_model_but_not_the_fixed_vectors(variant, device):
    m = model(variant, device).train()
    prem, plen, hyp, hlen = batch(device)
    logits, _ = m(prem, plen, hyp, hlen)
    torch.nn.functional.cross_entropy(logits, torch.tensor([0, 1, 2, 0], device=device)).backward()
    assert m.embedding.weight.grad is None
    assert m.attention.v.weight.grad.abs().sum() > 0 and m.project.weight.grad.abs().sum() > 0
    if variant == "learned":
        assert m.attention.normalizer.a.grad is not None and torch.isfinite(m.attention.normalizer.a.grad)


def test_sparse_attention_can_put_zero_weight_on_real_words(device):
    """sparsemax of spread-out scores leaves words out; softmax never does (Martins & Astudillo 2016, §4.3)."""
    scores = torch.tensor([[3.0, 0.1, -2.0, 2.5, float("-inf")]], device=device)
    sparse, soft = normalizer("sparse")(scores), normalizer("soft")(scores)
    assert (sparse[0, :4] == 0).sum() == 2 and (soft[0, :4] > 0).all() and sparse[0, 4] == 0 == soft[0, 4]


def test_bad_sizes_are_refused():
    with pytest.raises(ValueError, match="dropout"):
        NLIClassifier(10, 4, dropout=1.5)
    m = NLIClassifier(10, 4, hidden_size=8)
    with pytest.raises(ValueError, match=r"vectors of shape \(3, 4\), expected \(10, 4\)"):
        m.set_embeddings(torch.zeros(3, 4))
