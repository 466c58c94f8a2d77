"""The adaptively sparse Transformer (Correia et al. 2019): masks, incremental decoding, learned α per head."""
from __future__ import annotations

import pytest
import torch

from sparselab.analysis.heads import learned_alphas
from sparselab.data.text import TokenBucketBatchSampler
from sparselab.mappings import Entmax
from sparselab.models.transformer import ATTENTION_TYPES, Transformer
from sparselab.training.transformer_module import TransformerModule, inverse_sqrt, is_alpha_parameter

PAD, BOS, EOS = 0, 1, 2
NORMALIZERS = {
    "softmax": lambda H: Entmax(1.0),
    "entmax15": lambda H: Entmax(1.5),
    "alpha_entmax": lambda H: Entmax(learnable=True, num_heads=H),
}


def tiny(normalizer, heads=4, layers=2, seed=0, **kw):
    torch.manual_seed(seed)
    return Transformer(20, 22, src_pad_id=PAD, tgt_pad_id=PAD, bos_id=BOS, eos_id=EOS, d_model=32, heads=heads,
                       enc_layers=layers, dec_layers=layers, d_ff=64, dropout=0.0,
                       normalizers={t: normalizer for t in ATTENTION_TYPES}, **kw)


def batch(device):
    src = torch.tensor([[5, 6, 7, 8, 9], [10, 11, 12, PAD, PAD]], device=device)
    tgt_in = torch.tensor([[BOS, 4, 5, 6], [BOS, 7, PAD, PAD]], device=device)
    return src, tgt_in


@pytest.mark.parametrize("name", list(NORMALIZERS))
def test_padding_and_future_get_exactly_zero(name, device):
    model = tiny(NORMALIZERS[name](4)).to(device).eval()
    src, tgt_in = batch(device)
    _, maps = model(src, None, tgt_in, return_attn=True)
    for layer in range(2):
        assert torch.all(maps.enc_self[layer][1, :, :, 3:] == 0)         # padded source keys
        assert torch.all(maps.context[layer][1, :, :, 3:] == 0)
        assert torch.all(maps.dec_self[layer][1, :, :, 2:] == 0)         # padded target keys
        future = torch.ones(4, 4, dtype=torch.bool, device=device).triu(1)
        assert torch.all(maps.dec_self[layer][:, :, future] == 0)         # causal mask
        for kind in ATTENTION_TYPES:                                       # rows over real keys sum to 1
            q_mask, _ = maps.masks(kind)
            sums = maps.of(kind)[layer].sum(-1)[q_mask[:, None, :].expand(-1, 4, -1)]
            torch.testing.assert_close(sums, torch.ones_like(sums), atol=1e-5, rtol=0)


@pytest.mark.parametrize("name", list(NORMALIZERS))
def test_incremental_decoding_equals_teacher_forcing(name, device):
    model = tiny(NORMALIZERS[name](4)).to(device).double().eval()
    src, tgt_in = batch(device)
    logits = model(src, None, tgt_in)
    state = model.encode(src)
    for t in range(tgt_in.size(1)):
        step_logits, attn, state = model.step(tgt_in[:, t], state)
        torch.testing.assert_close(step_logits[0], logits[0, t])            # row 0 has no target padding
        if t < 2:
            torch.testing.assert_close(step_logits[1], logits[1, t])
        assert attn.shape == (2, src.size(1))
    # beam search reorders hypotheses: select keeps every cached tensor aligned
    sel = state.select(torch.tensor([1, 0], device=device))
    assert torch.equal(sel.self_kv[0][0][0], state.self_kv[0][0][1]) and sel.length == state.length


def test_learned_alpha_one_per_head_layer_and_type_and_independent_draws():
    model = tiny(Entmax(learnable=True, num_heads=4), layers=3)
    alphas = learned_alphas(model)
    assert set(alphas) == set(ATTENTION_TYPES)
    n = sum(len(heads) for layers in alphas.values() for heads in layers.values())
    assert n == 3 * 3 * 4                                   # layers x attention types x heads (Base: 6 x 3 x 8)
    values = [a for layers in alphas.values() for heads in layers.values() for a in heads]
    assert len(set(values)) == len(values)                  # every layer drew its own a ~ N(0, 1)
    assert all(1.01 <= a <= 2.0 for a in values)            # the clamp


def test_alpha_init_and_clamp_hold_under_extreme_parameters():
    model = tiny(Entmax(learnable=True, num_heads=4, alpha_init=1.5))
    assert all(abs(a - 1.5) < 1e-6 for layers in learned_alphas(model).values() for heads in layers.values()
               for a in heads)
    with torch.no_grad():
        for layer in model.encoder:
            layer.self_attn.normalizer.a.copy_(torch.tensor([-50.0, 50.0, 0.0, 3.0]))
    enc = learned_alphas(model)["enc_self"][0]
    assert enc[0] == pytest.approx(1.01) and enc[1] == pytest.approx(2.0)


def test_unknown_attention_type_lists_the_valid_ones():
    with pytest.raises(ValueError, match="enc_self, dec_self, context"):
        Transformer(5, 5, src_pad_id=0, tgt_pad_id=0, bos_id=1, eos_id=2, d_model=8, heads=2, enc_layers=1,
                    dec_layers=1, d_ff=8, normalizers={"encoder": Entmax(1.0)})


def test_alpha_receives_gradient_and_moves_toward_sparse_on_a_task_that_needs_sparsity():
    """One head over 6 keys whose scores are 1 on 2 random keys and 0 elsewhere (plus noise); the target is the
    uniform distribution over those 2 keys. Sparse maps (α near 2) fit it, softmax leaks mass to the other 4:
    from α = 1.2, α must increase."""
    torch.manual_seed(0)
    norm = Entmax(learnable=True, alpha_init=1.2)
    opt = torch.optim.Adam(norm.parameters(), lr=0.05)
    start = float(norm.alpha.detach())
    for _ in range(60):
        chosen = torch.rand(64, 6).argsort(-1)[:, :2]
        on = torch.zeros(64, 6).scatter(-1, chosen, 1.0)
        x = on + 0.05 * torch.randn(64, 6)
        loss = ((norm(x) - on / 2) ** 2).sum(-1).mean()
        opt.zero_grad()
        loss.backward()
        assert norm.a.grad is not None and torch.isfinite(norm.a.grad).all()
        opt.step()
    assert float(norm.alpha.detach()) > start + 0.3


def test_module_puts_alpha_parameters_in_their_own_group_with_the_same_schedule():
    model = tiny(Entmax(learnable=True, num_heads=4))
    names = [n for n, _ in model.named_parameters() if is_alpha_parameter(n, model)]
    assert len(names) == 2 * 3                               # one `a` (of 4 heads) per layer and attention type
    module = TransformerModule(model, 1.0, lr=1e-3, warmup_steps=4, alpha_lr=1e-2)
    cfg = module.configure_optimizers()
    groups = cfg["optimizer"].param_groups
    assert [len(g["params"]) for g in groups][1] == 6
    sched = cfg["lr_scheduler"]["scheduler"]
    lrs = []
    for _ in range(8):
        lrs.append([g["lr"] for g in groups])
        cfg["optimizer"].step()
        sched.step()
    assert lrs[3][0] == pytest.approx(1e-3) and lrs[3][1] == pytest.approx(1e-2)   # peak at the end of warm-up
    assert lrs[0][0] == pytest.approx(1e-3 / 4) and lrs[7][0] == pytest.approx(1e-3 * (4 / 8) ** 0.5)
    assert inverse_sqrt(4)(15) == pytest.approx(0.5)


def test_learned_output_alpha_is_a_tensor_loss_alpha_with_a_gradient():
    model = tiny(Entmax(1.5), output_normalizer=Entmax(learnable=True, alpha_init=1.5))
    module = TransformerModule(model, 1.0)
    src, tgt_in = batch("cpu")
    tgt_out = torch.tensor([[4, 5, 6, EOS], [7, EOS, PAD, PAD]])
    loss = module.loss({"src": src, "src_len": None, "tgt_in": tgt_in, "tgt_out": tgt_out})
    loss.backward()
    assert model.output_normalizer.a.grad is not None and module.final_output_alpha() == pytest.approx(1.5)


def test_token_batches_cover_every_item_once_within_the_token_budget():
    lengths = [(3 + i % 17, 2 + (i * 7) % 23) for i in range(500)]
    sampler = TokenBucketBatchSampler(lengths, max_tokens=120, seed=1, pool=100)
    batches = list(sampler)
    assert len(batches) == len(sampler) or len(batches) > 0
    assert sorted(i for b in batches for i in b) == list(range(500))
    assert all(len(b) * max(max(lengths[i]) + 1 for i in b) <= 120 for b in batches)
    assert list(sampler) != batches                                   # a new order every epoch


def test_learned_output_alpha_is_not_an_attention_head():
    """experiment=correia2019/output_alpha: the α trajectories and histograms take the 3 x 2 attention sites; the
    learnable output normalizer is left out (it is the run's output_alpha metric), any other stray one is an error."""
    from sparselab.analysis.heads import learnable_normalizers, learned_alphas

    model = tiny(Entmax(learnable=True, num_heads=4), output_normalizer=Entmax(learnable=True, alpha_init=1.5))
    sites = learnable_normalizers(model)
    assert len(sites) == 6 and all("output" not in name for name, _ in sites.values())
    assert {k: sorted(v) for k, v in learned_alphas(model).items()} == {
        "enc_self": [0, 1], "dec_self": [0, 1], "context": [0, 1]}
    model.extra = Entmax(learnable=True)
    with pytest.raises(ValueError, match="'extra': no \\(attention type, layer\\) pattern"):
        learnable_normalizers(model)
