"""``entmax_attention``: fused α-entmax attention (Triton), forward and backward, α learned per head.

    out = entmax_α(q kᵀ · scale, masked) @ v            (Peters et al. 2019; Correia et al. 2019)

with exactly the numbers of the materialised path ``sparselab.mappings.Entmax`` (α = 1.5 and 2 as exact as
``entmax15`` / ``sparsemax``), and gradients for q, k, v and a tensor α (Correia et al. 2019, Prop. 1).
See ``_entmax_triton`` for the algorithm. Nothing here reads a device value: no host sync per call.
"""
from __future__ import annotations

import math

import torch

from . import _entmax_triton as K
from ._limits import MAX_HEAD_DIM, MAX_KEYS, supports

MIN_BLOCK = 16      # tl.dot needs every dimension >= 16

# Triton kernel launches since import (tests check that the kernel, not a torch fallback, ran).
launches = 0


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


def triton_cdiv(a: int, b: int) -> int:
    return -(-a // b)


def _alpha_per_head(alpha, B: int, H: int, device) -> tuple[torch.Tensor, int]:
    """(α as a float32 (B·H,) tensor, kernel mode). A float must lie in (1, 2]; a tensor (H,) or (B, H) is
    trusted to (a check would read it: a host sync), as ``Entmax``'s learned α clamped to [1.01, 2] is."""
    if isinstance(alpha, torch.Tensor):
        if alpha.shape not in ((H,), (B, H)):
            raise ValueError(f"alpha: expected a float or a tensor of shape ({H},) or ({B}, {H}), "
                             f"got {tuple(alpha.shape)}")
        return alpha.to(device=device, dtype=torch.float32).expand(B, H).reshape(B * H), K.MODE_GENERAL
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)):
        raise ValueError(f"alpha: expected a float or a tensor, got {type(alpha).__name__}")
    alpha = float(alpha)
    if not 1.0 < alpha <= 2.0:
        raise ValueError(f"alpha: the fused kernel takes 1 < alpha <= 2, got {alpha}")
    return torch.full((B * H,), alpha, device=device, dtype=torch.float32), _mode(alpha)


def entmax_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, alpha, *,
                     key_padding_mask: torch.Tensor | None = None, causal: bool = False, scale=None,
                     dropout_p: float = 0.0, seed: int | None = None) -> torch.Tensor:
    """Fused α-entmax attention (Peters et al. 2019; learned α per head: Correia et al. 2019, Prop. 1):

        out[b, h] = entmax_α[b,h](q[b,h] k[b,h]ᵀ · scale, masked) @ v[b, h],
        entmax_α(z) = [(α-1) z - τ]_+^{1/(α-1)},  τ such that each row sums to 1.

    q ``(B, H, Lq, D)``, k and v ``(B, H, Lk, D)`` (Lq ≠ Lk allowed, 1 <= Lk <= ``MAX_KEYS``, any strides);
    ``alpha``: a float in (1, 2] or a tensor ``(H,)`` / ``(B, H)`` (may require grad; values trusted to lie in
    (1, 2]); ``key_padding_mask``: bool ``(B, Lk)``, True where a key may be attended; ``causal``: query i
    attends keys j <= i (top-left aligned, as ``scaled_dot_product_attention(is_causal=True)``); ``scale``:
    default 1/sqrt(D). A fully masked row gives zeros (as ``sparselab.mappings``). ``dropout_p``: dropout on
    the probabilities (training), its keep mask drawn in-kernel from ``seed`` (a fresh one per call if None).
    Gradients reach q, k, v and a tensor α. float16 / bfloat16 run the dots in their dtype with float32
    accumulation and a float32 threshold."""
    if q.ndim != 4 or k.ndim != 4 or v.ndim != 4:
        raise ValueError(f"q, k, v: expected (B, H, L, D) tensors, got {tuple(q.shape)}, {tuple(k.shape)}, "
                         f"{tuple(v.shape)}")
    B, H, Lq, D = q.shape
    if k.shape[:2] != (B, H) or k.shape[3] != D or v.shape != k.shape:
        raise ValueError(f"k, v: expected ({B}, {H}, Lk, {D}), got {tuple(k.shape)} and {tuple(v.shape)}")
    Lk = k.shape[2]
    if not supports(Lk, D):
        raise ValueError(f"k: the fused kernel holds rows of at most {MAX_KEYS} keys and heads of at most "
                         f"{MAX_HEAD_DIM} dims, got Lk={Lk}, D={D}")
    if not (q.dtype == k.dtype == v.dtype) or q.dtype not in (torch.float32, torch.float16, torch.bfloat16):
        raise ValueError(f"q, k, v: expected one dtype of float32/float16/bfloat16, got {q.dtype}, {k.dtype}, "
                         f"{v.dtype}")
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
    return EntmaxAttentionFunction.apply(q, k, v, alpha_bh, mode, mask, bool(causal), scale,
                                         float(dropout_p), int(seed or 0))
