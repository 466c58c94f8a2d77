"""sparselab.reports.peters2019.claims on hand-made run records: each claim's verdict follows its stated rule."""
from __future__ import annotations

from sparselab.reports.peters2019 import claims

REF = {"sparsity_inflection": {"best_config_single_sequence_share": {"medium": 0.66},
                               "beam_exact_share": {"medium": 0.79}}}
A = (1.0, 1.5, 2.0)


def rec(acc, dev=None, **metrics):
    return {"metrics": {"acc": acc, "val_acc_best": acc if dev is None else dev, **metrics}}


def grid(acc, seeds=1, jitter=0.0, **metrics):
    """{(output α, attention α): records} with accuracy acc(a, b); seed s adds s * jitter."""
    return {(a, b): [rec(acc(a, b) + s * jitter, **metrics) for s in range(seeds)] for a in A for b in A}


def mt_rec(pair, a, b, seed=0, **metrics):
    return {"config": {"data": {"pair": pair}, "mapping": {"alpha": a, "attn_alpha": b}, "seed": seed},
            "metrics": metrics, "run_dir": f"{pair}-{a}-{b}-{seed}"}


def test_sparse_outputs_beat_softmax_by_more_than_the_seed_spread():
    paperlike = {"medium": grid(lambda a, b: 80.0 + (2.0 if a > 1 else 0.0))}
    row = claims.sparse_outputs_beat_softmax(paperlike)
    assert row[-1] == "holds" and "one seed per cell" in row[1] and "attention α 1: α 1.5 +2.00, α 2 +2.00" in row[2]
    # the same 2-point lead with seeds 3 points apart is within the noise
    noisy = {"medium": grid(lambda a, b: 80.0 + (2.0 if a > 1 else 0.0), seeds=2, jitter=3.0)}
    row = claims.sparse_outputs_beat_softmax(noisy)
    assert row[-1] == "inconclusive" and "largest seed spread 3.00" in row[1]
    collapsed = {"medium": grid(lambda a, b: 80.0 - (10.0 if a == 1 and b > 1 else 0.0) + (1.0 if a > 1 else 0.0))}
    assert claims.sparse_outputs_beat_softmax(collapsed)[-1] == "holds"
    worse = {"medium": grid(lambda a, b: 80.0 - (1.0 if a == 2 else 0.0))}
    assert claims.sparse_outputs_beat_softmax(worse)[-1] == "does not hold"
    missing = {"medium": {k: v for k, v in grid(lambda a, b: 80.0).items() if k != (2.0, 1.5)}}
    assert claims.sparse_outputs_beat_softmax(missing)[-1].startswith("untested (medium: a cell of attention α 1.5")
    assert claims.sparse_outputs_beat_softmax({})[-1] == "untested (no inflection setting run)"


def test_attention_matters_less_uses_the_3_point_rule():
    ok = {"medium": grid(lambda a, b: 70.0 + 5 * (a > 1) + 0.5 * b)}     # attention spread 0.5, output spread 5
    row = claims.attention_matters_less(ok)
    assert row[-1] == "holds" and "attention-α spread at output α 1/1.5/2 = 0.50/0.50/0.50" in row[2]
    # the committed cpu grid's collapse: at output α 1, attention α 1.5 and 2 lose 10 and 15 points
    collapse = {"medium": grid(lambda a, b: 70.0 + 3 * (a > 1) - (20 * (b - 1) if a == 1 else 0.0))}
    row = claims.attention_matters_less(collapse)
    assert row[-1] == "does not hold" and "20.00/0.00/0.00" in row[2]
    incomplete = {"medium": {(1.0, 1.0): [rec(70.0)]}}
    assert claims.attention_matters_less(incomplete)[-1] == "untested (medium: the 3×3 grid is not complete)"


def test_shares_are_those_of_the_dev_best_configuration():
    g = grid(lambda a, b: 70.0, val_single_share=0.2, val_exact_share=0.3)
    g[(2.0, 2.0)] = [rec(90.0, dev=60.0, val_single_share=0.9, val_exact_share=0.9)]   # best on test, not on dev
    g[(1.5, 1.5)] = [rec(70.0, dev=80.0, val_single_share=0.60, val_exact_share=0.85)]  # best on dev
    row = claims.shares_approach_paper({"medium": g}, REF)
    assert row[-1] == "holds" and "output α 1.5 / attention α 1.5: single 0.60 (paper 0.66), exact 0.85" in row[2]
    g[(1.5, 1.5)] = [rec(70.0, dev=80.0, val_single_share=0.40, val_exact_share=0.85)]
    assert claims.shares_approach_paper({"medium": g}, REF)[-1] == "does not hold"
    partial = {"medium": {k: v for k, v in g.items() if k[0] == 1.0}}                   # only the softmax-output row
    assert claims.shares_approach_paper(partial, REF)[-1] == ("untested (medium: the 3×3 grid is not complete, so the "
                                                              "dev-best configuration is not known)")
    old = {"medium": grid(lambda a, b: 70.0)}                                            # no val_* shares recorded
    assert claims.shares_approach_paper(old, REF)[-1].startswith("untested (medium: the records have no dev shares")


def test_entmax15_best_in_mt_and_table3_ordering():
    recs = []
    for pair, bleus in {"de-en": (20.0, 22.0, 19.0), "ja-en": (15.0, 16.0, 15.5)}.items():
        for a, bleu, att, sup in zip(A, bleus, (20.0, 5.0, 3.0), (4000.0, 12.0, 6.0)):
            recs.append(mt_rec(pair, a, a, bleu_tok=bleu, attn_support=att, out_support=sup))
    row = claims.entmax15_best_in_mt(recs)
    assert row[-1] == "holds" and "ja-en: softmax 15.00, 1.5-entmax 16.00, sparsemax 15.50" in row[2]
    assert claims.table3_ordering(recs)[-1] == "holds"
    recs[0]["metrics"]["bleu_tok"] = 23.0                         # de-en softmax ahead of 1.5-entmax
    recs[2]["metrics"]["attn_support"] = 6.0                      # de-en sparsemax attends more than 1.5-entmax
    assert claims.entmax15_best_in_mt(recs)[-1] == "does not hold"
    assert claims.table3_ordering(recs)[-1] == "does not hold"
    assert claims.entmax15_best_in_mt(recs[:5])[-1] == "untested (ja-en: a mapping has no finished run)"
    assert claims.entmax15_best_in_mt([])[-1] == "untested (no MT run)"


def test_entmax15_best_in_mt_needs_a_significant_bootstrap():
    recs = [mt_rec("de-en", a, a, bleu_tok=b) for a, b in zip(A, (39.14, 39.12, 37.43))]
    assert claims.entmax15_best_in_mt(recs)[-1] == "does not hold"               # one seed, no test: a -0.02 loss
    row = claims.entmax15_best_in_mt(recs, {("de-en", 1.0): 0.40, ("de-en", 2.0): 0.001})
    assert row[-1] == "inconclusive" and "p 0.400" in row[2]                      # the bootstrap calls it a tie
    recs[1]["metrics"]["bleu_tok"] = 40.0
    assert claims.entmax15_best_in_mt(recs, {("de-en", 1.0): 0.01, ("de-en", 2.0): 0.001})[-1] == "holds"


def test_sparser_attention_and_the_grid_margin_from_table2_seeds():
    grid_recs = [mt_rec("de-en", 1.5, b, val_acc_best=v) for b, v in ((1.0, 68.21), (1.5, 67.48), (2.0, 66.67))]
    row = claims.sparser_attention_helps(grid_recs, {})
    assert row[-1] == "does not hold" and row[2] == "α 1: 68.21, α 1.5: 67.48, α 2: 66.67"
    assert "one seed per cell" in row[1]
    # a second seed of the Table 2 cells (α tied) measures a 2-point spread: the same grid is then within the noise
    seeds = [mt_rec("de-en", a, a, seed=s, val_acc_best=67.0 + 2 * s, bleu_tok=30.0) for a in A for s in (0, 1)]
    row = claims.sparser_attention_helps(grid_recs + seeds, {})
    assert row[-1] == "inconclusive" and "seed spread of the de-en Table 2 cells 2.00" in row[1]
    assert claims.sparser_attention_helps(grid_recs[1:], {})[-1].startswith("untested")


def test_output_alpha_optimum_interior_needs_three_points():
    recs = [mt_rec("de-en", a, 1.5, val_acc_best=v) for a, v in ((1.0, 60.0), (1.5, 63.0), (2.0, 61.0))]
    row = claims.output_optimum_interior(recs, {})
    assert row[-1] == "holds" and row[2] == "α 1: 60.00, α 1.5: 63.00, α 2: 61.00"
    recs[2]["metrics"]["val_acc_best"] = 64.0
    assert claims.output_optimum_interior(recs, {})[-1] == "does not hold"
    assert claims.output_optimum_interior(recs[:2], {})[-1] == "untested (2 output-α point(s) run, 3 needed)"


def test_claims_table_has_one_row_per_claim_and_untested_mt_without_mt():
    text = claims.claims_text("cpu", {"medium": grid(lambda a, b: 80.0 + (a > 1))}, None, REF)
    rows = [line for line in text.splitlines() if line.startswith("| ") and not line.startswith("| claim")]
    assert len(rows) == 7 and all(r.count("|") == 5 for r in rows)      # no stray pipes inside cells
    assert sum("untested (MT not run in this profile)" in r for r in rows) == 4
    ensembles = {"medium": grid(lambda a, b: 81.0 + (a > 1))}
    text = claims.claims_text("cpu", {"medium": grid(lambda a, b: 80.0 + (a > 1))}, None, REF, ensembles)
    assert "| sparse outputs (α 1.5, 2) beat a softmax output (Table 1, ensembles) |" in text


def test_verdict_is_inconclusive_within_the_margin():
    assert claims.verdict([2.0, 3.0], 1.0) == "holds"
    assert claims.verdict([2.0, 0.5], 1.0) == "inconclusive"
    assert claims.verdict([2.0, -1.5], 1.0) == "does not hold"
    assert claims.verdict([2.0, 0.0], 0.0) == "inconclusive"                 # a tie, even with no noise measured
    assert claims.verdict([2.0, 3.0], 0.0, [True, False]) == "inconclusive"  # not significant by the bootstrap
    assert claims.verdict([2.0, -3.0], 0.0, [True, False]) == "inconclusive"
    assert claims.combine(["holds", "inconclusive"]) == "inconclusive"
    assert claims.combine(["holds", "does not hold", "inconclusive"]) == "does not hold"
    assert claims.combine(["holds", "holds"]) == "holds"


def test_ensemble_row_uses_the_single_models_seed_spread():
    singles = {"medium": grid(lambda a, b: 80.0 + (a > 1), seeds=3, jitter=1.0)}       # spread 2 points
    margins = {"medium": claims.seed_spread([[r["metrics"]["acc"] for r in v] for v in singles["medium"].values()])}
    ens = {"medium": grid(lambda a, b: 82.0 + 1.5 * (a > 1))}                          # ensembles lead by 1.5
    row = claims.sparse_outputs_beat_softmax(ens, ensemble=True, margins=margins)
    assert row[0].endswith("(Table 1, ensembles)") and row[-1] == "inconclusive" and "2.00" in row[1]
    ens = {"medium": grid(lambda a, b: 82.0 + 3.0 * (a > 1))}
    assert claims.sparse_outputs_beat_softmax(ens, ensemble=True, margins=margins)[-1] == "holds"
    # the cpu plan ensembles output α and attention α in {1, 2} only: the row judges those cells
    corners = {"medium": {k: v for k, v in ens["medium"].items() if 1.5 not in k}}
    row = claims.sparse_outputs_beat_softmax(corners, ensemble=True, margins=margins)
    assert row[-1] == "holds" and "at attention α 1, 2" in row[1] and "attention α 2: α 2 +3.00" in row[2]
    # no ensemble finished yet, or only softmax-output ones: untested, not a vacuous "holds" (found on the cpu plan's
    # partial records, where the ensembles run last)
    for partial in ({"medium": {}}, {"medium": {(1.0, 1.0): [rec(80.0)], (1.0, 2.0): [rec(79.0)]}}):
        row = claims.sparse_outputs_beat_softmax(partial, ensemble=True, margins=margins)
        assert row[-1] == "untested (medium: no ensemble of a softmax and a sparse output has finished)", partial
