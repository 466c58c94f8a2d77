"""Issue 34: the fused Triton α-entmax attention (``sparselab.kernels.entmax_attention``) against the materialised
path (``sparselab.mappings`` on the masked scores, then ``@ v``), forward and backward (q, k, v and α), on CPU
through Triton's interpreter. float32 throughout: forward to 1e-5, dq/dk/dv to 1e-4 + 1e-4 relative, dα to 1e-3
relative. The relative part is the float32 rounding of the reference's own sums, which torch orders by its thread
count (a dk of about 10 moved by 1.1e-4 between 1 and 2 threads at α 1.01): rounding scales with the value."""
from __future__ import annotations

import importlib
import importlib.util
import os

import pytest
import torch

if importlib.util.find_spec("triton") is None:
    pytest.skip("triton is not installed (pip install -e '.[kernels]')", allow_module_level=True)

if not torch.cuda.is_available():
    # triton.jit reads TRITON_INTERPRET when it decorates a kernel, i.e. when _entmax_triton is imported
    os.environ["TRITON_INTERPRET"] = "1"

from sparselab.kernels import _entmax_triton
from sparselab.kernels import attention as ea
from sparselab.mappings import Entmax, entmax_bisect

if not torch.cuda.is_available() and not type(_entmax_triton.entmax_attention_fwd).__name__.startswith("Interpreted"):
    # imported earlier in this process without the interpreter: decorate the kernels again under it
    _entmax_triton = importlib.reload(_entmax_triton)
    ea = importlib.reload(ea)

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
FWD_ATOL, GRAD_ATOL, GRAD_RTOL, DALPHA_RTOL = 1e-5, 1e-4, 1e-4, 1e-3


def _inputs(B, H, Lq, Lk, D, spread=2.0, seed=0, dtype=torch.float32):
    g = torch.Generator().manual_seed(seed)
    # half-precision cases are drawn in their dtype and cast to float32: the interpreter multiplies
    # bf16/fp16 tl.dot operands wrongly (and has no inline_asm), so the kernel runs in float32 here
    q, k, v = (torch.randn(B, H, n, D, generator=g).to(dtype).float() * s
               for n, s in ((Lq, spread), (Lk, spread), (Lk, 1.0)))
    return [x.to(DEVICE).requires_grad_() for x in (q, k, v)]


def materialised(q, k, v, alpha, key_padding_mask=None, causal=False):
    """Entmax over the masked, scaled scores, then @ v; grouped-query k, v repeated per query head; causal
    ``"bottom_right"``: key j visible to query i when j <= i + Lk - Lq."""
    B, H, Lq, D = q.shape
    Lk = k.shape[2]
    if k.shape[1] != H:
        k, v = (x.repeat_interleave(H // x.shape[1], dim=1) for x in (k, v))
    z = (q @ k.transpose(-1, -2)) / D ** 0.5
    valid = torch.ones(B, 1, Lq, Lk, dtype=torch.bool, device=q.device)
    if key_padding_mask is not None:
        valid = valid & key_padding_mask[:, None, None, :]
    if causal:
        off = Lk - Lq if causal == "bottom_right" else 0
        valid = valid & torch.ones(Lq, Lk, dtype=torch.bool, device=q.device).tril(off)
    z = z.masked_fill(~valid, float("-inf"))
    if isinstance(alpha, float):
        p = Entmax(alpha)(z)
    else:
        p = entmax_bisect(z, alpha.expand(B, H).reshape(B, H, 1, 1), alpha_range=(1.01, 2.0))
    return p @ v, p


def compare(q, k, v, alpha, **kw):
    """Forward and every gradient of the kernel against the materialised path, one seeded upstream gradient
    (the global generator gave each test order its own). dα against the path in float64: dα sums over every
    score, and where that sum cancels a float32 reference errs as much as the kernel (1.8e-4 relative)."""
    tensors = [q, k, v] + ([alpha] if isinstance(alpha, torch.Tensor) and alpha.requires_grad else [])
    out = ea.entmax_attention(q, k, v, alpha, **kw)
    ref, p = materialised(q, k, v, alpha, **kw)
    torch.testing.assert_close(out, ref, atol=FWD_ATOL, rtol=0)
    gout = torch.randn(out.shape, generator=torch.Generator().manual_seed(0)).to(out.device)
    got = torch.autograd.grad(out, tensors, gout)
    want = torch.autograd.grad(ref, tensors, gout)
    for name, a, b in zip(("dq", "dk", "dv"), got, want):
        torch.testing.assert_close(a, b, atol=GRAD_ATOL, rtol=GRAD_RTOL, msg=lambda m, n=name: f"{n}: {m}")
    if len(tensors) == 4:
        exact = [x.detach().double().requires_grad_(x is alpha) for x in tensors]
        (dalpha,) = torch.autograd.grad(materialised(*exact, **kw)[0], exact[3], gout.double())
        torch.testing.assert_close(got[3], dalpha.float(), rtol=DALPHA_RTOL, atol=1e-6)
    return out, p.detach()


@pytest.mark.parametrize("D", [16, 64])
@pytest.mark.parametrize("alpha", [1.01, 1.3, 1.5, 2.0])
def test_fixed_alpha_matches_the_materialised_path(alpha, D):
    """α 1.5 and 2 against the exact maps (entmax15, sparsemax); 1.01 and 1.3 against bisection."""
    q, k, v = _inputs(2, 2, 12, 12, D, seed=int(alpha * 100) + D)
    compare(q, k, v, alpha)


@pytest.mark.parametrize("shape", ["H", "BH"])
def test_learned_alpha_per_head_gets_its_gradient(shape):
    B, H = 2, 3
    alpha = torch.tensor([1.05, 1.5, 2.0]) if shape == "H" else torch.tensor([[1.01, 1.3, 1.5], [1.7, 1.99, 1.2]])
    alpha = alpha.to(DEVICE).requires_grad_()
    q, k, v = _inputs(B, H, 10, 10, 16, seed=3)
    compare(q, k, v, alpha)
    assert alpha.grad is None   # autograd.grad above, not backward


def test_causal_padding_cross_attention_and_a_fully_masked_row():
    """Lq ≠ Lk (cross-attention), key padding, causal (top-left), and batch 1 with every key masked."""
    B, H, Lq, Lk = 2, 2, 7, 19
    q, k, v = _inputs(B, H, Lq, Lk, 16, seed=5)
    mask = torch.rand(B, Lk, generator=torch.Generator().manual_seed(1)) > 0.3
    mask[1] = False
    alpha = torch.tensor([1.2, 1.6], device=DEVICE, requires_grad=True)
    out, _ = compare(q, k, v, alpha, key_padding_mask=mask.to(DEVICE))
    assert out[1].abs().max() == 0
    q, k, v = _inputs(B, H, 9, 9, 16, seed=6)
    compare(q, k, v, 1.5, key_padding_mask=mask[:, :9].to(DEVICE), causal=True)
    compare(q, k, v, alpha, causal=True)


def test_a_wide_score_range_converges_at_alpha_near_one():
    """Scores spread over ~50 (sharp attention): the fixed Newton count still reaches float exactness."""
    q, k, v = _inputs(1, 2, 16, 40, 64, spread=6.0, seed=7)
    compare(q, k, v, 1.01)
    compare(q, k, v, torch.tensor([1.01, 1.99], device=DEVICE, requires_grad=True))


def test_half_precision_inputs_cast_to_float32():
    """bf16 inputs (what autocast gives on a GPU) compared in float32 (the interpreter's bf16 dot is wrong)."""
    q, k, v = _inputs(2, 2, 8, 16, 16, seed=8, dtype=torch.bfloat16)
    compare(q, k, v, 1.5)


def test_the_triton_kernel_runs_not_a_torch_fallback(monkeypatch):
    """Acceptance 1: the kernels are Triton functions, each call launches them, and the materialised maps
    are never called (they raise here)."""
    import triton

    bisect, entmax15, sparsemax = (importlib.import_module(f"sparselab.mappings.{m}")
                                   for m in ("bisect", "entmax15", "sparsemax"))
    assert isinstance(_entmax_triton.entmax_attention_fwd, triton.runtime.jit.KernelInterface)

    def refuse(*args, **kwargs):
        raise AssertionError("the materialised path ran")

    for mod, name in ((bisect, "entmax_bisect"), (bisect.EntmaxBisectFunction, "forward"),
                      (entmax15.Entmax15Function, "forward"), (sparsemax.SparsemaxFunction, "forward")):
        monkeypatch.setattr(mod, name, refuse)
    q, k, v = _inputs(1, 2, 8, 8, 16, seed=9)
    alpha = torch.tensor([1.3, 1.5], device=DEVICE, requires_grad=True)
    before = ea.launches
    out = ea.entmax_attention(q, k, v, alpha)
    assert ea.launches == before + 1
    out.sum().backward()
    assert ea.launches == before + 3          # forward + the two backward passes
    assert alpha.grad is not None and q.grad is not None


def test_dropout_keeps_the_same_mask_in_the_backward():
    """Dropout on p in-kernel: out is p_dropped @ v; a gradient check in float64 is not available (the kernel
    is float32), so check linearity in v: the same seed gives the same output, and dv = p_droppedᵀ dout."""
    q, k, v = _inputs(1, 2, 8, 8, 16, seed=10)
    a = ea.entmax_attention(q, k, v, 1.5, dropout_p=0.3, seed=123)
    b = ea.entmax_attention(q, k, v, 1.5, dropout_p=0.3, seed=123)
    torch.testing.assert_close(a, b, atol=0, rtol=0)
    # the dropped probabilities, read off by attending with v = identity rows
    eye = torch.eye(8, 16, device=DEVICE).expand(1, 2, 8, 16).contiguous()
    p_drop = ea.entmax_attention(q.detach(), k.detach(), eye, 1.5, dropout_p=0.3, seed=123)[..., :8]
    torch.testing.assert_close(a, p_drop @ v, atol=FWD_ATOL, rtol=0)
    p = Entmax(1.5)((q @ k.transpose(-1, -2)) / 4.0)
    kept = p_drop != 0
    torch.testing.assert_close(p_drop[kept], (p / 0.7)[kept], atol=FWD_ATOL, rtol=0)
    g = torch.randn_like(a)
    (dv,) = torch.autograd.grad(a, [v], g, retain_graph=True)
    torch.testing.assert_close(dv, p_drop.transpose(-1, -2) @ g, atol=GRAD_ATOL, rtol=0)
    # and dq, dk through the same mask: against the materialised map with that mask applied
    z = (q @ k.transpose(-1, -2)) / 4.0
    ref = (Entmax(1.5)(z) * kept / 0.7) @ v
    got = torch.autograd.grad(a, [q, k], g)
    want = torch.autograd.grad(ref, [q, k], g)
    for x, y in zip(got, want):
        torch.testing.assert_close(x, y, atol=GRAD_ATOL, rtol=0)


def test_arguments_are_checked_on_the_host():
    q, k, v = _inputs(1, 2, 4, 4, 16)
    with pytest.raises(ValueError, match="alpha"):
        ea.entmax_attention(q, k, v, 1.0)
    with pytest.raises(ValueError, match="alpha"):
        ea.entmax_attention(q, k, v, torch.ones(3))
    with pytest.raises(ValueError, match="key_padding_mask"):
        ea.entmax_attention(q, k, v, 1.5, key_padding_mask=torch.ones(1, 4))
    long_k = torch.zeros(1, 2, ea.MAX_KEYS + 1, 16)
    with pytest.raises(ValueError, match="at most"):
        ea.entmax_attention(q, long_k, long_k, 1.5)
    assert ea.supports(ea.MAX_KEYS, 64) and not ea.supports(ea.MAX_KEYS + 1, 64)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="host syncs are a CUDA matter")
def test_no_host_sync_per_attention_call():
    """Zero host syncs per attention call, forward and backward, learned α (torch.cuda.set_sync_debug_mode)."""
    q, k, v = (x.detach().cuda().bfloat16().requires_grad_() for x in _inputs(4, 8, 32, 32, 64))
    mask = torch.ones(4, 32, dtype=torch.bool, device="cuda")
    alpha = torch.full((8,), 1.5, device="cuda", requires_grad=True)
    def call():
        ea.entmax_attention(q, k, v, alpha, key_padding_mask=mask, causal=True, dropout_p=0.1, seed=1).sum().backward()

    call()                                  # compiles the kernels first
    torch.cuda.synchronize()
    torch.cuda.set_sync_debug_mode("error")
    try:
        call()
    finally:
        torch.cuda.set_sync_debug_mode(0)
