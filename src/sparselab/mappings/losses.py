"""Fenchel-Young losses with Tsallis regularisers (Blondel, Martins & Niculae
2020, the Fenchel-Young loss L_Omega; Peters et al. 2019, entmax losses), in the calling conventions of
``torch.nn.functional.cross_entropy``.

    L(z; y) = Omega*(z) + Omega(y) - <z, y>,  Omega = -H_alpha (Tsallis)
            = <z, p* - y> + H_alpha(p*) - H_alpha(y),   p* = alpha-entmax(z)

Gradients: dL/dz = p* - y (Blondel et al. 2020, gradient of L_Omega) and, by Danskin's
theorem, dL/dalpha = dH_alpha/dalpha(p*) - dH_alpha/dalpha(y), so the loss is
differentiable w.r.t. a tensor alpha (one per row allowed).

alpha = 1: L = logsumexp(z) - <z, y> - H(y) = cross_entropy(z, y) - H(y); with
class-index (one-hot) targets H(y) = 0 and L equals cross_entropy exactly, with
probability targets it is KL(y || softmax(z)) (cross_entropy minus the target
entropy).  alpha = 2 is the sparsemax loss of Martins & Astudillo 2016 (Eq. 26
with label-proportion targets).  The loss is zero iff p* = y; for a class
target and alpha > 1 that means z_gold >= z_j + 1/(alpha-1) for all j != gold;
for 0 < alpha < 1 (dense p*) it is never zero for a class target.  The
Tsallis entropy and its alpha-derivative (tsallis.py) hold for every alpha > 0.
"""
from __future__ import annotations

import torch

from . import _compile, _solvers
from ._validate import (check_alpha, check_input, check_n_iter, check_normmax_alpha,
                        compute_dtype)
from .bisect import entmax_alpha_lastdim
from .dispatch import exact_case
from .tsallis import tsallis_lastdim

_REDUCTIONS = ("none", "mean", "sum")


_PROJECTIONS = {
    "softmax": lambda z: torch.softmax(z, dim=-1),
    "entmax15": _solvers.entmax15_lastdim,
    "sparsemax": _solvers.sparsemax_lastdim,
}


def _project(z: torch.Tensor, alpha, n_iter) -> torch.Tensor:
    """alpha-entmax of 2-D rows, no autograd: the fastest exact solver per alpha (``dispatch.exact_case``)."""
    case = exact_case(alpha)
    if case is not None:
        return _PROJECTIONS[case](z)
    return entmax_alpha_lastdim(z, alpha - 1, n_iter)


def _loss_rows(z, p, target, alpha, need_da: bool, dist: bool, ignore_index: int):
    """Row losses <w, p - y> + H(p) - H(y) (w = z - max) and dL/dalpha per row.

    Straight-line torch code (no data-dependent branches), so it also compiles
    into one fused reduction over the rows that allocates nothing full-size.
    """
    w, _ = _solvers.shift_by_max(z)
    keep = None
    if dist:
        y = target
    else:
        keep = target != ignore_index
        gold = torch.where(keep, target, 0).unsqueeze(-1)
        w_gold = w.gather(-1, gold).squeeze(-1)
    dH = None
    if exact_case(alpha) == "softmax":
        # logsumexp(w) - <w, y> - H(y) computed the way cross_entropy is.
        lse = torch.logsumexp(w, dim=-1)
        if dist:
            # sum_{y>0} y (log y - log_softmax(w)): KL, -inf-safe off the target.
            logsm = w - lse.unsqueeze(-1)
            pos = y > 0
            loss = torch.where(pos, y * (torch.log(torch.where(pos, y, 1.0)) - logsm), 0.0).sum(-1)
        else:
            loss = lse - w_gold
    else:
        Hp, dHp = tsallis_lastdim(p, alpha, need_dalpha=need_da)
        # <w, p>: only over the support, so -inf scores off it contribute 0.
        wp = torch.where(p > 0, w * p, 0.0).sum(-1)
        if dist:
            Hy, dHy = tsallis_lastdim(y, alpha, need_dalpha=need_da)
            wy = torch.where(y > 0, w * y, 0.0).sum(-1)
            loss = wp - wy + Hp - Hy
            dH = dHp - dHy if need_da else None
        else:
            loss = wp - w_gold + Hp
            dH = dHp
    if keep is not None:
        loss = torch.where(keep, loss, 0.0)
        if dH is not None:
            dH = torch.where(keep, dH, 0.0)
    return loss, dH


def _loss_grad(p, target, g, dist: bool, ignore_index: int):
    """(p - y) * g per row; one fused pass (no scatter, no one-hot tensor)."""
    if dist:
        return (p - target) * g.unsqueeze(-1)
    keep = target != ignore_index
    cls = torch.arange(p.shape[-1], device=p.device)
    onehot = (cls == target.unsqueeze(-1)).to(p.dtype)
    return (p - onehot) * torch.where(keep, g, 0.0).unsqueeze(-1)


class FYLossFunction(torch.autograd.Function):
    """Row losses L(z; y) = <z, p* - y> + H^T_alpha(p*) - H^T_alpha(y) (Blondel et al. 2020)
    for 2-D scores (M, C), backward p* - y.  ``target``: (M,) indices or (M, C) probs.

    Ignored rows (index targets equal to ``ignore_index``) get loss 0 and zero
    gradient.  ``alpha``: float or tensor (M, 1).
    """

    @staticmethod
    def forward(ctx, z, target, alpha, ignore_index, n_iter):
        alpha_t = isinstance(alpha, torch.Tensor)
        need_da = alpha_t and ctx.needs_input_grad[2]
        dist = target.is_floating_point()
        p = _project(z, alpha, n_iter)
        out = None
        if _compile.use_compiled(z):
            out = _compile.run(_loss_rows, z, p, target, alpha, need_da, dist, ignore_index)
        if out is None:
            out = _loss_rows(z, p, target, alpha, need_da, dist, ignore_index)
        loss, dH = out
        ctx.dist = dist
        ctx.save_for_backward(p, target, dH if dH is not None else torch.empty(0))
        ctx.ignore_index = ignore_index
        ctx.alpha_shape = alpha.shape if alpha_t else None
        return loss

    @staticmethod
    def backward(ctx, g):
        p, target, dH = ctx.saved_tensors
        gz = ga = None
        if ctx.needs_input_grad[0]:
            if _compile.use_compiled(p):
                gz = _compile.run(_loss_grad, p, target, g, ctx.dist, ctx.ignore_index)
            if gz is None:
                gz = _loss_grad(p, target, g, ctx.dist, ctx.ignore_index)
        if ctx.alpha_shape is not None and ctx.needs_input_grad[2] and dH.numel():
            ga = (dH * g).unsqueeze(-1).sum_to_size(ctx.alpha_shape)
        return gz, None, ga, None, None


def _alpha_rows(alpha, scores, batch_shape, class_dim, normmax=False):
    """Validate alpha (> 0; > 1 for ``normmax``) and return a float or an (M, 1) tensor (one alpha per row)."""
    check = check_normmax_alpha if normmax else check_alpha
    if not isinstance(alpha, torch.Tensor):
        return check(alpha, scores, class_dim)  # a float
    # Accept the target's shape (one alpha per row, e.g. (N,)) as well as shapes
    # broadcastable to the scores with size 1 along the class dim (e.g. (N, 1)).
    if alpha.ndim == len(batch_shape) and alpha.ndim > 0 and scores.ndim > 1:
        alpha = alpha.unsqueeze(class_dim)
    a = check(alpha, scores, class_dim)
    if scores.ndim > 1:
        a = a.movedim(class_dim, -1)
    a = a.expand(tuple(batch_shape) + (1,))
    return a.reshape(-1, 1)


def fy_loss(scores, target, alpha=1.5, reduction: str = "mean", ignore_index: int = -100, n_iter=None):
    """Fenchel-Young loss with the Tsallis-alpha regulariser (alpha-entmax loss):
        L(z; y) = Omega*(z) + Omega(y) - <z, y>,  Omega = -H^T_alpha
    (Blondel et al. 2020; Peters et al. 2019); gradient p* - y with p* = alpha-entmax(z).
    alpha = 2 is the sparsemax loss of Martins & Astudillo 2016 (Eq. 26 for
    label-proportion targets).

    Mirrors ``F.cross_entropy``: ``scores`` (C,), (N, C) or (N, C, d1, ...) with
    classes on dim 1; ``target`` class indices (), (N) or (N, d1, ...) honouring
    ``ignore_index``, or class probabilities with the shape of ``scores``.
    ``reduction``: 'none' | 'mean' (over non-ignored elements) | 'sum'.
    ``alpha``: float > 0 or a tensor (one per row: the target's shape, or
    broadcastable to scores with size 1 on the class dim); differentiable.
    alpha=1 equals cross_entropy for class targets, and cross_entropy - H(y)
    (KL) for probability targets.  A -inf score on a non-target class leaves the
    loss finite; a -inf score on the target class gives +inf.  For 0 < alpha < 1,
    p* is dense (every finite score gets mass), so the loss is positive for a class target.
    """
    return _fenchel_young(FYLossFunction.apply, scores, target, alpha, reduction, ignore_index, n_iter)


def _fenchel_young(rows_fn, scores, target, alpha, reduction, ignore_index, n_iter, normmax=False):
    """Argument checks, reshaping to (M, C) rows and reduction shared by the losses;
    ``rows_fn(z, y, alpha_rows, ignore_index, n_iter)`` computes the row losses."""
    check_input(scores, "scores")
    if not isinstance(target, torch.Tensor):
        raise ValueError(f"target: expected a torch.Tensor, got {type(target).__name__}")
    if reduction not in _REDUCTIONS:
        raise ValueError(f"reduction: expected one of {_REDUCTIONS}, got {reduction!r}")
    n_iter = check_n_iter(n_iter)
    if scores.ndim == 0:
        raise ValueError("scores: expected at least 1 dim (the classes)")
    class_dim = 0 if scores.ndim == 1 else 1
    C = scores.shape[class_dim]
    batch_shape = tuple(s for i, s in enumerate(scores.shape) if i != class_dim)
    dist = target.is_floating_point()
    if dist:
        if target.shape != scores.shape:
            raise ValueError(
                f"target: probability targets must have the shape of scores "
                f"{tuple(scores.shape)}, got {tuple(target.shape)}"
            )
    else:
        if target.dtype not in (torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8):
            raise ValueError(f"target: expected class indices (integer) or probabilities, got {target.dtype}")
        if tuple(target.shape) != batch_shape:
            raise ValueError(
                f"target: expected shape {batch_shape} for scores {tuple(scores.shape)}, "
                f"got {tuple(target.shape)}"
            )
        target = target.long()
        if not torch.compiler.is_compiling() and target.numel():
            keep = target != ignore_index
            bad = keep & ((target < 0) | (target >= C))
            if bool(bad.any()):
                raise ValueError(f"target: class index out of range [0, {C})")
    a = _alpha_rows(alpha, scores, batch_shape, class_dim, normmax)

    out_dtype = scores.dtype
    cd = compute_dtype(scores.dtype)
    z = scores.to(cd)
    z = z.unsqueeze(0) if z.ndim == 1 else z.movedim(1, -1).reshape(-1, C)
    if dist:
        y = target.to(cd)
        y = y.unsqueeze(0) if y.ndim == 1 else y.movedim(1, -1).reshape(-1, C)
    else:
        y = target.reshape(-1)
    if isinstance(a, torch.Tensor):
        a = a.to(cd)
    if z.shape[0] == 0:
        rows = z.sum(-1)  # empty, keeps the graph
    else:
        rows = rows_fn(z, y, a, ignore_index, n_iter)
    rows = rows.reshape(batch_shape)
    if reduction == "none":
        out = rows
    elif reduction == "sum":
        out = rows.sum()
    elif dist:
        out = rows.sum() / rows.numel()  # NaN for an empty batch, like cross_entropy
    else:
        # cross_entropy: mean over non-ignored targets (NaN if there are none).
        out = rows.sum() / (target != ignore_index).sum().to(rows.dtype)
    return out.to(out_dtype)


def softmax_loss(scores, target, reduction: str = "mean", ignore_index: int = -100):
    """Fenchel-Young loss at alpha = 1 (Blondel et al. 2020):
        L(z; y) = logsumexp(z) - <z, y> - H(y),
    i.e. cross-entropy (KL for probability targets)."""
    return fy_loss(scores, target, 1.0, reduction, ignore_index)


def entmax15_loss(scores, target, reduction: str = "mean", ignore_index: int = -100):
    """1.5-entmax loss (Peters et al. 2019): ``fy_loss`` at alpha = 1.5,
        L(z; y) = <z, p* - y> + H^T_1.5(p*) - H^T_1.5(y),  p* = entmax15(z)."""
    return fy_loss(scores, target, 1.5, reduction, ignore_index)


def sparsemax_loss(scores, target, reduction: str = "mean", ignore_index: int = -100):
    """sparsemax loss (Martins & Astudillo 2016, Eq. 26): ``fy_loss`` at alpha = 2."""
    return fy_loss(scores, target, 2.0, reduction, ignore_index)


# ------------------------------------------------------------------ normmax loss
def _norm_alpha(p: torch.Tensor, alpha, need_da: bool):
    """(||p||_alpha, d||p||_alpha/dalpha or None) per row (keepdim=False), computed on p/max(p)
    so that p^alpha neither under- nor overflows:
        ||p||_alpha = M R^{1/alpha},  R = sum (p/M)^alpha,
        d||p||_alpha/dalpha = (||p||_alpha/alpha) (sum (p/M)^alpha log(p/M) / R - log(R)/alpha)."""
    M = p.amax(-1, keepdim=True)
    ratio = p / torch.where(M > 0, M, 1.0)
    pos = ratio > 0
    lr = torch.log(torch.where(pos, ratio, 1.0))
    r = torch.where(pos, torch.exp(alpha * lr), 0.0)
    R = r.sum(-1, keepdim=True)
    Rs = torch.where(R > 0, R, 1.0)
    N = torch.where(R > 0, M * torch.exp(torch.log(Rs) / alpha), 0.0)
    dN = None
    if need_da:
        dN = ((N / alpha) * ((r * lr).sum(-1, keepdim=True) / Rs - torch.log(Rs) / alpha)).squeeze(-1)
    return N.squeeze(-1), dN


def _normmax_loss_rows(z, p, target, alpha, need_da: bool, dist: bool, ignore_index: int):
    """Row losses <w, p - y> - ||p||_alpha + ||y||_alpha (w = z - max) and dL/dalpha per row."""
    w, _ = _solvers.shift_by_max(z)
    Np, dNp = _norm_alpha(p, alpha, need_da)
    wp = torch.where(p > 0, w * p, 0.0).sum(-1)  # -inf scores off the support contribute 0
    if dist:
        Ny, dNy = _norm_alpha(target, alpha, need_da)
        wy = torch.where(target > 0, w * target, 0.0).sum(-1)
        loss = wp - wy - Np + Ny
        dL = dNy - dNp if need_da else None
        return loss, dL
    keep = target != ignore_index
    gold = torch.where(keep, target, 0).unsqueeze(-1)
    loss = wp - w.gather(-1, gold).squeeze(-1) - Np + 1  # ||one-hot||_alpha = 1
    loss = torch.where(keep, loss, 0.0)
    dL = torch.where(keep, -dNp, 0.0) if need_da else None
    return loss, dL


class NormmaxLossFunction(torch.autograd.Function):
    """Row losses L(z; y) = <z, p* - y> - ||p*||_alpha + ||y||_alpha (Blondel et al. 2020, Omega =
    ||.||_alpha; Santos et al. 2024) for 2-D scores (M, C), backward p* - y; by Danskin's theorem
    dL/dalpha = d||y||_alpha/dalpha - d||p*||_alpha/dalpha."""

    @staticmethod
    def forward(ctx, z, target, alpha, ignore_index, n_iter):
        from .normmax import normmax_lastdim

        need_da = isinstance(alpha, torch.Tensor) and ctx.needs_input_grad[2]
        dist = target.is_floating_point()
        p = normmax_lastdim(z, alpha, n_iter)[0]
        loss, dL = _normmax_loss_rows(z, p, target, alpha, need_da, dist, ignore_index)
        ctx.dist, ctx.ignore_index = dist, ignore_index
        ctx.alpha_shape = alpha.shape if isinstance(alpha, torch.Tensor) else None
        ctx.save_for_backward(p, target, dL if dL is not None else torch.empty(0))
        return loss

    @staticmethod
    def backward(ctx, g):
        p, target, dL = ctx.saved_tensors
        gz = _loss_grad(p, target, g, ctx.dist, ctx.ignore_index) if ctx.needs_input_grad[0] else None
        ga = None
        if ctx.alpha_shape is not None and ctx.needs_input_grad[2] and dL.numel():
            ga = (dL * g).unsqueeze(-1).sum_to_size(ctx.alpha_shape)
        return gz, None, ga, None, None


def normmax_loss(scores, target, alpha=2.0, reduction: str = "mean", ignore_index: int = -100, n_iter=None):
    """Fenchel-Young loss of alpha-normmax (Blondel et al. 2020 with the norm regulariser
    Omega(p) = ||p||_alpha; Santos et al. 2024):
        L(z; y) = Omega*(z) + Omega(y) - <z, y> = <z, p* - y> - ||p*||_alpha + ||y||_alpha,
    p* = normmax_bisect(z, alpha); gradient p* - y.  Zero iff p* = y; for a class target
    that is z_gold >= z_j + 1 for all j != gold, whatever alpha.

    Same conventions as :func:`fy_loss` (``F.cross_entropy`` shapes, index or probability
    targets, ``ignore_index``, ``reduction``); ``alpha``: float > 1 or a tensor, one per row,
    differentiable.  alpha <= 1 raises ``ValueError`` naming ``alpha``.
    """
    return _fenchel_young(NormmaxLossFunction.apply, scores, target, alpha, reduction, ignore_index, n_iter,
                          normmax=True)
