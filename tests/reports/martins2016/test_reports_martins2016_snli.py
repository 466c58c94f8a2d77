"""sparselab.reports.martins2016.table3 and .table4 in-process, on hand-made run records (no training)."""
from __future__ import annotations

import pytest

from sparselab.engine import record
from sparselab.reports.martins2016 import report as rep
from sparselab.reports.martins2016 import claims, runs as R, table3, table4
from sparselab.reports.claims import Verdict as V

REF = {"table3_snli": {"reported_summary": "Soft and sparse perform similarly. ", "metric": "accuracy (%)",
                       "systems": ["no_attention", "sparse_attention"],
                       "context_rocktaschel2015_test": {"lstm": 77.6}}}
PREMISE = ["a", "boy", "rides", "a", "camel", "."]
WEIGHTS = {"logistic": [0.9, 0.2, 0.8, 0.1, 0.7, 0.6], "soft": [0.1, 0.3, 0.2, 0.05, 0.25, 0.1],
           "sparse": [0.0, 0.6, 0.0, 0.0, 0.4, 0.0], "entmax15": [0.0, 0.5, 0.1, 0.0, 0.4, 0.0],
           "learned": [0.0, 0.55, 0.05, 0.0, 0.4, 0.0]}
# test accuracy per (variant, l2, seed); dev = test + 1, except where noted
TEST = {"none": 50.0, "logistic": 51.0, "soft": 56.0, "sparse": 56.5, "entmax15": 56.2, "learned": 55.0}


def rec(variant, l2, seed, test, dev):
    m = {"dev_acc": dev, "test_acc": test}
    if variant != "none":
        m.update(attended_words=float(sum(w > 0 for w in WEIGHTS[variant])) + seed, premise_words=6.0)
    if variant == "learned":
        m["learned_alpha"] = 1.6 + 0.1 * seed
    examples = [] if variant == "none" else [
        {"split": "dev", "pair_id": "4876043682.jpg#2r1e", "line": 795, "premise": PREMISE,
         "hypothesis": ["a", "boy", "is", "riding", "an", "animal", "."], "gold": "entailment",
         "pred": "entailment", "weights": WEIGHTS[variant]}]
    extra = {"splits": {k: {"pairs": n, "dropped_no_gold": d, "file": f"snli_1.0/{k}.jsonl.gz", "lines": n + d}
                        for k, n, d in (("dev", 9842, 158), ("test", 9824, 176), ("train", 5498, 4))},
             "oov": {k: {"oov_token_rate": 0.003, "oov_type_rate": 0.05, "types": 1000} for k in ("train", "dev", "test")},
             "vectors": "glove_6b_50d", "embedding_dim": 50, "vocab_size": 10795, "vectors_found": 10121,
             "oov_policy": "a fixed random vector per word type", "examples": examples,
             "reductions": ["low-data: 5,498 training pairs (5,502 lines read) instead of SNLI's 550,152"]}
    config = {"task": {"attention": variant, "l2": l2, "lr": 3e-4, "batch_size": 64, "early_stopping_patience": 3,
                       "early_stopping_min_delta": 0.1, "examples": {"dev_pair_ids": ["4876043682.jpg#2r1e"]}},
              "seed": seed, "model": {"hidden_size": 100, "dropout": 0.1}, "data": {"lowercase": True},
              "trainer": {"max_epochs": 30}}
    return {"status": "finished", "experiment": R.T3, "config": config, "metrics": m, "extra": extra,
            "config_hash": f"{variant}{l2}{seed}"}


@pytest.fixture
def runs(tmp_path):
    root = tmp_path / "runs"
    base = root / "cpu" / "martins2016" / "table3_snli"
    for v, acc in TEST.items():
        for l2 in (0.0, 1e-3):
            for seed in (0, 1, 2):
                # l2=1e-3 is better on dev for soft only; test spread +-1 over seeds
                dev = acc + 1 + (2.0 if (v == "soft" and l2 == 1e-3) else 0.0) + 0.1 * seed
                test = acc + (seed - 1) * 1.0 + (5.0 if l2 == 1e-3 else 0.0)
                record.write(base / f"seed={seed},task.attention={v},task.l2={l2:g}", rec(v, l2, seed, test, dev))
    return root


def test_l2_is_chosen_per_variant_by_mean_dev_accuracy(runs):
    recs, by = table3.load_table3(runs, "cpu")
    assert len(recs) == 36 and ("soft", 1e-3, 2) in by
    res = table3.select(by)
    assert list(res) == list(table3.VARIANTS)
    assert res["soft"].l2 == 1e-3 and res["sparse"].l2 == 0.0          # ties on dev: the smaller L2
    assert res["soft"].test == pytest.approx((61.0, 1.0)) and res["sparse"].test == pytest.approx((56.5, 1.0))
    assert res["sparse"].seeds == [0, 1, 2] and res["sparse"].dev == pytest.approx((57.6, 0.1))
    assert res["sparse"].attended == pytest.approx((3.0, 1.0)) and res["none"].attended is None
    assert res["learned"].alpha == pytest.approx((1.7, 0.1))
    assert res["soft"].grid[0.0] == pytest.approx((57.1, 0.1, 3))


def test_mean_std_and_cells():
    assert table3.mean_std([1.0]) == (1.0, 0.0) and table3.mean_std([1.0, 3.0]) == (2.0, pytest.approx(2 ** 0.5))
    # mean ± standard error: 0.456 / sqrt(3) = 0.263
    assert table3.pm((55.123, 0.456), 3) == "55.12 ± 0.26" and table3.pm((55.123, 0.0), 1) == "55.12"
    assert table3.sd((55.123, 0.456), 3) == "0.46" and table3.sd((55.123, 0.0), 1) == "–"
    assert table3.pm(None, 3) == "–"


def test_every_pair_of_variants_is_compared_per_seed(runs):
    res = table3.select(table3.load_table3(runs, "cpu")[1])
    pairs = table3.paired_all(res)
    assert len(pairs) == 15 and list(pairs)[0] == ("none", "logistic")
    # every variant moves by (seed - 1) points with the seed, so the paired differences have no spread
    p = pairs[("soft", "sparse")]     # soft at L2 1e-3 (61 + 5 - 5 ... mean 61), sparse at 0 (56.5)
    assert (p.n, p.diff, p.se, p.relation) == (3, pytest.approx(4.5), pytest.approx(0.0), ">")
    rows = table3.paired_rows(pairs)
    assert ["soft − sparse", "3", "+4.50", "0.00", "soft > sparse"] in rows
    similar, slightly, beat, few, _ = claims.snli_claims(res)
    # soft − sparse +4.50 on every seed: far outside the ±1 point margin, sparse significantly less accurate
    assert similar.verdict is V.FAILS and slightly.verdict is V.FAILS and similar.estimate == pytest.approx(-4.5)
    assert few.verdict is V.HOLDS and few.detail.startswith("3.00 of 6.00 words")


def test_table3_text(runs, tmp_path):
    recs, red = rep.write_snli("cpu", tmp_path, runs, REF)
    text = (tmp_path / table3.TABLE3).read_text()
    assert text.startswith("# Martins & Astudillo (2016), Table 3: SNLI")
    assert "**Low-data experiment**: trained on 5,498 pairs" in text
    assert "dev: 9,842 pairs (158 dropped with gold label '-'" in text and "test: 9,824 pairs (176 dropped" in text
    assert "train: 0.30% of tokens, 5.00% of 1,000 word types" in text
    main = text.split("## Ours: accuracy")[1].split("\n## ")[0]
    rows = {line.split(" | ")[0].lstrip("| "): line for line in main.splitlines() if line.startswith("| ")}
    # mean ± standard error (std / sqrt(3)), and the std of test accuracy
    assert rows["SparseAttention (sparsemax)"] == ("| SparseAttention (sparsemax) | 0 | 3 | 57.60 ± 0.06 | 56.50 ± 0.58 | "
                                                   "1.00 | 3.00 ± 0.58 | 6.00 | – |")
    assert rows["learned-α entmax attention (beyond the paper)"].endswith("| 1.700 ± 0.058 |")
    assert "| SoftAttention (softmax) | 57.10 ± 0.06 (n=3) | **59.10 ± 0.06 (n=3)** |" in text
    assert "| soft − sparse | 3 | +4.50 | 0.00 | soft > sparse |" in text
    assert text.endswith(claims.POINTER) and "in part" not in text
    # the header lists where the paper profile differs (composed from conf/), e.g. its vectors
    assert "Differences from the paper profile (config and sweep compared):" in text
    assert "`data.vectors`: None here, glove_840b_300d in the paper profile" in text
    assert "L2 grid {0, 0.001} instead of the paper's {0, 0.0001, 0.0003, 0.001}" in text and red[-1].startswith("L2 grid")
    assert "- Reported summary: Soft and sparse perform similarly." in text
    assert "Rocktäschel et al. 2015, test accuracy on the full SNLI): lstm 77.6." in text
    assert "not_recovered: table3_values" in text


def test_table4_lists_every_nonzero_sparse_word_and_the_top_dense_ones(runs, tmp_path):
    rep.write_snli("cpu", tmp_path, runs, REF)
    text = (tmp_path / table4.TABLE4).read_text()
    assert "## dev pair 4876043682.jpg#2r1e (gold: entailment)" in text
    assert "Found in this profile's data: 1 of 1." in text and "are the paper's Table 4 examples" in text
    assert "unverified" not in text and "recollection" not in text
    assert text.endswith(claims.POINTER)
    assert "| SparseAttention (sparsemax) | entailment | 2/6 | boy (0.60), camel (0.40) |" in text
    assert "| 1.5-entmax attention (beyond the paper) | entailment | 3/6 | boy (0.50), rides (0.10), camel (0.40) |" in text
    # dense: the 5 largest in premise order, the smallest (a, 0.05) left out
    assert "| SoftAttention (softmax) | entailment | 6/6 | a (0.10), boy (0.30), rides (0.20), camel (0.25), . (0.10) |" in text
    assert "NoAttention" not in text.split("## dev pair")[1]
    assert table4.attended(["x", "y"], [0.0, 0.0], "sparse") == "–"
    assert (tmp_path / table4.HEATMAPS).stat().st_size > 0


def test_no_runs_write_placeholders_and_no_heatmap(tmp_path):
    recs, red = rep.write_snli("smoke", tmp_path, tmp_path / "empty", REF)
    assert recs == [] and red == []
    assert "No finished runs of this profile." in (tmp_path / table3.TABLE3).read_text()
    assert "No runs with attention in this profile." in (tmp_path / table4.TABLE4).read_text()
    assert not (tmp_path / table4.HEATMAPS).exists()


def test_heatmap_figure_one_panel_per_pair():
    from sparselab import plots

    fig = plots.heatmap_figure([("p1", ["a", "b", "c"], {"sparse": [0.0, 1.0, 0.0], "soft": [0.2, 0.5, 0.3]}),
                                ("p2", ["d"], {"sparse": [1.0]})], "title")
    assert len(fig.axes) == 3   # two panels and the colour bar
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == ["a", "b", "c"]
    plots.pyplot().close(fig)


def test_martins_index_and_numbers_include_table3(runs, tmp_path):
    out = tmp_path / "report"
    out.mkdir()
    recs = rep.write_reports("cpu", out, {}, runs, ref=REF, reuters_msg="n/a")
    assert len(recs) == 36
    html = (out / "index.html").read_text()
    assert "Table 3 (SNLI attention)" in html and "<img src='table4_heatmaps.png'" in html
    assert "Table 3 / Table 4 (SNLI): L2 grid" in html or "Table 3 / Table 4 (SNLI): low-data" in html
    nums = rep.numbers(runs, "cpu")
    assert nums["table3/sparse/l2=0/seed=1"] == {"dev_acc": 57.6, "test_acc": 56.5, "attended_words": 3.0,
                                                 "premise_words": 6.0}
    assert nums["table3/learned/l2=0.001/seed=0"]["learned_alpha"] == 1.6


def test_only_snli_rewrites_the_snli_reports_and_keeps_table2_and_figure3(runs, tmp_path):
    """``--only martins2016/table3_snli``: Table 2 / Figure 3 files and runs.jsonl stay as an earlier run wrote them."""
    out = tmp_path / "report"
    out.mkdir()
    kept = {"table2_multilabel.md": "# Table 2 from an earlier run\n", "runs.jsonl": '{"run": "earlier"}\n',
            "figure3_label_proportions.md": "# Figure 3 from an earlier run\n"}
    for name, text in kept.items():
        (out / name).write_text(text)
    recs = rep.write_reports("cpu", out, {"only": [R.T3]}, runs, ref=REF)
    assert len(recs) == 36 and {r["experiment"] for r in recs} == {R.T3}
    assert {name: (out / name).read_text() for name in kept} == kept
    assert len((out / rep.SNLI_RUNS).read_text().splitlines()) == 36
    assert (out / table3.TABLE3).stat().st_size > 0
    html = (out / "index.html").read_text()
    assert "unchanged by this one" in html and "Table 2 from an earlier run" in html
    # the whole plan again: runs.jsonl holds every run, the SNLI-only file goes
    rep.write_reports("cpu", out, {}, runs, ref=REF)
    assert not (out / rep.SNLI_RUNS).exists()
    assert len((out / "runs.jsonl").read_text().splitlines()) == 36
