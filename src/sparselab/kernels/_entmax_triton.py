"""Triton kernels of fused α-entmax attention: one forward, two backward passes.

Notation (as ``sparselab.mappings.bisect``): for a query row with scores z (masked keys excluded),
eps = α - 1 in (0, 1], w = z - max(z) and

    p_j = (1 + eps (w_j - t))_+^{1/eps} / F,    F = sum_j (1 + eps (w_j - t))_+^{1/eps}  (= 1 at the root t*),

i.e. α-entmax p = [(α-1) z - τ]_+^{1/(α-1)} with τ = eps (t + max z) - 1 (Peters et al. 2019).

Forward, per program = (batch·head, block of BLOCK_M queries), the whole key row (BLOCK_N ≥ Lk) in registers:
  1. scores S = q kᵀ · scale, masked (key padding, causal, the padded tail BLOCK_N > Lk) — never stored;
  2. threshold t: K_BOUND transcendental-free lower bounds (power-mean inequality; Michelot's step at
     α = 2), then K_NEWTON Newton steps on ||u||_{1/eps} - 1 (convex and decreasing for α ≤ 2, so they
     climb monotonically from below: no bracketing, no sort, no host sync);
  3. α = 1.5 and α = 2 (a float α, constexpr EXACT): two exact steps on the detected support (the
     quadratic of Peters et al. 2019 Alg. 2 / Michelot's sparsemax threshold), as exact as the exact maps;
  4. out = p @ v; per row m = max z, t and F are stored (the backward recomputes p from them, as flash
     attention recomputes softmax from its logsumexp).
Backward (Peters et al. 2019 Prop. 1; Correia et al. 2019 Prop. 1 for α), dp = dout vᵀ, s ∝ p^{2-α} = p/u:
  dz = s (dp - r),  r = sum(s dp) / sum(s);
  dα (per row) = -sum_j dp_j T_j + r sum_j T_j,  T_j = p_j (log p_j)^2 Φ(-eps log p_j),  Φ(x) = (e^x-1-x)/x²,
  the cancellation-free form ``sparselab.mappings.bisect.alpha_grad`` uses.
  Pass A (per query block, whole row): r, dq = scale dz k, dα per row.  Pass B (per key block, looping over
  the query blocks): dv = pᵀ dout, dk = scale dzᵀ q — no atomics.
Dropout on p (training): a keep mask from tl.rand(seed, (bh·Lq + i)·Lk + j), regenerated in the backward.
"""
from __future__ import annotations

import triton
import triton.language as tl

# Iteration counts (fixed: no data-dependent exit, so no host sync). 3 bounds + 6 Newton steps leave the
# residual |sum p - 1| at the float32 rounding floor on attention rows (tests/kernels/test_kernels_entmax_attention.py).
K_BOUND = 3
K_NEWTON = 6
# α = 1.5 / α = 2 (float α): exact steps on the support after Newton.
K_EXACT = 2
MODE_GENERAL, MODE_15, MODE_2 = 0, 1, 2
# Integer arguments that change from batch to batch (sequence lengths, the mask's row stride, the dropout seed)
# are not specialised on (Triton would compile a variant per divisibility-by-16 and == 1 case of each): on a GPU
# the first MT steps spent minutes compiling (reports/gpu_check/2026-11-27_h100).
_PER_BATCH = ["stride_mb", "Lq", "Lk", "seed"]


@triton.jit
def _expm1(y):
    """expm1 (no libdevice in the interpreter): a short series for |y| < 0.1, where exp(y) - 1 cancels."""
    ys = tl.where(tl.abs(y) < 0.1, y, 0.0)
    series = ys * (1.0 + ys * (0.5 + ys * (1.0 / 6.0 + ys * (1.0 / 24.0))))
    return tl.where(tl.abs(y) < 0.1, series, tl.exp(y) - 1.0)


@triton.jit
def _log1p_of(u, v):
    """log(u) for u = 1 + v, accurate for small v (Goldberg's trick: log(u) v / (u - 1))."""
    d = u - 1.0
    return tl.where(d == 0.0, v, tl.log(tl.where(u > 0.0, u, 1.0)) * (v / tl.where(d == 0.0, 1.0, d)))


@triton.jit
def _valid_keys(Mask, b, stride_mb, offs_m, offs_n, Lq, Lk, HAS_MASK: tl.constexpr, CAUSAL: tl.constexpr):
    """(BLOCK_M, BLOCK_N) bool: key j exists, is not padding, and (causal) j <= i (top-left aligned)."""
    valid = (offs_n[None, :] < Lk) & (offs_m[:, None] < Lq)
    if HAS_MASK:
        km = tl.load(Mask + b * stride_mb + offs_n, mask=offs_n < Lk, other=0)
        valid = valid & (km[None, :] != 0)
    if CAUSAL:
        valid = valid & (offs_n[None, :] <= offs_m[:, None])
    return valid


@triton.jit
def _power(u, eps, MODE: tl.constexpr):
    """(u^{1/eps}, u^{1/eps - 1}) for u >= 0 (0 where u = 0); by multiplication at α = 1.5 and 2."""
    pos = u > 0.0
    if MODE == 1:
        return u * u, u
    elif MODE == 2:
        return u, tl.where(pos, 1.0, 0.0)
    else:
        p = tl.where(pos, tl.exp(tl.log(tl.where(pos, u, 1.0)) / eps), 0.0)
        return p, tl.where(pos, p / tl.where(pos, u, 1.0), 0.0)


@triton.jit
def _solve_threshold(w, valid, eps, MODE: tl.constexpr, K_BOUND: tl.constexpr, K_NEWTON: tl.constexpr,
                     K_EXACT: tl.constexpr):
    """t per row (see the module docstring); w = z - max z on valid entries."""
    inv_eps = 1.0 / eps
    t = tl.sum(tl.where(valid, 0.0, 0.0), 1)
    for _ in tl.static_range(K_BOUND):
        on = valid & (w > t[:, None] - inv_eps)
        cnt = tl.sum(on.to(tl.float32), 1)
        cnt_safe = tl.where(cnt > 0, cnt, 1.0)
        mean = tl.sum(tl.where(on, w, 0.0), 1) / cnt_safe
        bound = mean - _expm1(-eps * tl.log(cnt_safe)) * inv_eps
        t = tl.where(cnt > 0, tl.maximum(t, bound), t)
    for _ in tl.static_range(K_NEWTON):
        u = tl.where(valid, tl.maximum(1.0 + eps * (w - t[:, None]), 0.0), 0.0)
        p, s = _power(u, eps, MODE)
        F = tl.sum(p, 1)
        S = tl.sum(s, 1)
        ok = (F > 0) & (S > 0)
        Fs = tl.where(ok, F, 1.0)
        step = -Fs * _expm1(-eps * tl.log(Fs)) / (eps * tl.where(ok, S, 1.0))
        t = tl.where(ok, t + step, t)
    if MODE == 2:
        # sparsemax: t = (sum_S (1 + w) - 1) / |S| on the support S = {1 + w - t > 0} (Michelot)
        for _ in tl.static_range(K_EXACT):
            on = valid & (1.0 + w - t[:, None] > 0.0)
            cnt = tl.sum(on.to(tl.float32), 1)
            tn = (tl.sum(tl.where(on, 1.0 + w, 0.0), 1) - 1.0) / tl.where(cnt > 0, cnt, 1.0)
            t = tl.where(cnt > 0, tn, t)
    if MODE == 1:
        # 1.5-entmax: v = 1 + (w - t)/2 on S; sum_S (v - c)^2 = 1 gives c = mean - sqrt((1 - ss)/|S|)
        # (Peters et al. 2019 Alg. 2, centred at the current threshold); t moves by 2c
        for _ in tl.static_range(K_EXACT):
            v = tl.where(valid, 1.0 + 0.5 * (w - t[:, None]), 0.0)
            on = v > 0.0
            v = tl.where(on, v, 0.0)
            A = tl.sum(on.to(tl.float32), 1)
            A_safe = tl.where(A > 0, A, 1.0)
            B = tl.sum(v, 1)
            C = tl.sum(v * v, 1)
            mean = B / A_safe
            ss = C - B * mean
            c = mean - tl.sqrt(tl.maximum((1.0 - ss) / A_safe, 0.0))
            t = tl.where(A > 0, t + 2.0 * c, t)
    return t


@triton.jit
def _probs(w, valid, t, F, eps, MODE: tl.constexpr):
    """(p normalised by F, u = 1 + eps (w - t) clamped at 0), accurately (log1p) off α = 1.5 / 2."""
    v = eps * (w - t[:, None])
    u = tl.where(valid, tl.maximum(1.0 + v, 0.0), 0.0)
    if MODE == 0:
        pos = u > 0.0
        p = tl.where(pos, tl.exp(_log1p_of(u, v) / eps), 0.0)
    else:
        p, _s = _power(u, eps, MODE)
    return p / F[:, None], u


@triton.jit
def _dropout_keep(seed, bh, offs_m, offs_n, Lq, Lk, p_drop):
    """The keep mask of attention dropout: the same bits in the forward and both backward passes."""
    offs = (bh * Lq + offs_m[:, None]) * Lk + offs_n[None, :]
    return tl.rand(seed, offs) >= p_drop


@triton.jit(do_not_specialize=_PER_BATCH)
def entmax_attention_fwd(
    Q, K, V, Alpha, Mask, Out, Mrow, Trow, Frow,
    stride_qb, stride_qh, stride_qm, stride_qd,
    stride_kb, stride_kh, stride_kn, stride_kd,
    stride_vb, stride_vh, stride_vn, stride_vd,
    stride_ob, stride_oh, stride_om, stride_od,
    stride_mb,
    H, Lq, Lk, D, scale, p_drop, seed,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr,
    MODE: tl.constexpr, HAS_MASK: tl.constexpr, CAUSAL: tl.constexpr, DROPOUT: tl.constexpr,
    PRECISION: tl.constexpr, K_BOUND: tl.constexpr, K_NEWTON: tl.constexpr, K_EXACT: tl.constexpr,
):
    pid_m = tl.program_id(0)
    bh = tl.program_id(1)
    b = bh // H
    h = bh % H
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, BLOCK_D)
    dmask = offs_d[None, :] < D
    q = tl.load(Q + b * stride_qb + h * stride_qh + offs_m[:, None] * stride_qm + offs_d[None, :] * stride_qd,
                mask=(offs_m[:, None] < Lq) & dmask, other=0.0)
    kv_rows = (offs_n[:, None] < Lk) & dmask
    k = tl.load(K + b * stride_kb + h * stride_kh + offs_n[:, None] * stride_kn + offs_d[None, :] * stride_kd,
                mask=kv_rows, other=0.0)
    v = tl.load(V + b * stride_vb + h * stride_vh + offs_n[:, None] * stride_vn + offs_d[None, :] * stride_vd,
                mask=kv_rows, other=0.0)
    eps = tl.load(Alpha + bh).to(tl.float32) - 1.0

    z = tl.dot(q, tl.trans(k), input_precision=PRECISION) * scale
    valid = _valid_keys(Mask, b, stride_mb, offs_m, offs_n, Lq, Lk, HAS_MASK, CAUSAL)
    m = tl.max(tl.where(valid, z, float("-inf")), 1)
    live = m > float("-inf")            # a fully masked row gives zeros (as sparselab.mappings)
    m = tl.where(live, m, 0.0)
    w = tl.where(valid, z - m[:, None], 0.0)

    t = _solve_threshold(w, valid, eps, MODE, K_BOUND, K_NEWTON, K_EXACT)
    p, _u = _probs(w, valid, t, tl.full([BLOCK_M], 1.0, tl.float32), eps, MODE)
    F = tl.sum(p, 1)
    F = tl.where(live & (F > 0), F, 1.0)
    p = p / F[:, None]
    if DROPOUT:
        keep = _dropout_keep(seed, bh, offs_m, offs_n, Lq, Lk, p_drop)
        p = tl.where(keep, p / (1.0 - p_drop), 0.0)
    out = tl.dot(p.to(v.dtype), v, input_precision=PRECISION)

    tl.store(Out + b * stride_ob + h * stride_oh + offs_m[:, None] * stride_om + offs_d[None, :] * stride_od,
             out.to(Out.dtype.element_ty), mask=(offs_m[:, None] < Lq) & dmask)
    row = bh * Lq + offs_m
    rmask = offs_m < Lq
    tl.store(Mrow + row, m, mask=rmask)
    tl.store(Trow + row, t, mask=rmask)
    tl.store(Frow + row, F, mask=rmask)


@triton.jit(do_not_specialize=_PER_BATCH)
def entmax_attention_bwd_rows(
    Q, K, V, Alpha, Mask, dOut, Mrow, Trow, Frow, Rrow, dQ, dArow,
    stride_qb, stride_qh, stride_qm, stride_qd,
    stride_kb, stride_kh, stride_kn, stride_kd,
    stride_vb, stride_vh, stride_vn, stride_vd,
    stride_ob, stride_oh, stride_om, stride_od,
    stride_dqb, stride_dqh, stride_dqm, stride_dqd,
    stride_mb,
    H, Lq, Lk, D, scale, p_drop, seed,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr,
    MODE: tl.constexpr, HAS_MASK: tl.constexpr, CAUSAL: tl.constexpr, DROPOUT: tl.constexpr,
    PRECISION: tl.constexpr, NEED_DALPHA: tl.constexpr,
):
    """Pass A: per query block with the whole key row: r = sum(s dp)/sum(s), dq, and dα per row."""
    pid_m = tl.program_id(0)
    bh = tl.program_id(1)
    b = bh // H
    h = bh % H
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, BLOCK_D)
    dmask = offs_d[None, :] < D
    qrows = (offs_m[:, None] < Lq) & dmask
    q = tl.load(Q + b * stride_qb + h * stride_qh + offs_m[:, None] * stride_qm + offs_d[None, :] * stride_qd,
                mask=qrows, other=0.0)
    do = tl.load(dOut + b * stride_ob + h * stride_oh + offs_m[:, None] * stride_om + offs_d[None, :] * stride_od,
                 mask=qrows, other=0.0)
    kv_rows = (offs_n[:, None] < Lk) & dmask
    k = tl.load(K + b * stride_kb + h * stride_kh + offs_n[:, None] * stride_kn + offs_d[None, :] * stride_kd,
                mask=kv_rows, other=0.0)
    v = tl.load(V + b * stride_vb + h * stride_vh + offs_n[:, None] * stride_vn + offs_d[None, :] * stride_vd,
                mask=kv_rows, other=0.0)
    eps = tl.load(Alpha + bh).to(tl.float32) - 1.0
    row = bh * Lq + offs_m
    rmask = offs_m < Lq
    m = tl.load(Mrow + row, mask=rmask, other=0.0)
    t = tl.load(Trow + row, mask=rmask, other=0.0)
    F = tl.load(Frow + row, mask=rmask, other=1.0)

    z = tl.dot(q, tl.trans(k), input_precision=PRECISION) * scale
    valid = _valid_keys(Mask, b, stride_mb, offs_m, offs_n, Lq, Lk, HAS_MASK, CAUSAL)
    w = tl.where(valid, z - m[:, None], 0.0)
    p, u = _probs(w, valid, t, F, eps, MODE)
    s = tl.where(u > 0.0, p / tl.where(u > 0.0, u, 1.0), 0.0)   # ∝ p^{2-α}; the Jacobian ignores the scale
    dp = tl.dot(do, tl.trans(v), input_precision=PRECISION)
    if DROPOUT:
        keep = _dropout_keep(seed, bh, offs_m, offs_n, Lq, Lk, p_drop)
        dp = tl.where(keep, dp / (1.0 - p_drop), 0.0)
    ssum = tl.sum(s, 1)
    r = tl.sum(s * dp, 1) / tl.where(ssum > 0, ssum, 1.0)
    dz = s * (dp - r[:, None])
    dq = tl.dot(dz.to(k.dtype), k, input_precision=PRECISION) * scale
    tl.store(dQ + b * stride_dqb + h * stride_dqh + offs_m[:, None] * stride_dqm + offs_d[None, :] * stride_dqd,
             dq.to(dQ.dtype.element_ty), mask=qrows)
    tl.store(Rrow + row, r, mask=rmask)
    if NEED_DALPHA:
        # T_j = p (log p)^2 Φ(x), x = -eps log p; series of Φ for |x| < 1/2, else (p^{1-eps} - p (1 + x))/eps²
        pos = p > 0.0
        logp = tl.where(pos, _log1p_of(u, eps * (w - t[:, None])) / eps - tl.log(F)[:, None], 0.0)
        x = -eps * logp
        small = tl.abs(x) < 0.5
        xs = tl.where(small, x, 0.0)
        # Φ(x) = sum_k x^k / (k+2)!, 10 terms (< 1e-11 on |x| < 1/2)
        phi = 1.0 / 39916800.0
        phi = phi * xs + 1.0 / 3628800.0
        phi = phi * xs + 1.0 / 362880.0
        phi = phi * xs + 1.0 / 40320.0
        phi = phi * xs + 1.0 / 5040.0
        phi = phi * xs + 1.0 / 720.0
        phi = phi * xs + 1.0 / 120.0
        phi = phi * xs + 1.0 / 24.0
        phi = phi * xs + 1.0 / 6.0
        phi = phi * xs + 0.5
        s_true = s * tl.exp(eps * tl.log(F))[:, None]        # p^{1-eps} = (p/u) F^eps exactly
        T = tl.where(pos, tl.where(small, p * logp * logp * phi, (s_true - p * (1.0 + x)) / (eps * eps)), 0.0)
        da = -tl.sum(dp * T, 1) + r * tl.sum(T, 1)
        tl.store(dArow + row, da, mask=rmask)


@triton.jit(do_not_specialize=_PER_BATCH)
def entmax_attention_bwd_keys(
    Q, K, V, Alpha, Mask, dOut, Mrow, Trow, Frow, Rrow, dK, dV,
    stride_qb, stride_qh, stride_qm, stride_qd,
    stride_kb, stride_kh, stride_kn, stride_kd,
    stride_vb, stride_vh, stride_vn, stride_vd,
    stride_ob, stride_oh, stride_om, stride_od,
    stride_dkb, stride_dkh, stride_dkn, stride_dkd,
    stride_dvb, stride_dvh, stride_dvn, stride_dvd,
    stride_mb,
    H, Lq, Lk, D, scale, p_drop, seed,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr,
    MODE: tl.constexpr, HAS_MASK: tl.constexpr, CAUSAL: tl.constexpr, DROPOUT: tl.constexpr,
    PRECISION: tl.constexpr,
):
    """Pass B: per key block, over every query block: dv = pᵀ dout, dk = scale dzᵀ q (fp32 accumulators)."""
    pid_n = tl.program_id(0)
    bh = tl.program_id(1)
    b = bh // H
    h = bh % H
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, BLOCK_D)
    dmask = offs_d[None, :] < D
    kv_rows = (offs_n[:, None] < Lk) & dmask
    k = tl.load(K + b * stride_kb + h * stride_kh + offs_n[:, None] * stride_kn + offs_d[None, :] * stride_kd,
                mask=kv_rows, other=0.0)
    v = tl.load(V + b * stride_vb + h * stride_vh + offs_n[:, None] * stride_vn + offs_d[None, :] * stride_vd,
                mask=kv_rows, other=0.0)
    eps = tl.load(Alpha + bh).to(tl.float32) - 1.0
    dk = tl.zeros([BLOCK_N, BLOCK_D], dtype=tl.float32)
    dv = tl.zeros([BLOCK_N, BLOCK_D], dtype=tl.float32)
    # causal: query blocks that end before this key block sees nothing of it
    start = (pid_n * BLOCK_N // BLOCK_M) * BLOCK_M if CAUSAL else 0
    for start_m in range(start, Lq, BLOCK_M):
        offs_m = start_m + tl.arange(0, BLOCK_M)
        qrows = (offs_m[:, None] < Lq) & dmask
        q = tl.load(Q + b * stride_qb + h * stride_qh + offs_m[:, None] * stride_qm + offs_d[None, :] * stride_qd,
                    mask=qrows, other=0.0)
        do = tl.load(dOut + b * stride_ob + h * stride_oh + offs_m[:, None] * stride_om
                     + offs_d[None, :] * stride_od, mask=qrows, other=0.0)
        row = bh * Lq + offs_m
        rmask = offs_m < Lq
        m = tl.load(Mrow + row, mask=rmask, other=0.0)
        t = tl.load(Trow + row, mask=rmask, other=0.0)
        F = tl.load(Frow + row, mask=rmask, other=1.0)
        r = tl.load(Rrow + row, mask=rmask, other=0.0)
        z = tl.dot(q, tl.trans(k), input_precision=PRECISION) * scale
        valid = _valid_keys(Mask, b, stride_mb, offs_m, offs_n, Lq, Lk, HAS_MASK, CAUSAL)
        w = tl.where(valid, z - m[:, None], 0.0)
        p, u = _probs(w, valid, t, F, eps, MODE)
        s = tl.where(u > 0.0, p / tl.where(u > 0.0, u, 1.0), 0.0)
        dp = tl.dot(do, tl.trans(v), input_precision=PRECISION)
        if DROPOUT:
            keep = _dropout_keep(seed, bh, offs_m, offs_n, Lq, Lk, p_drop)
            pd = tl.where(keep, p / (1.0 - p_drop), 0.0)
            dp = tl.where(keep, dp / (1.0 - p_drop), 0.0)
        else:
            pd = p
        dv += tl.dot(tl.trans(pd.to(do.dtype)), do, input_precision=PRECISION)
        dz = s * (dp - r[:, None])
        dk += tl.dot(tl.trans(dz.to(q.dtype)), q, input_precision=PRECISION)
    dk = dk * scale
    tl.store(dK + b * stride_dkb + h * stride_dkh + offs_n[:, None] * stride_dkn + offs_d[None, :] * stride_dkd,
             dk.to(dK.dtype.element_ty), mask=kv_rows)
    tl.store(dV + b * stride_dvb + h * stride_dvh + offs_n[:, None] * stride_dvn + offs_d[None, :] * stride_dvd,
             dv.to(dV.dtype.element_ty), mask=kv_rows)
