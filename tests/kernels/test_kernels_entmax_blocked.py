"""Issue 58: the blocked Triton α-entmax attention (``sparselab.kernels._entmax_blocked``, long key rows) against the
materialised path (``sparselab.mappings`` on the masked scores, then ``@ v``), on CPU through Triton's interpreter.
Rows of 512 and 1,000 keys in tiles of 16 queries × 32-64 keys, so a row spans 8-63 key blocks and the sparse ones
are skipped. float32 (the interpreter's bf16 ``tl.dot`` is wrong): forward to 1e-5, dq/dk/dv to 1e-4 + 1e-4
relative, dα to 1e-3 relative (as tests/kernels/test_kernels_entmax_attention.py, whose helpers these reuse)."""
from __future__ import annotations

import importlib
import importlib.util

import pytest
import torch

if importlib.util.find_spec("triton") is None:
    pytest.skip("triton is not installed (pip install -e '.[kernels]')", allow_module_level=True)

# sets TRITON_INTERPRET=1 before the kernels are decorated (without a GPU), and reloads them if need be
from test_kernels_entmax_attention import (
    DEVICE, FWD_ATOL, _inputs, compare, ea, materialised)

from sparselab.kernels import _entmax_blocked

if not torch.cuda.is_available() and not type(_entmax_blocked.blocked_fwd).__name__.startswith("Interpreted"):
    _entmax_blocked = importlib.reload(_entmax_blocked)
    ea.KB = _entmax_blocked


@pytest.fixture(autouse=True)
def blocked(monkeypatch):
    """Every call here takes the blocked kernel, in small tiles, and records its block mask and visits."""
    monkeypatch.setattr(ea, "PATH", "blocked")
    monkeypatch.setattr(ea, "BLOCKED_TILE", (16, 64))
    monkeypatch.setattr(ea, "RECORD", True)


def local_inputs(B, H, L, D, sharp=6.0, Lq=None, h_kv=None, seed=0):
    """Queries and keys whose scores peak near the diagonal (a sum of cosines of (i - j) over D/2 frequencies,
    plus a little noise: far-off key blocks get probability exactly zero."""
    g = torch.Generator().manual_seed(seed)
    Lq = L if Lq is None else Lq
    freq = 0.05 + 0.4 * torch.rand(D // 2, generator=g)       # incommensurate: no periodic side peaks

    def feats(pos):
        a = pos[:, None].float() * freq[None, :]
        return torch.cat([a.cos(), a.sin()], -1) * (sharp * (D ** 0.5) / D) ** 0.5

    h_kv = H if h_kv is None else h_kv
    q = feats(torch.arange(L - Lq, L)).expand(B, H, Lq, D) + 0.1 * torch.randn(B, H, Lq, D, generator=g)
    k = feats(torch.arange(L)).expand(B, h_kv, L, D) + 0.1 * torch.randn(B, h_kv, L, D, generator=g)
    v = torch.randn(B, h_kv, L, D, generator=g)
    return [x.contiguous().to(DEVICE).requires_grad_() for x in (q, k, v)]


def block_use(p, tile):
    """(B·H, query blocks, key blocks) bool: the blocks with a non-zero probability in the materialised map."""
    B, H, Lq, Lk = p.shape
    bm, bn = tile
    pad = torch.zeros(B, H, -(-Lq // bm) * bm, -(-Lk // bn) * bn)
    pad[..., :Lq, :Lk] = p
    return (pad.reshape(B * H, -(-Lq // bm), bm, -(-Lk // bn), bn) != 0).any(4).any(2)


@pytest.mark.parametrize("alpha", [1.5, 2.0, 1.3])
def test_multi_block_rows_of_512_keys_match_the_materialised_path(alpha):
    """α 1.5 and 2 (exact finish) and 1.3 (Newton), rows of 512 keys = 8 key blocks, random scores."""
    q, k, v = _inputs(1, 2, 16, 512, 32, spread=2.0, seed=int(alpha * 10))
    compare(q, k, v, alpha)


def test_learned_alpha_per_head_over_1000_keys_with_its_gradient():
    """α per (batch, head) with grad, rows of 1,000 keys (16 blocks, the last one partial), causal bottom-right
    (the queries are the last 16 positions: decoding with a cache), and sparse enough that blocks are skipped."""
    q, k, v = local_inputs(2, 1, 1000, 32, Lq=16, seed=1)
    alpha = torch.tensor([[1.5], [1.8]], device=DEVICE, requires_grad=True)
    compare(q, k, v, alpha, causal="bottom_right")
    assert 0 < ea.last_blocks["mask"].float().mean() < 0.5


def test_skipped_blocks_are_counted_on_a_sparse_input():
    """1,000 keys, the 32 queries of the last positions, scores built so that only keys near a query's position
    get probability: the threshold pass marks a superset of the materialised map's non-zero blocks, and the
    forward computes exactly the marked blocks, fewer than a quarter of all (so skipping cannot silently turn
    off)."""
    q, k, v = local_inputs(1, 1, 1000, 32, Lq=32, seed=2)
    with torch.no_grad():
        out = ea.entmax_attention(q, k, v, 1.5)
        ref, p = materialised(q, k, v, 1.5)
    torch.testing.assert_close(out, ref, atol=FWD_ATOL, rtol=0)
    mask, visits = ea.last_blocks["mask"], ea.last_blocks["visits"]
    used = block_use(p, ea.last_blocks["tile"])
    assert bool((mask | ~used).all()), "a block with non-zero probabilities was skipped"
    assert torch.equal(visits, mask.sum(2).to(visits.dtype)), "the forward computed other blocks than the marked"
    total = mask.numel()
    assert int(mask.sum()) < total / 4, f"{int(mask.sum())} of {total} blocks computed"
    assert int(mask.sum()) <= 1.5 * int(used.sum())


def test_cross_attention_key_padding_causal_top_left_and_a_fully_masked_row(monkeypatch):
    monkeypatch.setattr(ea, "BLOCKED_TILE", (16, 32))
    B, H, Lq, Lk = 2, 2, 20, 200
    q, k, v = _inputs(B, H, Lq, Lk, 32, seed=5)
    mask = torch.rand(B, Lk, generator=torch.Generator().manual_seed(1)) > 0.3
    mask[1] = False
    alpha = torch.tensor([1.2, 1.6], device=DEVICE, requires_grad=True)
    out, _ = compare(q, k, v, alpha, key_padding_mask=mask.to(DEVICE))
    assert out[1].abs().max() == 0
    mask[1, 150:] = True          # batch 1: its first queries see no unmasked key when causal (fully masked rows)
    compare(q, k, v, 1.5, key_padding_mask=mask.to(DEVICE), causal=True)
    compare(q, k, v, alpha, causal="bottom_right")


def test_grouped_query_heads_read_in_place():
    """k, v with 2 heads for 4 query heads: dk, dv sum over each group, k and v are not copied."""
    q, k, v = local_inputs(1, 4, 400, 32, Lq=16, h_kv=2, seed=3)
    alpha = torch.tensor([1.3, 1.5, 1.7, 2.0], device=DEVICE, requires_grad=True)
    compare(q, k, v, alpha, causal="bottom_right")
    assert k.grad is None and k.shape[1] == 2


@pytest.mark.parametrize("D", [64, 128])
def test_head_dims(D, monkeypatch):
    """D = 32 is every test above; 64 and 128 here (short rows in small tiles: the cost grows with D)."""
    monkeypatch.setattr(ea, "BLOCKED_TILE", (16, 16))
    q, k, v = _inputs(1, 1, 16, 48, D, seed=D)
    compare(q, k, v, torch.tensor([1.4], device=DEVICE, requires_grad=True))


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_half_precision_inputs_cast_to_float32(dtype):
    """bf16 / fp16 inputs compared in float32 (the interpreter's half-precision dot is wrong); on a GPU
    tests/kernels/test_kernels_entmax_attention.py's GPU tests run the half-precision dots."""
    q, k, v = _inputs(1, 2, 16, 300, 32, seed=8, dtype=dtype)
    compare(q, k, v, 1.5)


def test_dropout_keeps_the_same_mask_in_the_backward():
    q, k, v = _inputs(1, 1, 16, 300, 32, seed=10)
    a = ea.entmax_attention(q, k, v, 1.5, dropout_p=0.3, seed=7)
    b = ea.entmax_attention(q, k, v, 1.5, dropout_p=0.3, seed=7)
    torch.testing.assert_close(a, b, atol=0, rtol=0)
    _, p = materialised(q, k, v, 1.5)
    eye = torch.eye(300, 32).expand(1, 1, 300, 32).contiguous().to(DEVICE)   # v = one-hot rows: out = p_drop[:, :32]
    p_drop = ea.entmax_attention(q.detach(), k.detach(), eye, 1.5, dropout_p=0.3, seed=7)
    kept = p_drop != 0
    torch.testing.assert_close(p_drop[kept], (p[..., :32] / 0.7)[kept], atol=FWD_ATOL, rtol=0)
    assert 0 < int(kept.sum()) < int((p[..., :32] != 0).sum())


def test_the_blocked_kernel_runs_not_a_torch_fallback(monkeypatch):
    """The blocked kernels are Triton functions, each call launches them (threshold + forward, then the two
    backward passes), and the materialised maps are never called (they raise here)."""
    import triton

    bisect, entmax15, sparsemax = (importlib.import_module(f"sparselab.mappings.{m}")
                                   for m in ("bisect", "entmax15", "sparsemax"))
    for kern in ("blocked_threshold", "blocked_fwd", "blocked_bwd_rows", "blocked_bwd_keys"):
        assert isinstance(getattr(ea.KB, kern), triton.runtime.jit.KernelInterface)

    def refuse(*args, **kwargs):
        raise AssertionError("the materialised path ran")

    for mod, name in ((bisect, "entmax_bisect"), (bisect.EntmaxBisectFunction, "forward"),
                      (entmax15.Entmax15Function, "forward"), (sparsemax.SparsemaxFunction, "forward")):
        monkeypatch.setattr(mod, name, refuse)
    monkeypatch.setattr(ea, "PATH", "auto")
    monkeypatch.setattr(ea, "EntmaxAttentionFunction", None)      # the short-row kernel must not be taken either
    q, k, v = _inputs(1, 2, 16, 300, 32, seed=9)
    alpha = torch.tensor([1.3, 1.5], device=DEVICE, requires_grad=True)
    before = ea.launches
    out = ea.entmax_attention(q, k, v, alpha)
    assert ea.launches == before + 2
    out.sum().backward()
    assert ea.launches == before + 4
    assert alpha.grad is not None and k.grad is not None


def test_the_path_is_chosen_by_shape():
    """Short rows (<= 256 keys, multi-head, top-left) keep the short-row kernel; longer rows, grouped-query heads
    and a bottom-right causal mask with Lq != Lk take the blocked one; there is no limit at 256 keys."""
    assert ea.uses_short_rows(256, 8, 8, 0)
    assert not ea.uses_short_rows(257, 8, 8, 0)
    assert not ea.uses_short_rows(64, 8, 2, 0)
    assert not ea.uses_short_rows(64, 8, 8, 3)
    assert ea.supports(16384, 128) and ea.supports(ea.SHORT_ROW_KEYS + 1, 64)
    with pytest.raises(ValueError, match="causal"):
        q, k, v = _inputs(1, 2, 4, 4, 16)
        ea.entmax_attention(q, k, v, 1.5, causal="diagonal")
    with pytest.raises(ValueError, match="H_kv"):
        ea.entmax_attention(q, k[:, :1].expand(1, 3, 4, 16), v[:, :1].expand(1, 3, 4, 16), 1.5)
