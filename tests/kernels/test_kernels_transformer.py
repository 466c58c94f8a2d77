"""Issue 34 wiring: ``model.attention_impl`` (auto | fused | materialized) in the Transformer. ``fused`` gives the
materialised model's logits and gradients (the fused α-entmax kernel under Triton's interpreter on CPU, SDPA for
softmax); ``auto`` on CPU, or wherever the probabilities are asked for, runs the materialised path."""
from __future__ import annotations

import importlib
import importlib.util
import os

import pytest
import torch

if importlib.util.find_spec("triton") is None:
    pytest.skip("triton is not installed (pip install -e '.[kernels]')", allow_module_level=True)
if not torch.cuda.is_available():
    os.environ["TRITON_INTERPRET"] = "1"     # read when triton.jit decorates the kernels, at their import

from sparselab.kernels import _entmax_triton
from sparselab.kernels import attention as ea
from sparselab.mappings import Entmax
from sparselab.models.transformer import ATTENTION_TYPES, Transformer

if not torch.cuda.is_available() and not type(_entmax_triton.entmax_attention_fwd).__name__.startswith("Interpreted"):
    importlib.reload(_entmax_triton)
    ea = importlib.reload(ea)

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"    # on a GPU the kernel is compiled, not interpreted
PAD, BOS, EOS = 0, 1, 2
NORMALIZERS = {
    "softmax": lambda: Entmax(1.0),
    "entmax15": lambda: Entmax(1.5),
    "alpha_entmax": lambda: Entmax(learnable=True, num_heads=4),
}


def tiny(normalizer, impl):
    torch.manual_seed(0)
    return Transformer(20, 22, src_pad_id=PAD, tgt_pad_id=PAD, bos_id=BOS, eos_id=EOS, d_model=32, heads=4,
                       enc_layers=2, dec_layers=2, d_ff=64, dropout=0.0,
                       normalizers={t: normalizer for t in ATTENTION_TYPES}, attention_impl=impl).to(DEVICE)


def batch():
    src = torch.tensor([[5, 6, 7, 8, 9, 3], [10, 11, 12, PAD, PAD, PAD]])
    tgt_in = torch.tensor([[BOS, 4, 5, 6], [BOS, 7, PAD, PAD]])
    return src.to(DEVICE), tgt_in.to(DEVICE)


def _logits_and_grads(model):
    src, tgt_in = batch()
    logits = model(src, None, tgt_in)
    grads = torch.autograd.grad(logits.square().sum(), [p for p in model.parameters() if p.requires_grad])
    return logits, grads


@pytest.mark.parametrize("name", list(NORMALIZERS))
def test_fused_equals_materialized_logits_and_gradients(name):
    """Training mode: every block runs its fused kernel (4-dim heads: the kernel pads D to 16), same numbers."""
    fused, mat = tiny(NORMALIZERS[name](), "fused").train(), tiny(NORMALIZERS[name](), "materialized").train()
    mat.load_state_dict(fused.state_dict())
    before = ea.launches
    got, got_grads = _logits_and_grads(fused)
    if name != "softmax":                               # softmax goes to scaled_dot_product_attention
        assert ea.launches - before == 6 * 3            # 6 blocks x (forward + 2 backward passes)
    want, want_grads = _logits_and_grads(mat)
    torch.testing.assert_close(got, want, atol=1e-5, rtol=1e-5)
    for g, w in zip(got_grads, want_grads):
        torch.testing.assert_close(g, w, atol=1e-4, rtol=1e-4)


def test_auto_on_cpu_and_return_attn_stay_materialized():
    """Acceptance 2: on CPU `auto` computes what the model always computed; probabilities asked for (validation
    statistics, attention maps) come from the materialised path under every setting."""
    model = tiny(NORMALIZERS["alpha_entmax"](), "auto").cpu().train()
    mat = tiny(NORMALIZERS["alpha_entmax"](), "materialized").cpu().train()
    mat.load_state_dict(model.state_dict())
    src, tgt_in = (x.cpu() for x in batch())
    before = ea.launches
    assert torch.equal(model(src, None, tgt_in), mat(src, None, tgt_in))
    assert ea.launches == before
    model.attention_impl = "fused"
    for mod in model.modules():
        if hasattr(mod, "attention_impl"):
            mod.attention_impl = "fused"
    _, maps = model(src, None, tgt_in, return_attn=True)
    assert ea.launches == before and all(p is not None for p in maps.enc_self + maps.dec_self + maps.context)


def test_a_bad_attention_impl_names_the_key():
    with pytest.raises(ValueError, match="model.attention_impl"):
        tiny(Entmax(1.5), "flash")
