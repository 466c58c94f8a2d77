"""sparselab.reports.peters2019.claims on hand-made run records: each verdict follows its standard test."""
from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as st

from sparselab.reports.claims import Verdict as V, paper_page
from sparselab.reports.peters2019 import claims

A = (1.0, 1.5, 2.0)
GRID = (1.0, 1.125, 1.25, 1.375, 1.5, 1.625, 1.75, 1.875, 2.0, 2.25)
T1 = {"columns": ["high_avg", "high_ens", "medium_avg", "medium_ens"],
      "rows": {f"{a},{b}": [0, 0, 82.0 + 2 * (a > 1), 85.0 + 0.8 * (a > 1)] for a in A for b in A}}
REF = {"table1_sigmorphon2018": T1,
       "sparsity_inflection": {"best_config_single_sequence_share": {"medium": 0.66}, "beam_exact_share": {"medium": 0.79}},
       "figure4_alpha_grid_deen": {"output_alpha": {x: 63.4 - 8 * (x - 1.33) ** 2 for x in GRID},
                                   "attention_alpha_with_output_1.5": {x: 63.1 + 0.2 * (x - 1) for x in GRID}}}
JITTER = (-0.3, 0.0, 0.3)


def rec(acc, dev=None, **metrics):
    return {"metrics": {"acc": acc, "val_acc_best": acc if dev is None else dev, **metrics}}


def grid(acc, seeds=3, **metrics):
    """{(output α, attention α): records}, seed s at acc(a, b) + JITTER[s]."""
    return {(a, b): [rec(acc(a, b) + JITTER[s], **metrics) for s in range(seeds)] for a in A for b in A}


def mt_rec(a, b, seed=0, acc=60.0, pair="de-en"):
    return {"config": {"data": {"pair": pair}, "mapping": {"alpha": a, "attn_alpha": b}, "seed": seed},
            "metrics": {"val_acc_best": acc}, "run_dir": f"{pair}-{a}-{b}-{seed}"}


def out_grid(f, xs=GRID, seeds=3, noise=0.1):
    return [mt_rec(x, 1.5, s, f(x) + noise * (s - 1)) for x in xs for s in range(seeds)]


def test_sparse_outputs_beat_softmax_by_welch_with_holm():
    c = claims.sparse_beat_softmax({"medium": grid(lambda a, b: 80.0 + 2.0 * (a > 1))}, REF)
    assert c.verdict is V.HOLDS and c.estimate == pytest.approx(2.0) and "Holm over 6" in c.test
    p = st.ttest_ind([82 + j for j in JITTER], [80 + j for j in JITTER], equal_var=False).pvalue
    assert c.p == pytest.approx(min(1.0, 6 * p))          # equal p's: Holm multiplies each by 6
    assert c.paper == "+2.00 … +2.00 (medium avg)"
    worse = claims.sparse_beat_softmax({"medium": grid(lambda a, b: 80.0 - 2.0 * (a == 2))}, REF)
    assert worse.verdict is V.FAILS
    missing = {"medium": {k: v for k, v in grid(lambda a, b: 80.0).items() if k != (2.0, 1.5)}}
    assert claims.sparse_beat_softmax(missing, REF).verdict is V.UNTESTED
    assert claims.sparse_beat_softmax({}, REF).label == "untested (no inflection setting run)"


def test_a_one_seed_cell_is_tested_with_the_pooled_sd_and_an_inconclusive_row_states_its_power():
    g = grid(lambda a, b: 80.0 + 0.4 * (a > 1))
    g[(1.5, 1.0)] = g[(1.5, 1.0)][:1]
    c = claims.sparse_beat_softmax({"medium": g}, REF)
    assert "pooled-SD t (SD 0.30, df 16)" in c.test and c.verdict is V.INCONCLUSIVE
    assert "at 80 % power" in c.label and "seeds per cell" in c.label


def test_attention_matters_less_is_a_two_way_anova():
    ok = claims.attention_matters_less({"medium": grid(lambda a, b: 70.0 + 5 * (a > 1) + 0.1 * b)}, REF)
    assert ok.verdict is V.HOLDS and "output α F(2, 18)" in ok.detail
    rev = claims.attention_matters_less({"medium": grid(lambda a, b: 70.0 + 0.1 * a + 5 * (b > 1))}, REF)
    assert rev.verdict is V.FAILS


def test_a_tie_for_best_on_dev_is_a_tie():
    g = grid(lambda a, b: 70.0, seeds=1, val_single_share=0.2, val_exact_share=0.3)
    g[(1.5, 1.5)] = [rec(70.0, dev=80.0, val_single_share=0.60, val_exact_share=0.85)]
    g[(2.0, 2.0)] = [rec(70.0, dev=79.9, val_single_share=0.30, val_exact_share=0.30)]
    for k in g:           # seeds elsewhere, so that a pooled SD exists
        g[k] = g[k] + [rec(70.0, dev=g[k][0]["metrics"]["val_acc_best"] + d, val_single_share=0.2, val_exact_share=0.3)
                       for d in (-0.2, 0.2)] if k not in ((1.5, 1.5), (2.0, 2.0)) else g[k]
    c = claims.shares({"medium": g}, REF)
    assert c.verdict is V.INCONCLUSIVE and "2 of the 6 sparse-output cells tied" in c.detail


def test_fig4_optimum_untested_on_three_points_and_decided_on_the_ten_point_grid():
    three = out_grid(lambda x: 63 - 8 * (x - 1.33) ** 2, xs=(1.0, 1.5, 2.0))
    assert claims.optimum_near(three, REF).label == ("untested (only the points 1, 1.5, 2 were run; a fitted "
                                                     "optimum needs 5)")
    assert claims.beyond_two(three, REF).label == "untested (only the points 1, 1.5, 2 were run)"
    full = out_grid(lambda x: 63 - 8 * (x - 1.33) ** 2)
    near = claims.optimum_near(full, REF)
    assert near.verdict is V.HOLDS and near.estimate == pytest.approx(1.33, abs=0.02)
    assert near.paper.startswith("argmax of the paper's points 1.3")
    far = claims.optimum_near(out_grid(lambda x: 63 - 8 * (x - 1.9) ** 2), REF)
    assert far.verdict is V.FAILS
    beyond = claims.beyond_two(full, REF)
    assert beyond.verdict is V.HOLDS and beyond.paper == f"{(63.4 - 8 * 0.0009) - (63.4 - 8 * 0.92 ** 2):+.2f}"


def test_a_very_small_effect_is_an_equivalence_test_with_a_fixed_margin():
    def att(f, seeds=3, noise=0.1):
        return [mt_rec(1.5, x, s, f(x) + noise * (s - 1)) for x in (1.0, 1.5, 2.0) for s in range(seeds)]
    small = claims.sparser_attention(att(lambda x: 60 + 0.1 * (x - 1)), REF)
    assert small.verdict is V.HOLDS and "±0.5 points" in small.test
    big = claims.sparser_attention(att(lambda x: 60 + 3 * (x - 1)), REF)
    assert big.verdict is V.FAILS
    noisy = claims.sparser_attention(att(lambda x: 60 + 0.1 * (x - 1), noise=1.5), REF)
    assert noisy.verdict is V.INCONCLUSIVE


def test_no_margin_widens_and_the_interval_narrows_with_seeds_at_the_cell_means():
    """Issue 54: adding a seed at a cell's mean never makes a claim harder to decide."""
    def att(seeds):
        return [mt_rec(1.5, x, s, 60 + 0.1 * (x - 1) + (0.4 * (s - 1) if s < 3 else 0.0))
                for x in (1.0, 1.5, 2.0) for s in range(seeds)]
    before, after = claims.sparser_attention(att(3), REF), claims.sparser_attention(att(4), REF)
    assert after.ci[1] - after.ci[0] < before.ci[1] - before.ci[0]
    assert before.test.split(" on ")[0] == after.test.split(" on ")[0]      # the same stated margin
    g3 = grid(lambda a, b: 80.0 + 0.4 * (a > 1))
    g4 = {k: v + [rec(float(np.mean([r["metrics"]["acc"] for r in v])))] for k, v in g3.items()}
    c3, c4 = claims.sparse_beat_softmax({"medium": g3}, REF), claims.sparse_beat_softmax({"medium": g4}, REF)
    assert c4.ci[1] - c4.ci[0] < c3.ci[1] - c3.ci[0] and c4.p < c3.p


def test_without_mt_the_mt_claims_are_untested_rows():
    rows = claims.claims("/nonexistent", {"medium": grid(lambda a, b: 80.0)}, None, REF, None)
    assert sum(c.label == "untested (MT not run in this profile)" for c in rows) == 3
    assert rows[1].label == "untested (no ensemble run)"
    text = paper_page(claims.__name__, "smoke", rows)
    assert text.count("\n| ") == len(rows) + 1
