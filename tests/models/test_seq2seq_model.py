"""GlobalAttention with pluggable normalisers, the LSTM Seq2Seq built from config, learned attention α.

Every test takes the `device` fixture (cpu, and cuda when present)."""
from __future__ import annotations

from functools import partial

import pytest
import torch
from hydra import compose, initialize_config_dir
from hydra.utils import instantiate
from torch import nn

from sparselab import mappings
from sparselab.engine import resolvers
from sparselab.mappings import Entmax
from sparselab.models.attention import GlobalAttention
from sparselab.models.seq2seq import Seq2Seq
from sparselab.run import CONF_DIR

resolvers.register()

NORMALIZERS = {
    "softmax(entmax α=1)": lambda: Entmax(1.0),
    "torch softmax": lambda: nn.Softmax(dim=-1),
    "entmax15": lambda: Entmax(1.5),
    "sparsemax": lambda: Entmax(2.0),
    "bisection α=1.3": lambda: Entmax(1.3),
    "learned α": lambda: Entmax(learnable=True, alpha_init=1.5),
}


@pytest.mark.parametrize("score", ["general", "dot"])
@pytest.mark.parametrize("name", list(NORMALIZERS))
def test_attention_weights_on_simplex_and_padding_exactly_zero(device, name, score):
    torch.manual_seed(0)
    att = GlobalAttention(6, score=score, normalizer=NORMALIZERS[name]()).to(device)
    memory = torch.randn(4, 5, 6, device=device)
    mask = torch.tensor([[1, 1, 1, 1, 1], [1, 1, 1, 0, 0], [1, 0, 0, 0, 0], [1, 1, 0, 1, 0]], device=device).bool()
    q = torch.randn(4, 6, device=device)
    out, w = att(q, att.keys(memory), memory, mask)
    assert out.shape == (4, 6) and w.shape == (4, 5)
    assert torch.allclose(w.sum(-1), torch.ones(4, device=device), atol=1e-5)
    assert (w[~mask] == 0).all() and (w >= 0).all()
    assert w[2, 0].item() == pytest.approx(1.0)


def test_attention_matches_the_formula(device):
    """general score q^T W_a h_s, weights = entmax(score), out = tanh(W_c [c; q])."""
    torch.manual_seed(1)
    att = GlobalAttention(4, key_size=6, normalizer=Entmax(1.5)).to(device)
    memory, q = torch.randn(3, 7, 6, device=device), torch.randn(3, 4, device=device)
    out, w = att(q, att.keys(memory), memory)
    scores = torch.einsum("nh,nsh->ns", q, memory @ att.linear_in.weight.T)
    ref_w = mappings.entmax15(scores, dim=-1)
    ref = torch.tanh(att.linear_out(torch.cat([(ref_w.unsqueeze(2) * memory).sum(1), q], -1)))
    assert torch.allclose(w, ref_w, atol=1e-6) and torch.allclose(out, ref, atol=1e-6)
    with pytest.raises(ValueError, match="score"):
        GlobalAttention(4, score="mlp")
    with pytest.raises(ValueError, match="key_size == query_size"):
        GlobalAttention(4, key_size=6, score="dot")


def _tiny(device, normalizer=None, **ids):
    ids = {"src_pad_id": 0, "tgt_pad_id": 0, "bos_id": 1, "eos_id": 2, **ids}
    return Seq2Seq(11, 9, emb_size=8, hidden_size=8, enc_layers=1, dec_layers=1, dropout=0.0,
                   attention=partial(GlobalAttention, normalizer=normalizer or Entmax(1.0)), **ids).to(device)


def test_parameters_are_created_in_the_pre_refactor_order():
    """Parameter init draws from the RNG in creation order: attention comes after the decoder, before the output."""
    names = [n for n, _ in _tiny("cpu").named_parameters()]
    assert names[:2] == ["src_emb.weight", "tgt_emb.weight"]
    att = [i for i, n in enumerate(names) if n.startswith("attention.")]
    dec = [i for i, n in enumerate(names) if n.startswith("decoder.")]
    out = [i for i, n in enumerate(names) if n.startswith("out.")]
    assert max(dec) < min(att) and max(att) < min(out)
    assert [names[i] for i in att] == ["attention.linear_in.weight", "attention.linear_out.weight"]


def test_special_ids_come_from_the_config(device):
    torch.manual_seed(0)
    m = _tiny(device, src_pad_id=5, tgt_pad_id=4, bos_id=7, eos_id=3)
    assert m.src_emb.padding_idx == 5 and m.tgt_emb.padding_idx == 4
    src = torch.tensor([[6, 8, 5, 5], [9, 10, 8, 6]], device=device)
    state = m.encode(src, torch.tensor([2, 4], device=device))
    assert state.mask.tolist() == [[True, True, False, False], [True] * 4]   # padding = src_pad_id, not 0
    _, attn, _ = m.step(torch.tensor([7, 7], device=device), state)
    assert (attn[0, 2:] == 0).all()
    out = m.greedy(src, torch.tensor([2, 4], device=device), max_len=6)
    assert out.device.type == device.type and out.shape[0] == 2


def _compose(*overrides):
    with initialize_config_dir(version_base="1.3", config_dir=str(CONF_DIR)):
        return compose("config", overrides=["experiment=peters2019/table1_medium", "profile=smoke", *overrides])


def _from_config(cfg, device):
    return instantiate(cfg.model, src_vocab=11, tgt_vocab=9, src_pad_id=0, tgt_pad_id=0, bos_id=1, eos_id=2).to(device)


@pytest.mark.parametrize("attn_alpha", [1.0, 1.5, 2.0, 1.25])
def test_model_from_config_takes_attention_alpha_from_mapping(device, attn_alpha):
    m = _from_config(_compose(f"mapping.attn_alpha={attn_alpha}"), device)
    assert isinstance(m, Seq2Seq) and isinstance(m.attention, GlobalAttention)
    assert m.attention.score == "general"
    norm = m.attention.normalizer
    assert isinstance(norm, Entmax) and not norm.learnable and norm.alpha == attn_alpha
    assert m.hidden_size == 32                                            # smoke profile
    assert (m.bos_id, m.eos_id, m.src_pad_id) == (1, 2, 0)


def test_learnable_mapping_selects_a_learned_alpha_normaliser(device):
    m = _from_config(_compose("mapping=learnable", "mapping.attn_alpha=1.3"), device)
    norm = m.attention.normalizer
    assert norm.learnable and norm.alpha.item() == pytest.approx(1.3, abs=1e-6)   # attn_alpha is the initial α
    assert any(n == "attention.normalizer.a" for n, _ in m.named_parameters())


def test_learned_attention_alpha_trains_and_gets_a_gradient(device):
    """Acceptance 3: an LSTM seq2seq with Entmax(learnable=True) attention trains for a few steps; its α
    receives a nonzero, finite gradient and moves."""
    torch.manual_seed(0)
    norm = Entmax(learnable=True, alpha_init=1.5)
    model = _tiny(device, normalizer=norm)
    src = torch.randint(3, 11, (6, 7), device=device)
    src[3:, 5:] = 0
    src_len = (src != 0).sum(1)
    tgt_out = torch.randint(3, 9, (6, 5), device=device)
    tgt_out[:, -1] = 2
    tgt_in = torch.cat([torch.ones_like(tgt_out[:, :1]), tgt_out[:, :-1]], 1)
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    a0, losses = norm.a.detach().clone(), []
    for _ in range(4):
        logits = model(src, src_len, tgt_in)
        loss = mappings.fy_loss(logits.reshape(-1, 9), tgt_out.reshape(-1), 1.5, ignore_index=0)
        opt.zero_grad()
        loss.backward()
        g = norm.a.grad
        assert g is not None and torch.isfinite(g).all() and g.abs().item() > 0
        opt.step()
        losses.append(loss.item())
    assert not torch.equal(norm.a.detach(), a0)
    assert losses[-1] < losses[0]
    assert 1.01 <= norm.alpha.item() <= 2.0
