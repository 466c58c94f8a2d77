"""The claims kit's tests checked against values computed independently (scipy directly, textbook formulas)."""
import math

import numpy as np
import pytest
from scipy import stats as st

from sparselab.reports.claims import Claim, Verdict, counts, render, stats

A, B = [74.1, 75.3, 74.6], [76.0, 77.1, 75.8]


def test_welch_matches_scipy_and_the_welch_satterthwaite_interval():
    t = stats.welch(A, B)
    assert t.p == pytest.approx(st.ttest_ind(A, B, equal_var=False).pvalue)
    va, vb = np.var(A, ddof=1) / 3, np.var(B, ddof=1) / 3
    df = (va + vb) ** 2 / (va ** 2 / 2 + vb ** 2 / 2)
    half = st.t.ppf(0.975, df) * math.sqrt(va + vb)
    d = np.mean(A) - np.mean(B)
    assert t.ci == pytest.approx((d - half, d + half))
    assert t.df == pytest.approx(df)


def test_pooled_sd_is_the_textbook_pooled_variance_and_a_one_seed_cell_adds_no_df():
    cells = [A, B, [73.0]]
    sd, df = stats.pooled_sd(cells)
    assert df == 4
    assert sd == pytest.approx(math.sqrt((2 * np.var(A, ddof=1) + 2 * np.var(B, ddof=1)) / 4))
    t = stats.pooled([73.0], B, sd, df)
    se = sd * math.sqrt(1 + 1 / 3)
    assert t.p == pytest.approx(2 * st.t.sf(abs(73.0 - np.mean(B)) / se, 4))
    assert stats.difference([73.0], B, (sd, df)).name.startswith("pooled-SD t")
    assert stats.difference(A, B, (sd, df)).name.startswith("Welch")


def test_two_way_anova_matches_sums_of_squares_by_hand():
    rng = np.random.default_rng(1)
    a = np.repeat([1.0, 1.5, 2.0], 3)
    b = np.tile([1.0, 1.5, 2.0], 3)
    y = 70 + 3 * (a > 1) + rng.normal(0, 0.5, 9)
    grid = y.reshape(3, 3)
    m = y.mean()
    ss_a = 3 * ((grid.mean(1) - m) ** 2).sum()
    ss_b = 3 * ((grid.mean(0) - m) ** 2).sum()
    ss_res = ((y - m) ** 2).sum() - ss_a - ss_b
    got = stats.anova2(y, a, b)
    assert got["a"][0] == pytest.approx((ss_a / 2) / (ss_res / 4))
    assert got["a"][3] == pytest.approx(st.f.sf((ss_a / 2) / (ss_res / 4), 2, 4))
    assert got["b"][0] == pytest.approx((ss_b / 2) / (ss_res / 4))


def test_holm_is_the_step_down_rule():
    ps = [0.01, 0.04, 0.03]
    # sorted: 0.01*3, 0.03*2, 0.04*1 -> running max 0.03, 0.06, 0.06
    assert stats.holm(ps) == pytest.approx([0.03, 0.06, 0.06])


def test_tost_is_the_larger_of_two_one_sided_welch_tests():
    margin = 2.5
    p, ci = stats.tost(A, B, margin)
    p1 = st.ttest_ind(A, np.subtract(B, margin), equal_var=False, alternative="greater").pvalue
    p2 = st.ttest_ind(A, np.add(B, margin), equal_var=False, alternative="less").pvalue
    assert p == pytest.approx(max(p1, p2))
    assert ci == pytest.approx(tuple(st.ttest_ind(A, B, equal_var=False).confidence_interval(0.90)))


def test_tost_on_a_known_interval_decides_equivalence():
    t = stats.Test(0.1, (-0.3, 0.5), 0.6, "z", math.inf, 0.2)
    p, ci = stats.tost_t(t, 0.5)
    assert p == pytest.approx(st.norm.sf((0.5 - 0.1) / 0.2))      # the nearer bound decides
    assert ci == pytest.approx((0.1 - 1.6449 * 0.2, 0.1 + 1.6449 * 0.2), abs=1e-3)
    assert stats.tost_t(t, 0.2)[0] > 0.05                       # the 90 % interval crosses 0.2


def test_paired_bootstrap_of_a_constant_shift_is_that_shift():
    y = np.linspace(0, 1, 24)
    est, ci = stats.paired_bootstrap(y + 0.25, y, np.mean)
    assert est == pytest.approx(0.25) and ci == pytest.approx((0.25, 0.25))


def test_detectable_effect_has_80_percent_power_by_the_noncentral_t():
    sd, n = 0.56, 3
    d = stats.detectable(n, n, sd)
    df, nc = 2 * n - 2, d / sd * math.sqrt(n / 2)
    crit = st.t.ppf(0.975, df)
    assert st.nct.sf(crit, df, nc) + st.nct.cdf(-crit, df, nc) == pytest.approx(0.8, abs=1e-3)
    assert stats.seeds_needed(d, sd) in (n, n + 1)


def test_detectable_effect_of_a_pooled_sd_test_uses_its_degrees_of_freedom():
    """One seed against one, with a grid's pooled SD (df 3): a t test exists (stats.difference), so does its power;
    the cells' own df (0) would give none."""
    sd, df = 0.51, 3
    d = stats.detectable(1, 1, sd, df)
    nc, crit = d / sd * math.sqrt(1 / 2), st.t.ppf(0.975, df)
    assert st.nct.sf(crit, df, nc) + st.nct.cdf(-crit, df, nc) == pytest.approx(0.8, abs=1e-3)
    assert math.isnan(stats.detectable(1, 1, sd)) and stats.detectable(2, 1, sd, 18) < d
    assert stats.power_note(1, 1, sd, None, df=df) == f"detects ≥ {d:.2f} points at 80 % power with 1 vs 1 seeds, " \
                                                       "pooled SD df 3"


def test_an_interval_narrows_when_a_cell_gains_a_seed_at_its_mean():
    before = stats.welch(A, B)
    after = stats.welch(A + [float(np.mean(A))], B)
    assert after.ci[1] - after.ci[0] < before.ci[1] - before.ci[0]
    sd, df = stats.pooled_sd([A, B])
    one = stats.difference([73.0], B, (sd, df))
    sd2, df2 = stats.pooled_sd([A, B + [float(np.mean(B))]])
    two = stats.difference([73.0], B + [float(np.mean(B))], (sd2, df2))
    assert two.ci[1] - two.ci[0] < one.ci[1] - one.ci[0]


def test_vertex_of_a_concave_quadratic_is_found_with_an_interval():
    x = [1, 1.125, 1.25, 1.375, 1.5, 1.625, 1.75, 1.875, 2, 2.25] * 3
    rng = np.random.default_rng(0)
    y = [-(xi - 1.33) ** 2 * 8 + rng.normal(0, 0.05) for xi in x]
    top, ci, p = stats.vertex(x, y)
    assert top == pytest.approx(1.33, abs=0.03) and ci[0] < 1.33 < ci[1] and p < 0.001
    assert stats.vertex([1, 1.5, 2], [0, 1, 0]) is None


def test_renderer_and_counts_read_the_same_typed_claims():
    cs = [Claim("a", "§1", "q", Verdict.HOLDS, 1.0, (0.5, 1.5)),
          Claim("b", "§2", "q", Verdict.UNTESTED, reason="not run"),
          Claim("c", "§3", "q", Verdict.INCONCLUSIVE, 0.1, (-0.2, 0.4), detect="detects ≥ 1 point"),
          Claim("d", "§3", "q", Verdict.HOLDS, ours=True)]
    text = render("T", "intro", cs)
    assert text.count("\n| ") == 5 and "**untested (not run)**" in text and "| ours: d (§3)" in text
    assert "+1.00 [+0.50, +1.50]" in text
    assert counts(cs) == {"holds": 2, "inconclusive": 1, "untested": 1}
    with pytest.raises(ValueError):
        Claim("e", "§", "q", Verdict.UNTESTED)
