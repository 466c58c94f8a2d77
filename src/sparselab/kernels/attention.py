"""``entmax_attention``: fused α-entmax attention (Triton), forward and backward, α learned per head.

    out = entmax_α(q kᵀ · scale, masked) @ v            (Peters et al. 2019; Correia et al. 2019)

with exactly the numbers of the materialised path ``sparselab.mappings.Entmax`` (α = 1.5 and 2 as exact as
``entmax15`` / ``sparsemax``), and gradients for q, k, v and a tensor α (Correia et al. 2019, Prop. 1).
See ``_entmax_triton`` for the algorithm. Nothing here reads a device value: no host sync per call.
"""
from __future__ import annotations

import math

import torch

from . import _entmax_blocked as KB
from . import _entmax_triton as K
from ._limits import MAX_HEAD_DIM, MAX_KEYS, SHORT_ROW_KEYS, supports

MIN_BLOCK = 16      # tl.dot needs every dimension >= 16

# Triton kernel launches since import (tests check that the kernel, not a torch fallback, ran).
launches = 0

# The blocked kernel's tile: BLOCK_M queries x BLOCK_N keys per step (the block mask's granularity). None = by
# head dim (64 x 64; 64 x 32 at D > 64, so the tile and its temporaries stay in registers). Tests set small tiles
# so that an interpreted row of 1,000 keys spans many blocks.
BLOCKED_TILE: tuple[int, int] | None = None
# Which path a call takes: "auto" (by shape, :func:`uses_short_rows`), "short" or "blocked" (tests, benchmarks).
PATH = "auto"
# Tests set RECORD: each blocked forward then leaves its block mask and per-program visited-block counts in
# ``last_blocks`` (the kernel counts the key blocks it computed: skipping cannot silently turn off).
RECORD = False
last_blocks: dict = {}


def _pow2(n: int) -> int:
    return max(MIN_BLOCK, 1 << (max(n, 1) - 1).bit_length())


def _row_block(block_n: int) -> int:
    """Queries per program: fewer for longer rows, so the (BLOCK_M, BLOCK_N) score tile stays in registers."""
    return 64 if block_n <= 64 else 32 if block_n <= 128 else 16


def _warps(block_m: int, block_n: int) -> int:
    """More warps for bigger score tiles, so a tile and its temporaries stay in registers."""
    return 4 if block_m * block_n <= 2048 else 8


def _mode(alpha) -> int:
    if isinstance(alpha, float) and alpha == 1.5:
        return K.MODE_15
    if isinstance(alpha, float) and alpha == 2.0:
        return K.MODE_2
    return K.MODE_GENERAL


def _strides(x: torch.Tensor):
    return tuple(x.stride())


class EntmaxAttentionFunction(torch.autograd.Function):
    """Triton forward / backward; ``alpha_bh`` is one float32 α per (batch, head), flattened (B·H,)."""

    @staticmethod
    def forward(ctx, q, k, v, alpha_bh, mode, mask, causal, scale, p_drop, seed):
        global launches
        B, H, Lq, D = q.shape
        Lk = k.shape[2]
        out = torch.empty_like(q)
        rows = torch.empty((3, B * H * Lq), device=q.device, dtype=torch.float32)   # m, t, F per query row
        block_n, block_d = _pow2(Lk), _pow2(D)
        block_m = _row_block(block_n)
        mask_arg, stride_mb = (mask, mask.stride(0)) if mask is not None else (q, 0)
        precision = "ieee" if q.dtype == torch.float32 else "tf32"
        grid = (triton_cdiv(Lq, block_m), B * H)
        K.entmax_attention_fwd[grid](
            q, k, v, alpha_bh, mask_arg, out, rows[0], rows[1], rows[2],
            *_strides(q), *_strides(k), *_strides(v), *_strides(out), stride_mb,
            H, Lq, Lk, D, scale, p_drop, seed,
            BLOCK_M=block_m, BLOCK_N=block_n, BLOCK_D=block_d, MODE=mode, HAS_MASK=mask is not None,
            CAUSAL=causal, DROPOUT=p_drop > 0, PRECISION=precision,
            K_BOUND=K.K_BOUND, K_NEWTON=K.K_NEWTON, K_EXACT=K.K_EXACT, num_warps=_warps(block_m, block_n))
        launches += 1
        ctx.save_for_backward(q, k, v, alpha_bh, rows, *(() if mask is None else (mask,)))
        ctx.cfg = (mode, mask is not None, causal, scale, p_drop, seed, precision)
        return out

    @staticmethod
    def backward(ctx, dout):
        global launches
        mode, has_mask, causal, scale, p_drop, seed, precision = ctx.cfg
        q, k, v, alpha_bh, rows, *rest = ctx.saved_tensors
        mask = rest[0] if has_mask else None
        B, H, Lq, D = q.shape
        Lk = k.shape[2]
        dout = dout.contiguous()
        need_alpha = ctx.needs_input_grad[3]
        dq, dk, dv = torch.empty_like(q), torch.empty_like(k), torch.empty_like(v)
        r = torch.empty((B * H * Lq,), device=q.device, dtype=torch.float32)
        da = torch.empty((B * H * Lq,), device=q.device, dtype=torch.float32) if need_alpha else r
        block_n, block_d = _pow2(Lk), _pow2(D)
        block_m = _row_block(block_n)
        mask_arg, stride_mb = (mask, mask.stride(0)) if mask is not None else (q, 0)
        common = dict(BLOCK_D=block_d, MODE=mode, HAS_MASK=has_mask, CAUSAL=causal, DROPOUT=p_drop > 0,
                      PRECISION=precision)
        K.entmax_attention_bwd_rows[(triton_cdiv(Lq, block_m), B * H)](
            q, k, v, alpha_bh, mask_arg, dout, rows[0], rows[1], rows[2], r, dq, da,
            *_strides(q), *_strides(k), *_strides(v), *_strides(dout), *_strides(dq), stride_mb,
            H, Lq, Lk, D, scale, p_drop, seed,
            BLOCK_M=block_m, BLOCK_N=block_n, NEED_DALPHA=need_alpha, num_warps=_warps(block_m, block_n), **common)
        kb_n, kb_m = min(block_n, 64), min(_pow2(Lq), 64)
        K.entmax_attention_bwd_keys[(triton_cdiv(Lk, kb_n), B * H)](
            q, k, v, alpha_bh, mask_arg, dout, rows[0], rows[1], rows[2], r, dk, dv,
            *_strides(q), *_strides(k), *_strides(v), *_strides(dout), *_strides(dk), *_strides(dv), stride_mb,
            H, Lq, Lk, D, scale, p_drop, seed,
            BLOCK_M=kb_m, BLOCK_N=kb_n, num_warps=_warps(kb_m, kb_n), **common)
        launches += 2
        dalpha = da.view(B * H, Lq).sum(1) if need_alpha else None
        return dq, dk, dv, dalpha, None, None, None, None, None, None


ALPHA_MIN_EPS = 0.01


def triton_cdiv(a: int, b: int) -> int:
    return -(-a // b)


def _alpha_per_head(alpha, B: int, H: int, device) -> tuple[torch.Tensor, int]:
    """(α as a float32 (B·H,) tensor, kernel mode). A float must lie in (1, 2]; a tensor (H,) or (B, H) is
    clamped to [1.01, 2] (a check would read it: a host sync), as ``Entmax``'s learned α is."""
    if isinstance(alpha, torch.Tensor):
        if alpha.shape not in ((H,), (B, H)):
            raise ValueError(f"alpha: expected a float or a tensor of shape ({H},) or ({B}, {H}), "
                             f"got {tuple(alpha.shape)}")
        # clamped into [1.01, 2] (as Entmax's learned α): a value past 2 or at 1 would leave the kernels' range;
        # clamp is elementwise on the device (no host read) and passes the gradient inside the range
        alpha = alpha.to(device=device, dtype=torch.float32).clamp(1.0 + ALPHA_MIN_EPS, 2.0)
        return alpha.expand(B, H).reshape(B * H), K.MODE_GENERAL
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)):
        raise ValueError(f"alpha: expected a float or a tensor, got {type(alpha).__name__}")
    alpha = float(alpha)
    if not 1.0 < alpha <= 2.0:
        raise ValueError(f"alpha: the fused kernel takes 1 < alpha <= 2, got {alpha}")
    return torch.full((B * H,), alpha, device=device, dtype=torch.float32), _mode(alpha)


def uses_short_rows(lk: int, h: int, h_kv: int, coff: int) -> bool:
    """Whether a call takes the short-row kernel (whole key row in registers) rather than the blocked one.

    The short-row kernel computes q kᵀ once per pass and finds the threshold in registers; the blocked kernel
    recomputes each score tile in every threshold sweep (1 + K_BOUND + K_NEWTON (+ K_EXACT) sweeps, minus the
    skipped blocks). Where a row fits (Lk <= SHORT_ROW_KEYS = 256) the short kernel does several times less
    matrix work, so it is kept there; it has no grouped-query heads and only top-left causal alignment, so those
    calls take the blocked kernel at any length (bottom-right = top-left when Lq = Lk)."""
    return lk <= SHORT_ROW_KEYS and h == h_kv and coff == 0


def _tile_for(d: int) -> tuple[int, int]:
    if BLOCKED_TILE is not None:
        return BLOCKED_TILE
    return (64, 64) if d <= 64 else (64, 32)


class BlockedEntmaxAttentionFunction(torch.autograd.Function):
    """The blocked kernels (``_entmax_blocked``): a threshold pass with a block mask, then forward / backward over
    the marked blocks. k, v may have H_kv | H heads (grouped-query attention)."""

    @staticmethod
    def forward(ctx, q, k, v, alpha_bh, mode, mask, causal, coff, scale, p_drop, seed):
        global launches, last_blocks
        B, H, Lq, D = q.shape
        Hkv, Lk = k.shape[1], k.shape[2]
        group = H // Hkv
        bm, bn = _tile_for(D)
        n_m, n_n = triton_cdiv(Lq, bm), triton_cdiv(Lk, bn)
        nb = max(2, 1 << (n_n - 1).bit_length())
        out = torch.empty_like(q)
        rows = torch.empty((3, B * H * Lq), device=q.device, dtype=torch.float32)   # m, t, F per query row
        bmask = torch.zeros((B * H, n_m, n_n), device=q.device, dtype=torch.int8)
        visits = torch.zeros((B * H, n_m), device=q.device, dtype=torch.int32) if RECORD else rows
        mask_arg, stride_mb = (mask, mask.stride(0)) if mask is not None else (q, 0)
        precision = "ieee" if q.dtype == torch.float32 else "tf32"
        block_d = _pow2(D)
        grid = (n_m, B * H)
        shared = dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_D=block_d, MODE=mode, HAS_MASK=mask is not None,
                      CAUSAL=causal, PRECISION=precision)
        KB.blocked_threshold[grid](
            q, k, alpha_bh, mask_arg, rows[0], rows[1], bmask,
            *_strides(q), *_strides(k), stride_mb,
            H, group, Lq, Lk, D, coff, scale, n_m, n_n,
            NB=nb, K_BOUND=KB.K_BOUND, K_NEWTON=KB.K_NEWTON, K_EXACT=KB.K_EXACT, **shared)
        KB.blocked_fwd[grid](
            q, k, v, alpha_bh, mask_arg, out, rows[0], rows[1], rows[2], bmask, visits,
            *_strides(q), *_strides(k), *_strides(v), *_strides(out), stride_mb,
            H, group, Lq, Lk, D, coff, scale, n_m, n_n, p_drop, seed,
            DROPOUT=p_drop > 0, RECORD=RECORD, **shared)
        launches += 2
        if RECORD:
            last_blocks = {"mask": bmask.bool(), "visits": visits, "tile": (bm, bn)}
        ctx.save_for_backward(q, k, v, alpha_bh, rows, bmask, *(() if mask is None else (mask,)))
        ctx.cfg = (mode, mask is not None, causal, coff, scale, p_drop, seed, precision, (bm, bn))
        return out

    @staticmethod
    def backward(ctx, dout):
        global launches
        mode, has_mask, causal, coff, scale, p_drop, seed, precision, (bm, bn) = ctx.cfg
        q, k, v, alpha_bh, rows, bmask, *rest = ctx.saved_tensors
        mask = rest[0] if has_mask else None
        B, H, Lq, D = q.shape
        Hkv, Lk = k.shape[1], k.shape[2]
        group = H // Hkv
        n_m, n_n = bmask.shape[1], bmask.shape[2]
        dout = dout.contiguous()
        need_alpha = ctx.needs_input_grad[3]
        dq, dk, dv = torch.empty_like(q), torch.empty_like(k), torch.empty_like(v)
        r = torch.empty((B * H * Lq,), device=q.device, dtype=torch.float32)
        da = torch.empty((B * H * Lq,), device=q.device, dtype=torch.float32) if need_alpha else r
        mask_arg, stride_mb = (mask, mask.stride(0)) if mask is not None else (q, 0)
        shared = dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_D=_pow2(D), MODE=mode, HAS_MASK=has_mask, CAUSAL=causal,
                      DROPOUT=p_drop > 0, PRECISION=precision)
        KB.blocked_bwd_rows[(n_m, B * H)](
            q, k, v, alpha_bh, mask_arg, dout, rows[0], rows[1], rows[2], r, dq, da, bmask,
            *_strides(q), *_strides(k), *_strides(v), *_strides(dout), *_strides(dq), stride_mb,
            H, group, Lq, Lk, D, coff, scale, n_m, n_n, p_drop, seed, NEED_DALPHA=need_alpha, **shared)
        KB.blocked_bwd_keys[(n_n, B * Hkv)](
            q, k, v, alpha_bh, mask_arg, dout, rows[0], rows[1], rows[2], r, dk, dv, bmask,
            *_strides(q), *_strides(k), *_strides(v), *_strides(dout), *_strides(dk), *_strides(dv), stride_mb,
            H, group, Lq, Lk, D, coff, scale, n_m, n_n, p_drop, seed, **shared)
        launches += 2
        dalpha = da.view(B * H, Lq).sum(1) if need_alpha else None
        return dq, dk, dv, dalpha, None, None, None, None, None, None, None


CAUSAL_ALIGNMENTS = ("top_left", "bottom_right")


def entmax_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, alpha, *,
                     key_padding_mask: torch.Tensor | None = None, causal: bool | str = False, scale=None,
                     dropout_p: float = 0.0, seed: int | None = None) -> torch.Tensor:
    """Fused α-entmax attention (Peters et al. 2019; learned α per head: Correia et al. 2019, Prop. 1):

        out[b, h] = entmax_α[b,h](q[b,h] k[b,h']ᵀ · scale, masked) @ v[b, h'],   h' = h // (H / H_kv),
        entmax_α(z) = [(α-1) z - τ]_+^{1/(α-1)},  τ such that each row sums to 1.

    q ``(B, H, Lq, D)``, k and v ``(B, H_kv, Lk, D)`` with H_kv dividing H (grouped-query attention, read in
    place; H_kv = H is ordinary multi-head attention), Lq ≠ Lk allowed, 1 <= Lk <= ``MAX_KEYS``, any strides.
    Rows of at most ``SHORT_ROW_KEYS`` keys (multi-head, top-left) take the short-row kernel, longer ones the
    blocked kernel that skips all-zero key blocks (:func:`uses_short_rows` says why).
    ``alpha``: a float in (1, 2] or a tensor ``(H,)`` / ``(B, H)`` (may require grad; clamped to [1.01, 2], as
    ``Entmax``'s learned α, without a host read); ``key_padding_mask``: bool ``(B, Lk)``, True where a key may be
    attended; ``causal``: False, True / ``"top_left"`` (query i attends keys j <= i, as
    ``scaled_dot_product_attention(is_causal=True)``) or ``"bottom_right"`` (j <= i + Lk - Lq: the last query sees
    every key, for decoding with a cache); ``scale``: default 1/sqrt(D). A fully masked row gives zeros (as
    ``sparselab.mappings``). ``dropout_p``: dropout on the probabilities (training), its keep mask drawn in-kernel
    from ``seed`` (a fresh one per call if None). Gradients reach q, k, v and a tensor α. float16 / bfloat16 run
    the dots in their dtype with float32 accumulation and a float32 threshold."""
    if q.ndim != 4 or k.ndim != 4 or v.ndim != 4:
        raise ValueError(f"q, k, v: expected (B, H, L, D) tensors, got {tuple(q.shape)}, {tuple(k.shape)}, "
                         f"{tuple(v.shape)}")
    B, H, Lq, D = q.shape
    Hkv = k.shape[1]
    if k.shape[0] != B or k.shape[3] != D or v.shape != k.shape or Hkv < 1 or H % Hkv:
        raise ValueError(f"k, v: expected ({B}, H_kv, Lk, {D}) with H_kv dividing {H}, got {tuple(k.shape)} and "
                         f"{tuple(v.shape)}")
    Lk = k.shape[2]
    if not supports(Lk, D):
        raise ValueError(f"k: the fused kernel takes rows of at most {MAX_KEYS} keys and heads of at most "
                         f"{MAX_HEAD_DIM} dims, got Lk={Lk}, D={D}")
    if not (q.dtype == k.dtype == v.dtype) or q.dtype not in (torch.float32, torch.float16, torch.bfloat16):
        raise ValueError(f"q, k, v: expected one dtype of float32/float16/bfloat16, got {q.dtype}, {k.dtype}, "
                         f"{v.dtype}")
    if causal is True or causal == "top_left":
        causal, coff = True, 0
    elif causal == "bottom_right":
        causal, coff = True, Lk - Lq
    elif causal is False or causal is None:
        causal, coff = False, 0
    else:
        raise ValueError(f"causal: expected a bool or one of {CAUSAL_ALIGNMENTS}, got {causal!r}")
    mask = None
    if key_padding_mask is not None:
        if key_padding_mask.shape != (B, Lk) or key_padding_mask.dtype != torch.bool:
            raise ValueError(f"key_padding_mask: expected a bool ({B}, {Lk}) tensor, got "
                             f"{key_padding_mask.dtype} {tuple(key_padding_mask.shape)}")
        mask = key_padding_mask.to(q.device).contiguous().view(torch.uint8)
    if not 0.0 <= dropout_p < 1.0:
        raise ValueError(f"dropout_p: expected 0 <= p < 1, got {dropout_p}")
    if dropout_p > 0 and seed is None:
        seed = int(torch.randint(0, 2**31 - 1, (1,)).item())   # a CPU generator: no device read
    alpha_bh, mode = _alpha_per_head(alpha, B, H, q.device)
    scale = 1.0 / math.sqrt(D) if scale is None else float(scale)
    short = uses_short_rows(Lk, H, Hkv, coff) if PATH == "auto" else PATH == "short"
    if short:
        if Hkv != H or coff != 0 or Lk > SHORT_ROW_KEYS:
            raise ValueError("the short-row kernel takes H_kv = H, top-left causal and Lk <= "
                             f"{SHORT_ROW_KEYS}")
        return EntmaxAttentionFunction.apply(q, k, v, alpha_bh, mode, mask, causal, scale,
                                             float(dropout_p), int(seed or 0))
    return BlockedEntmaxAttentionFunction.apply(q, k, v, alpha_bh, mode, mask, causal, coff, scale,
                                                float(dropout_p), int(seed or 0))
