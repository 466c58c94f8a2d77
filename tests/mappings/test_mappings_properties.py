"""Property tests (hypothesis) for sparselab.mappings, in float64."""
import pytest
import torch
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import sparselab.mappings as M

SETTINGS = settings(max_examples=60, deadline=None)
finite = st.floats(min_value=-20, max_value=20, allow_nan=False, allow_infinity=False)


@st.composite
def score_rows(draw, min_rows=1, max_rows=4, min_len=1, max_len=12):
    r = draw(st.integers(min_rows, max_rows))
    n = draw(st.integers(min_len, max_len))
    vals = draw(st.lists(finite, min_size=r * n, max_size=r * n))
    return torch.tensor(vals, dtype=torch.float64).reshape(r, n)


alphas = st.floats(min_value=1.0, max_value=3.0, allow_nan=False)


def mapping(alpha):
    return lambda x: M.entmax(x, alpha)


ALL = {
    "softmax": M.softmax,
    "sparsemax": M.sparsemax,
    "entmax15": M.entmax15,
    "bisect_1.3": lambda x: M.entmax_bisect(x, 1.3),
    "bisect_2.7": lambda x: M.entmax_bisect(x, 2.7),
}


@pytest.mark.parametrize("name", list(ALL))
@SETTINGS
@given(x=score_rows())
def test_on_simplex(name, x):
    p = ALL[name](x)
    assert (p >= 0).all()
    assert torch.allclose(p.sum(-1), torch.ones(x.shape[0], dtype=x.dtype), atol=1e-12)


@pytest.mark.parametrize("name", list(ALL))
@SETTINGS
@given(x=score_rows(), c=st.floats(-50, 50))
def test_shift_invariance(name, x, c):
    f = ALL[name]
    assert torch.allclose(f(x + c), f(x), atol=1e-9)


@pytest.mark.parametrize("name", list(ALL))
@SETTINGS
@given(x=score_rows(), seed=st.integers(0, 2**16))
def test_permutation_equivariance(name, x, seed):
    f = ALL[name]
    perm = torch.randperm(x.shape[-1], generator=torch.Generator().manual_seed(seed))
    assert torch.allclose(f(x[:, perm]), f(x)[:, perm], atol=1e-12)


@SETTINGS
@given(x=score_rows())
def test_alpha2_bisect_is_sparsemax_and_alpha15_is_entmax15(x):
    assert torch.allclose(M.entmax_bisect(x, 2.0), M.sparsemax(x), atol=1e-12)
    assert torch.allclose(M.entmax_bisect(x, 1.5), M.entmax15(x), atol=1e-12)


@SETTINGS
@given(x=score_rows())
def test_alpha_to_one_approaches_softmax(x):
    sm = torch.softmax(x, -1)
    errs = [(M.entmax_bisect(x, 1 + e) - sm).abs().max().item() for e in (1e-2, 1e-4, 1e-6)]
    # first-order in (alpha - 1): |dp/dalpha| <= max_i p_i log^2 p_i <~ a few units.
    assert errs[2] <= 1e-4 and errs[1] <= 1e-2
    assert errs[2] <= errs[0] + 1e-12


@SETTINGS
@given(x=score_rows(), a1=alphas, a2=alphas)
def test_support_never_grows_with_alpha(x, a1, a2):
    lo, hi = min(a1, a2), max(a1, a2)
    p_lo, p_hi = M.entmax_bisect(x, lo), M.entmax_bisect(x, hi)
    # Entries within rounding of the threshold may flip; the 1e-9 guard on the
    # sparser side keeps the comparison one-sided and safe.
    n_hi = (p_hi > 1e-9).sum(-1)
    n_lo = (p_lo > 0).sum(-1)
    assert (n_hi <= n_lo).all(), (lo, hi, n_lo, n_hi)


@SETTINGS
@given(x=score_rows(min_len=2), alpha=alphas, gold_seed=st.integers(0, 100))
def test_fy_loss_nonnegative_and_grad_is_p_minus_y(x, alpha, gold_seed):
    t = torch.tensor([gold_seed % x.shape[1]] * x.shape[0])
    z = x.clone().requires_grad_(True)
    loss = M.fy_loss(z, t, alpha, reduction="none")
    assert (loss >= -1e-12).all()
    loss.sum().backward()
    expected = M.entmax(x, alpha) - torch.nn.functional.one_hot(t, x.shape[1]).to(x.dtype)
    assert torch.allclose(z.grad, expected, atol=1e-10)


@SETTINGS
@given(x=score_rows(min_len=2), alpha=st.floats(1.05, 3.0), margin=st.floats(-3.0, 3.0), gold_seed=st.integers(0, 100))
def test_fy_loss_zero_iff_margin(x, alpha, margin, gold_seed):
    """Peters et al. 2019: loss 0 iff z_gold >= z_j + 1/(alpha-1) for all j != gold."""
    n = x.shape[1]
    gold = gold_seed % n
    need = 1.0 / (alpha - 1)
    others = torch.cat([x[:, :gold], x[:, gold + 1:]], dim=1)
    x = x.clone()
    x[:, gold] = others.max(-1).values + need + margin
    t = torch.full((x.shape[0],), gold)
    loss = M.fy_loss(x, t, alpha, reduction="none")
    assume(abs(margin) > 1e-6)
    if margin > 0:
        assert (loss.abs() <= 1e-12).all(), loss
        assert (M.entmax(x, alpha)[:, gold] == 1).all()
    else:
        # Inside the margin the loss is positive, but it can be far below float
        # resolution (e.g. alpha=1.06: p_other ~ (1/16)^16); check it wherever the
        # mapping puts a visible mass off the gold class.
        off_gold = 1 - M.entmax(x, alpha)[:, gold]
        assert (loss[off_gold > 1e-6] > 0).all(), loss
        assert (loss >= -1e-15).all(), loss


@SETTINGS
@given(x=score_rows(min_len=2), alpha=alphas)
def test_fy_loss_probability_target_grad(x, alpha):
    y = torch.softmax(torch.flip(x, dims=[1]), -1)
    z = x.clone().requires_grad_(True)
    loss = M.fy_loss(z, y, alpha, reduction="none")
    assert (loss >= -1e-10).all()
    loss.sum().backward()
    assert torch.allclose(z.grad, M.entmax(x, alpha) - y, atol=1e-10)


@SETTINGS
@given(p=score_rows(min_len=1).map(lambda v: torch.softmax(v, -1)), alpha=alphas)
def test_tsallis_entropy_matches_definition(p, alpha):
    h = M.tsallis_entropy(p, alpha)
    if alpha == 1.0:
        ref = -torch.where(p > 0, p * torch.log(p), 0.0).sum(-1)
        tol = 1e-12
    else:
        ref = (1 - (p ** alpha).sum(-1)) / (alpha * (alpha - 1))
        # the textbook form itself cancels as alpha -> 1 (error ~ n eps / (alpha-1))
        tol = 1e-12 + 1e-15 * p.shape[-1] / (alpha - 1)
    assert torch.allclose(h, ref, rtol=0, atol=tol)
