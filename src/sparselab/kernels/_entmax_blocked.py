"""Triton kernels of blocked α-entmax attention for long key rows (any Lk): a threshold pass, a forward and two
backward passes, each looping over key blocks, so that no program holds more than one (BLOCK_M, BLOCK_N) score
tile. Notation as ``_entmax_triton`` (eps = α - 1, w = z - max z, p = (1 + eps (w - t))_+^{1/eps} / F).

1. ``blocked_threshold`` (per query block): the row max (one sweep over the key blocks), then the threshold t
   by the same fixed-count iteration as the short-row kernel, each step one sweep over the key blocks: K_BOUND
   transcendental-free lower bounds, K_NEWTON Newton steps on ||u||_{1/eps} - 1 (climbing monotonically from
   below), and at a float α = 1.5 / 2 K_EXACT exact steps on the detected support. Because t only climbs, a key
   block with no positive entry for any row of the query block at one step has none at every later step: the
   sweeps skip it from then on (a liveness bit per key block, held in registers). The bits after the last sweep
   are stored as the block mask (B·H, query blocks, key blocks); they are a superset of the blocks that are
   non-zero at the final t (they were taken at the step before it), so skipping them drops nothing.
2. ``blocked_fwd`` (per query block): out = sum_j p_j v_j / F over the marked key blocks only, F = sum_j p_j.
3. ``blocked_bwd_rows`` (per query block): sweep 1 gives r = sum(s dp) / sum(s) (s = p / u ∝ p^{2-α}) and dα per
   row (-sum dp T + r sum T, the cancellation-free T of ``_entmax_triton``); sweep 2 gives dq = scale dz k with
   dz = s (dp - r) — two sweeps rather than one accumulating sum(s dp k) - r sum(s k), whose cancellation would
   cost accuracy in bf16.
4. ``blocked_bwd_keys`` (per key block and key/value head): dv = sum pᵀ dout, dk = scale sum dzᵀ q over the query
   blocks of every query head of the group (grouped-query attention: k, v have H_kv heads, H_kv | H, read in
   place) whose mask marks this key block: no atomics.
Causal masks are ``j <= i + coff`` (coff = 0: top-left aligned; coff = Lk - Lq: bottom-right), and the loops
stop at the diagonal. Nothing reads a device value on the host: fixed iteration counts, no host sync.
"""
from __future__ import annotations

import triton
import triton.language as tl

from ._entmax_triton import _dropout_keep, _expm1, _log1p_of, _power, _probs

K_BOUND = 3
K_NEWTON = 6
K_EXACT = 2
# sweep kinds of the threshold pass
_MAX, _BOUND, _NEWTON, _EXACT2, _EXACT15 = 0, 1, 2, 3, 4
_PER_BATCH = ["stride_mb", "Lq", "Lk", "coff", "n_mblocks", "n_nblocks", "seed"]


@triton.jit
def _tile(q, K, kbase, stride_kn, stride_kd, Mask, mbase, offs_m, start_n, offs_d, dmask, Lq, Lk, coff, scale,
          BLOCK_N: tl.constexpr, HAS_MASK: tl.constexpr, CAUSAL: tl.constexpr, PRECISION: tl.constexpr):
    """(scores, valid, offs_n, k) of key block ``start_n`` for the query block ``offs_m``."""
    offs_n = start_n + tl.arange(0, BLOCK_N)
    k = tl.load(K + kbase + offs_n[:, None] * stride_kn + offs_d[None, :] * stride_kd,
                mask=(offs_n[:, None] < Lk) & dmask, other=0.0)
    z = tl.dot(q, tl.trans(k), input_precision=PRECISION) * scale
    valid = (offs_n[None, :] < Lk) & (offs_m[:, None] < Lq)
    if HAS_MASK:
        km = tl.load(Mask + mbase + offs_n, mask=offs_n < Lk, other=0)
        valid = valid & (km[None, :] != 0)
    if CAUSAL:
        valid = valid & (offs_n[None, :] <= offs_m[:, None] + coff)
    return z, valid, offs_n, k


@triton.jit
def _key_end(pid_m, Lq, Lk, coff, BLOCK_M: tl.constexpr, CAUSAL: tl.constexpr):
    """One past the last key a query block can see."""
    if CAUSAL:
        hi = tl.minimum(Lk, pid_m * BLOCK_M + BLOCK_M + coff)
        hi = tl.maximum(hi, 0)
    else:
        hi = Lk
    return hi


@triton.jit
def _sweep(q, m, t, live, eps, K, kbase, stride_kn, stride_kd, Mask, mbase, offs_m, offs_d, dmask, Lq, Lk, coff,
           scale, hi, BLOCK_N: tl.constexpr, NB: tl.constexpr, KIND: tl.constexpr, MODE: tl.constexpr,
           HAS_MASK: tl.constexpr, CAUSAL: tl.constexpr, PRECISION: tl.constexpr):
    """One sweep over the live key blocks at threshold t: three row sums (see the kinds) and the new liveness."""
    a = tl.zeros_like(t)
    b = tl.zeros_like(t)
    c = tl.zeros_like(t)
    nb = tl.arange(0, NB)
    inv_eps = 1.0 / eps
    for start_n in range(0, hi, BLOCK_N):
        jb = start_n // BLOCK_N
        alive = tl.sum(tl.where(nb == jb, live, 0), 0)
        if alive > 0:
            z, valid, offs_n, _k = _tile(q, K, kbase, stride_kn, stride_kd, Mask, mbase, offs_m, start_n, offs_d,
                                         dmask, Lq, Lk, coff, scale, BLOCK_N, HAS_MASK, CAUSAL, PRECISION)
            w = tl.where(valid, z - m[:, None], 0.0)
            if KIND == 1:
                on = valid & (w > t[:, None] - inv_eps)
                a += tl.sum(on.to(tl.float32), 1)
                b += tl.sum(tl.where(on, w, 0.0), 1)
            elif KIND == 2:
                u = tl.where(valid, tl.maximum(1.0 + eps * (w - t[:, None]), 0.0), 0.0)
                p, s = _power(u, eps, MODE)
                on = u > 0.0
                a += tl.sum(p, 1)
                b += tl.sum(s, 1)
            elif KIND == 3:
                on = valid & (1.0 + w - t[:, None] > 0.0)
                a += tl.sum(on.to(tl.float32), 1)
                b += tl.sum(tl.where(on, 1.0 + w, 0.0), 1)
            else:
                v = tl.where(valid, 1.0 + 0.5 * (w - t[:, None]), 0.0)
                on = v > 0.0
                v = tl.where(on, v, 0.0)
                a += tl.sum(on.to(tl.float32), 1)
                b += tl.sum(v, 1)
                c += tl.sum(v * v, 1)
            now = tl.max(tl.max(on.to(tl.int32), 1), 0)
            live = tl.where(nb == jb, now, live)
    return a, b, c, live


@triton.jit(do_not_specialize=_PER_BATCH)
def blocked_threshold(
    Q, K, Alpha, Mask, Mrow, Trow, BMask,
    stride_qb, stride_qh, stride_qm, stride_qd,
    stride_kb, stride_kh, stride_kn, stride_kd,
    stride_mb,
    H, GROUP, Lq, Lk, D, coff, scale, n_mblocks, n_nblocks,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr, NB: tl.constexpr,
    MODE: tl.constexpr, HAS_MASK: tl.constexpr, CAUSAL: tl.constexpr, PRECISION: tl.constexpr,
    K_BOUND: tl.constexpr, K_NEWTON: tl.constexpr, K_EXACT: tl.constexpr,
):
    pid_m = tl.program_id(0)
    bh = tl.program_id(1)
    b = bh // H
    h = bh % H
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, BLOCK_D)
    dmask = offs_d[None, :] < D
    q = tl.load(Q + b * stride_qb + h * stride_qh + offs_m[:, None] * stride_qm + offs_d[None, :] * stride_qd,
                mask=(offs_m[:, None] < Lq) & dmask, other=0.0)
    kbase = b * stride_kb + (h // GROUP) * stride_kh
    mbase = b * stride_mb
    eps = tl.load(Alpha + bh).to(tl.float32) - 1.0
    inv_eps = 1.0 / eps
    hi = _key_end(pid_m, Lq, Lk, coff, BLOCK_M, CAUSAL)
    nb = tl.arange(0, NB)

    # sweep 0: the row max, and which blocks hold a valid key at all
    m = tl.full([BLOCK_M], float("-inf"), tl.float32)
    live = tl.zeros([NB], tl.int32)
    for start_n in range(0, hi, BLOCK_N):
        z, valid, offs_n, _k = _tile(q, K, kbase, stride_kn, stride_kd, Mask, mbase, offs_m, start_n, offs_d, dmask,
                                     Lq, Lk, coff, scale, BLOCK_N, HAS_MASK, CAUSAL, PRECISION)
        m = tl.maximum(m, tl.max(tl.where(valid, z, float("-inf")), 1))
        now = tl.max(tl.max(valid.to(tl.int32), 1), 0)
        live = tl.where(nb == start_n // BLOCK_N, now, live)
    m = tl.where(m > float("-inf"), m, 0.0)     # a fully masked row: zeros (no valid key anywhere)

    t = tl.zeros([BLOCK_M], tl.float32)
    for _ in tl.static_range(K_BOUND):
        cnt, sw, _c, live = _sweep(q, m, t, live, eps, K, kbase, stride_kn, stride_kd, Mask, mbase, offs_m, offs_d,
                                   dmask, Lq, Lk, coff, scale, hi, BLOCK_N, NB, 1, MODE, HAS_MASK, CAUSAL, PRECISION)
        cnt_safe = tl.where(cnt > 0, cnt, 1.0)
        bound = sw / cnt_safe - _expm1(-eps * tl.log(cnt_safe)) * inv_eps
        t = tl.where(cnt > 0, tl.maximum(t, bound), t)
    for _ in tl.static_range(K_NEWTON):
        F, S, _c, live = _sweep(q, m, t, live, eps, K, kbase, stride_kn, stride_kd, Mask, mbase, offs_m, offs_d,
                                dmask, Lq, Lk, coff, scale, hi, BLOCK_N, NB, 2, MODE, HAS_MASK, CAUSAL, PRECISION)
        ok = (F > 0) & (S > 0)
        Fs = tl.where(ok, F, 1.0)
        t = tl.where(ok, t - Fs * _expm1(-eps * tl.log(Fs)) / (eps * tl.where(ok, S, 1.0)), t)
    if MODE == 2:
        for _ in tl.static_range(K_EXACT):
            cnt, s1, _c, live = _sweep(q, m, t, live, eps, K, kbase, stride_kn, stride_kd, Mask, mbase, offs_m,
                                       offs_d, dmask, Lq, Lk, coff, scale, hi, BLOCK_N, NB, 3, MODE, HAS_MASK,
                                       CAUSAL, PRECISION)
            t = tl.where(cnt > 0, (s1 - 1.0) / tl.where(cnt > 0, cnt, 1.0), t)
    if MODE == 1:
        for _ in tl.static_range(K_EXACT):
            A, Bs, C, live = _sweep(q, m, t, live, eps, K, kbase, stride_kn, stride_kd, Mask, mbase, offs_m, offs_d,
                                    dmask, Lq, Lk, coff, scale, hi, BLOCK_N, NB, 4, MODE, HAS_MASK, CAUSAL,
                                    PRECISION)
            A_safe = tl.where(A > 0, A, 1.0)
            mean = Bs / A_safe
            ss = C - Bs * mean
            cc = mean - tl.sqrt(tl.maximum((1.0 - ss) / A_safe, 0.0))
            t = tl.where(A > 0, t + 2.0 * cc, t)

    row = bh * Lq + offs_m
    rmask = offs_m < Lq
    tl.store(Mrow + row, m, mask=rmask)
    tl.store(Trow + row, t, mask=rmask)
    tl.store(BMask + (bh * n_mblocks + pid_m) * n_nblocks + nb, live.to(tl.int8), mask=nb < n_nblocks)


@triton.jit(do_not_specialize=_PER_BATCH)
def blocked_fwd(
    Q, K, V, Alpha, Mask, Out, Mrow, Trow, Frow, BMask, Visits,
    stride_qb, stride_qh, stride_qm, stride_qd,
    stride_kb, stride_kh, stride_kn, stride_kd,
    stride_vb, stride_vh, stride_vn, stride_vd,
    stride_ob, stride_oh, stride_om, stride_od,
    stride_mb,
    H, GROUP, Lq, Lk, D, coff, scale, n_mblocks, n_nblocks, p_drop, seed,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr,
    MODE: tl.constexpr, HAS_MASK: tl.constexpr, CAUSAL: tl.constexpr, DROPOUT: tl.constexpr,
    PRECISION: tl.constexpr, RECORD: tl.constexpr,
):
    pid_m = tl.program_id(0)
    bh = tl.program_id(1)
    b = bh // H
    h = bh % H
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, BLOCK_D)
    dmask = offs_d[None, :] < D
    qrows = (offs_m[:, None] < Lq) & dmask
    q = tl.load(Q + b * stride_qb + h * stride_qh + offs_m[:, None] * stride_qm + offs_d[None, :] * stride_qd,
                mask=qrows, other=0.0)
    kbase = b * stride_kb + (h // GROUP) * stride_kh
    vbase = b * stride_vb + (h // GROUP) * stride_vh
    mbase = b * stride_mb
    eps = tl.load(Alpha + bh).to(tl.float32) - 1.0
    row = bh * Lq + offs_m
    rmask = offs_m < Lq
    m = tl.load(Mrow + row, mask=rmask, other=0.0)
    t = tl.load(Trow + row, mask=rmask, other=0.0)
    one = tl.full([BLOCK_M], 1.0, tl.float32)
    hi = _key_end(pid_m, Lq, Lk, coff, BLOCK_M, CAUSAL)
    mrow = (bh * n_mblocks + pid_m) * n_nblocks
    F = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, BLOCK_D], tl.float32)
    visits = 0
    for start_n in range(0, hi, BLOCK_N):
        if tl.load(BMask + mrow + start_n // BLOCK_N) != 0:
            z, valid, offs_n, _k = _tile(q, K, kbase, stride_kn, stride_kd, Mask, mbase, offs_m, start_n, offs_d,
                                         dmask, Lq, Lk, coff, scale, BLOCK_N, HAS_MASK, CAUSAL, PRECISION)
            v = tl.load(V + vbase + offs_n[:, None] * stride_vn + offs_d[None, :] * stride_vd,
                        mask=(offs_n[:, None] < Lk) & dmask, other=0.0)
            w = tl.where(valid, z - m[:, None], 0.0)
            p, _u = _probs(w, valid, t, one, eps, MODE)
            F += tl.sum(p, 1)
            if DROPOUT:
                keep = _dropout_keep(seed, bh, offs_m, offs_n, Lq, Lk, p_drop)
                p = tl.where(keep, p / (1.0 - p_drop), 0.0)
            acc += tl.dot(p.to(v.dtype), v, input_precision=PRECISION)
            visits += 1
    F = tl.where(F > 0, F, 1.0)
    out = acc / F[:, None]
    tl.store(Out + b * stride_ob + h * stride_oh + offs_m[:, None] * stride_om + offs_d[None, :] * stride_od,
             out.to(Out.dtype.element_ty), mask=qrows)
    tl.store(Frow + row, F, mask=rmask)
    if RECORD:
        tl.store(Visits + bh * n_mblocks + pid_m, visits)


@triton.jit
def _alpha_terms(p, u, w, t, F, eps):
    """T_j = p (log p)^2 Φ(-eps log p) of the α-gradient (see ``_entmax_triton``)."""
    pos = p > 0.0
    logp = tl.where(pos, _log1p_of(u, eps * (w - t[:, None])) / eps - tl.log(F)[:, None], 0.0)
    x = -eps * logp
    small = tl.abs(x) < 0.5
    xs = tl.where(small, x, 0.0)
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
    s = tl.where(u > 0.0, p / tl.where(u > 0.0, u, 1.0), 0.0)
    s_true = s * tl.exp(eps * tl.log(F))[:, None]
    return tl.where(pos, tl.where(small, p * logp * logp * phi, (s_true - p * (1.0 + x)) / (eps * eps)), 0.0)


@triton.jit(do_not_specialize=_PER_BATCH)
def blocked_bwd_rows(
    Q, K, V, Alpha, Mask, dOut, Mrow, Trow, Frow, Rrow, dQ, dArow, BMask,
    stride_qb, stride_qh, stride_qm, stride_qd,
    stride_kb, stride_kh, stride_kn, stride_kd,
    stride_vb, stride_vh, stride_vn, stride_vd,
    stride_ob, stride_oh, stride_om, stride_od,
    stride_dqb, stride_dqh, stride_dqm, stride_dqd,
    stride_mb,
    H, GROUP, Lq, Lk, D, coff, scale, n_mblocks, n_nblocks, p_drop, seed,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr,
    MODE: tl.constexpr, HAS_MASK: tl.constexpr, CAUSAL: tl.constexpr, DROPOUT: tl.constexpr,
    PRECISION: tl.constexpr, NEED_DALPHA: tl.constexpr,
):
    pid_m = tl.program_id(0)
    bh = tl.program_id(1)
    b = bh // H
    h = bh % H
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, BLOCK_D)
    dmask = offs_d[None, :] < D
    qrows = (offs_m[:, None] < Lq) & dmask
    q = tl.load(Q + b * stride_qb + h * stride_qh + offs_m[:, None] * stride_qm + offs_d[None, :] * stride_qd,
                mask=qrows, other=0.0)
    do = tl.load(dOut + b * stride_ob + h * stride_oh + offs_m[:, None] * stride_om + offs_d[None, :] * stride_od,
                 mask=qrows, other=0.0)
    kbase = b * stride_kb + (h // GROUP) * stride_kh
    vbase = b * stride_vb + (h // GROUP) * stride_vh
    mbase = b * stride_mb
    eps = tl.load(Alpha + bh).to(tl.float32) - 1.0
    row = bh * Lq + offs_m
    rmask = offs_m < Lq
    m = tl.load(Mrow + row, mask=rmask, other=0.0)
    t = tl.load(Trow + row, mask=rmask, other=0.0)
    F = tl.load(Frow + row, mask=rmask, other=1.0)
    hi = _key_end(pid_m, Lq, Lk, coff, BLOCK_M, CAUSAL)
    mrow = (bh * n_mblocks + pid_m) * n_nblocks

    ssum = tl.zeros([BLOCK_M], tl.float32)
    sdp = tl.zeros([BLOCK_M], tl.float32)
    tdp = tl.zeros([BLOCK_M], tl.float32)
    tsum = tl.zeros([BLOCK_M], tl.float32)
    for start_n in range(0, hi, BLOCK_N):
        if tl.load(BMask + mrow + start_n // BLOCK_N) != 0:
            z, valid, offs_n, _k = _tile(q, K, kbase, stride_kn, stride_kd, Mask, mbase, offs_m, start_n, offs_d,
                                         dmask, Lq, Lk, coff, scale, BLOCK_N, HAS_MASK, CAUSAL, PRECISION)
            v = tl.load(V + vbase + offs_n[:, None] * stride_vn + offs_d[None, :] * stride_vd,
                        mask=(offs_n[:, None] < Lk) & dmask, other=0.0)
            w = tl.where(valid, z - m[:, None], 0.0)
            p, u = _probs(w, valid, t, F, eps, MODE)
            s = tl.where(u > 0.0, p / tl.where(u > 0.0, u, 1.0), 0.0)
            dp = tl.dot(do, tl.trans(v), input_precision=PRECISION)
            if DROPOUT:
                keep = _dropout_keep(seed, bh, offs_m, offs_n, Lq, Lk, p_drop)
                dp = tl.where(keep, dp / (1.0 - p_drop), 0.0)
            ssum += tl.sum(s, 1)
            sdp += tl.sum(s * dp, 1)
            if NEED_DALPHA:
                T = _alpha_terms(p, u, w, t, F, eps)
                tdp += tl.sum(dp * T, 1)
                tsum += tl.sum(T, 1)
    r = sdp / tl.where(ssum > 0, ssum, 1.0)
    tl.store(Rrow + row, r, mask=rmask)
    if NEED_DALPHA:
        tl.store(dArow + row, -tdp + r * tsum, mask=rmask)

    dq = tl.zeros([BLOCK_M, BLOCK_D], tl.float32)
    for start_n in range(0, hi, BLOCK_N):
        if tl.load(BMask + mrow + start_n // BLOCK_N) != 0:
            z, valid, offs_n, k = _tile(q, K, kbase, stride_kn, stride_kd, Mask, mbase, offs_m, start_n, offs_d,
                                        dmask, Lq, Lk, coff, scale, BLOCK_N, HAS_MASK, CAUSAL, PRECISION)
            v = tl.load(V + vbase + offs_n[:, None] * stride_vn + offs_d[None, :] * stride_vd,
                        mask=(offs_n[:, None] < Lk) & dmask, other=0.0)
            w = tl.where(valid, z - m[:, None], 0.0)
            p, u = _probs(w, valid, t, F, eps, MODE)
            s = tl.where(u > 0.0, p / tl.where(u > 0.0, u, 1.0), 0.0)
            dp = tl.dot(do, tl.trans(v), input_precision=PRECISION)
            if DROPOUT:
                keep = _dropout_keep(seed, bh, offs_m, offs_n, Lq, Lk, p_drop)
                dp = tl.where(keep, dp / (1.0 - p_drop), 0.0)
            dz = s * (dp - r[:, None])
            dq += tl.dot(dz.to(k.dtype), k, input_precision=PRECISION)
    dq = dq * scale
    tl.store(dQ + b * stride_dqb + h * stride_dqh + offs_m[:, None] * stride_dqm + offs_d[None, :] * stride_dqd,
             dq.to(dQ.dtype.element_ty), mask=qrows)


@triton.jit(do_not_specialize=_PER_BATCH)
def blocked_bwd_keys(
    Q, K, V, Alpha, Mask, dOut, Mrow, Trow, Frow, Rrow, dK, dV, BMask,
    stride_qb, stride_qh, stride_qm, stride_qd,
    stride_kb, stride_kh, stride_kn, stride_kd,
    stride_vb, stride_vh, stride_vn, stride_vd,
    stride_ob, stride_oh, stride_om, stride_od,
    stride_dkb, stride_dkh, stride_dkn, stride_dkd,
    stride_dvb, stride_dvh, stride_dvn, stride_dvd,
    stride_mb,
    H, GROUP, Lq, Lk, D, coff, scale, n_mblocks, n_nblocks, p_drop, seed,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr,
    MODE: tl.constexpr, HAS_MASK: tl.constexpr, CAUSAL: tl.constexpr, DROPOUT: tl.constexpr,
    PRECISION: tl.constexpr,
):
    """Per (key block, batch · key/value head): dk, dv summed over the group's query heads."""
    pid_n = tl.program_id(0)
    bhk = tl.program_id(1)
    HKV = H // GROUP
    b = bhk // HKV
    hk = bhk % HKV
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, BLOCK_D)
    dmask = offs_d[None, :] < D
    kv_rows = (offs_n[:, None] < Lk) & dmask
    k = tl.load(K + b * stride_kb + hk * stride_kh + offs_n[:, None] * stride_kn + offs_d[None, :] * stride_kd,
                mask=kv_rows, other=0.0)
    v = tl.load(V + b * stride_vb + hk * stride_vh + offs_n[:, None] * stride_vn + offs_d[None, :] * stride_vd,
                mask=kv_rows, other=0.0)
    valid_n = offs_n < Lk
    if HAS_MASK:
        km = tl.load(Mask + b * stride_mb + offs_n, mask=valid_n, other=0)
        valid_n = valid_n & (km != 0)
    dk = tl.zeros([BLOCK_N, BLOCK_D], dtype=tl.float32)
    dv = tl.zeros([BLOCK_N, BLOCK_D], dtype=tl.float32)
    if CAUSAL:
        first = pid_n * BLOCK_N - coff          # the first query that can see this key block
        start = (tl.maximum(first, 0) // BLOCK_M) * BLOCK_M
    else:
        start = 0
    for g in range(0, GROUP):
        h = hk * GROUP + g
        bh = b * H + h
        eps = tl.load(Alpha + bh).to(tl.float32) - 1.0
        for start_m in range(start, Lq, BLOCK_M):
            if tl.load(BMask + (bh * n_mblocks + start_m // BLOCK_M) * n_nblocks + pid_n) != 0:
                offs_m = start_m + tl.arange(0, BLOCK_M)
                qrows = (offs_m[:, None] < Lq) & dmask
                q = tl.load(Q + b * stride_qb + h * stride_qh + offs_m[:, None] * stride_qm
                            + offs_d[None, :] * stride_qd, mask=qrows, other=0.0)
                do = tl.load(dOut + b * stride_ob + h * stride_oh + offs_m[:, None] * stride_om
                             + offs_d[None, :] * stride_od, mask=qrows, other=0.0)
                row = bh * Lq + offs_m
                rmask = offs_m < Lq
                m = tl.load(Mrow + row, mask=rmask, other=0.0)
                t = tl.load(Trow + row, mask=rmask, other=0.0)
                F = tl.load(Frow + row, mask=rmask, other=1.0)
                r = tl.load(Rrow + row, mask=rmask, other=0.0)
                z = tl.dot(q, tl.trans(k), input_precision=PRECISION) * scale
                valid = valid_n[None, :] & (offs_m[:, None] < Lq)
                if CAUSAL:
                    valid = valid & (offs_n[None, :] <= offs_m[:, None] + coff)
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
    tl.store(dK + b * stride_dkb + hk * stride_dkh + offs_n[:, None] * stride_dkn + offs_d[None, :] * stride_dkd,
             dk.to(dK.dtype.element_ty), mask=kv_rows)
    tl.store(dV + b * stride_dvb + hk * stride_dvh + offs_n[:, None] * stride_dvn + offs_d[None, :] * stride_dvd,
             dv.to(dV.dtype.element_ty), mask=kv_rows)
