"""sparselab.reports.martins2016 in-process, on a few hand-made run records (no training)."""
from __future__ import annotations

import re

import pytest

from sparselab.locations import data_root
from sparselab.engine import record
from sparselab.reports.martins2016 import report as rep
from sparselab.reports.martins2016 import claims, figure3, runs as R, table2
from sparselab.reports.claims import Verdict as V

REF = {"table2_multilabel": {"reported_summary": " sparsemax is competitive \n", "protocol": "5-fold CV",
                             "datasets": ["scene", "emotions"], "systems": ["logistic", "softmax", "sparsemax"],
                             "metric": "micro/macro F1"},
       "figure3_label_proportions": {"reported_summary": "sparsemax wins for long documents", "setup": "K in {10, 50}"}}
REUTERS = "dataset 'reuters_rcv1v2' not found: expected <data root>/mulan/rcv1v2"


def t2_record(dataset, loss, micro, macro, label, splits=1):
    per_split = [{"l2": 0.01 * (i + 1), "threshold": 0.25, "lbfgs_iterations": 10} for i in range(splits)]
    metrics = {"micro_f1": micro, "macro_f1": macro, "label_f1": label, "cv_objective": (micro + macro) / 2}
    if splits > 1:
        metrics.update(micro_f1_std=0.01, macro_f1_std=0.02)
    return {"status": "finished", "experiment": "martins2016/table2_multilabel", "config_hash": f"{dataset}{loss}",
            "config": {"data": {"name": dataset}, "task": {"loss": loss}},
            "metrics": metrics,
            "extra": {"l2_grid": [1e-4, 1e-2], "cv_folds": 2, "cv_objective": "micro_macro_mean", "max_iter": 50,
                      "threshold_name": "t", "per_split": per_split, "split": f"{splits} outer folds",
                      "reductions": [f"{dataset}: 2 folds instead of 5"],
                      # scene: two label-less test rows removed; cal500: one file; yeast: a record from before removal
                      **({} if dataset == "yeast" else {
                          "unlabelled_removed": {"all": 0} if dataset == "cal500" else {"train": 0, "test": 2},
                          "examples_read": {"all": 502} if dataset == "cal500" else {"train": 100, "test": 52}})}}


def f3_record(K, mix, L, loss, mse, js, seeds=(0,)):
    return {"status": "finished", "experiment": "martins2016/figure3_label_proportions",
            "config": {"data": {"num_labels": K, "mixture": mix, "length": L, "word_concentration": 0.1},
                       "task": {"loss": loss, "max_iter": 50}},
            "metrics": {"mse": mse, "js": js, "mse_std": 0.001, "js_std": 0.002},
            "extra": {"seeds": list(seeds), "n_train": 100, "n_test": 50, "l2_grid": [1e-4], "cv_folds": 2,
                      "label_counts": "Poisson(1) by rejection sampling", "reductions": ["100 documents"]}}


@pytest.fixture
def runs(tmp_path):
    root = tmp_path / "runs"
    t2 = root / "smoke" / "martins2016" / "table2_multilabel"
    # scene: sparsemax best micro, a logistic/softmax tie on macro; yeast (extra): softmax missing; cal500: 5 folds
    for d, l, mi, ma, la, n in [("scene", "logistic", 0.60, 0.70, 0.50, 1), ("scene", "softmax", 0.61, 0.70, 0.52, 1),
                                ("scene", "sparsemax", 0.65, 0.69, 0.51, 1), ("yeast", "logistic", 0.4, 0.3, 0.2, 1),
                                ("yeast", "sparsemax", 0.5, 0.2, 0.1, 1), ("cal500", "logistic", 0.3, 0.1, 0.1, 5),
                                ("cal500", "softmax", 0.2, 0.1, 0.1, 5), ("cal500", "sparsemax", 0.1, 0.2, 0.1, 5)]:
        record.write(t2 / f"data.name={d},task.loss={l}", t2_record(d, l, mi, ma, la, n))
    f3 = root / "smoke" / "martins2016" / "figure3_label_proportions"
    for L, (smx, spx) in {200.0: (0.02, 0.03), 1000.0: (0.02, 0.01)}.items():
        record.write(f3 / f"L={L},softmax", f3_record(10, "uniform", L, "softmax", smx, smx, seeds=(0, 1)))
        record.write(f3 / f"L={L},sparsemax", f3_record(10, "uniform", L, "sparsemax", spx, spx, seeds=(0, 1)))
    return root


def table_rows(text: str, title: str) -> dict[str, list[str]]:
    block = text.split(f"## {title}")[1].split("\n## ")[0]
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in block.splitlines() if line.startswith("| ")]
    return {c[0]: c[1:] for c in cells[1:]}


def test_table2_cells_best_in_bold_and_missing(runs):
    recs, by = R.load_table2(runs, "smoke")
    assert len(recs) == 8
    datasets = table2.table2_datasets(by)
    assert datasets == ["scene", "cal500", "reuters_rcv1v2", "yeast"]
    proto = table2.table2_protocol(by)
    f1 = table2.table2_f1_cells(by, datasets, proto.notes)
    rows = {r[0]: r[1:] for r in f1.rows}
    assert rows["scene (dataset of the paper)"] == ["60.00", "61.00", "**65.00**", "**70.00**", "**70.00**", "69.00"]
    assert rows["yeast (extra dataset)"] == ["40.00", "–", "**50.00**", "**30.00**", "–", "20.00"]
    assert rows["cal500 (dataset of the paper)"][0] == "**30.00 ± 1.00**" and rows["cal500 (dataset of the paper)"][5] == "**20.00 ± 2.00**"
    assert rows["reuters_rcv1v2 (dataset of the paper)"] == ["data not available here", "", "", "", "", ""]
    # ties count for each tied loss; datasets missing a loss do not count
    assert dict(f1.wins) == {"sparsemax": 2, "logistic": 2, "softmax": 1} and f1.cells_all == 4
    assert dict(f1.wins_paper) == dict(f1.wins) and f1.cells_paper == 4
    assert proto.notes == {"cal500": "5 outer folds"} and proto.max_iter == 50
    assert proto.reductions == ["2 folds instead of 5 (scene, cal500, yeast)"]


def test_table2_text(runs, tmp_path):
    out = tmp_path / "o"
    out.mkdir()
    recs, reductions, _ = table2.write_table2("smoke", out, runs, ref=REF, reuters_msg=REUTERS)
    text = (out / "table2_multilabel.md").read_text()
    assert text.startswith("# Martins & Astudillo (2016), Table 2: multi-label classification\n\nProfile: **smoke**. Runs: 8.")
    assert f"Reuters RCV1-v2: {REUTERS}\n" in text
    assert ("on the paper's datasets available here: logistic 2, softmax 1, sparsemax 2 of 4 (dataset, metric) cells"
            in text)
    assert table_rows(text, "Ours: mean per-label F1 (%)")["scene"] == ["50.00", "**52.00**", "51.00"]
    hyper = [line for line in text.splitlines() if line.startswith("| cal500 | logistic")]
    assert hyper == ["| cal500 | logistic | 0.01/0.02/0.03/0.04/0.05 | t=0.25/t=0.25/t=0.25/t=0.25/t=0.25 | 0.2000 | 50 |"]
    assert "- Reported summary: sparsemax is competitive\n" in text and "- Metric: micro/macro F1." in text
    assert reductions == ["2 folds instead of 5 (scene, cal500, yeast)"]
    # the header counts the label-less examples removed per dataset and file
    assert "  - scene: train 0 of 100; test 2 of 52\n  - cal500: all 0 of 502\n" in text
    assert "  - yeast: not recorded (a run from before the removal: it kept them)" in text
    # the claims table closes the report; its last row, our earlier rule: gaps to the best (points) 3.75 / 6 / 5.25
    last = text.rstrip().splitlines()[-1]
    assert last.startswith("| ours: the three losses perform comparably") and \
        "**does not hold**" in last and "logistic 3.75, softmax 6.00, sparsemax 5.25; sparsemax best in 2" in last
    # records without bootstrap replicates: no noise, every difference counts (and the text says so)
    assert "not in these records, so every difference counts" in text


def test_table2_without_runs(tmp_path):
    out = tmp_path / "o"
    out.mkdir()
    recs, _, _ = table2.write_table2("cpu", out, tmp_path, ref={}, reuters_msg=REUTERS)
    text = (out / "table2_multilabel.md").read_text()
    assert recs == [] and "| reuters_rcv1v2 (dataset of the paper) | data not available here |" in text
    assert "Paper (reference)" in text and "Reported summary" not in text


def test_reuters_message_names_no_absolute_path_and_no_fetch_that_refuses(tmp_path):
    msg = table2.reuters_status(tmp_path)
    assert msg.startswith("dataset 'reuters_rcv1v2' not found")
    assert str(tmp_path) not in msg and "<data root>/mulan/" in msg
    # the registry has no files for it, so `fetch` refuses it: the line names no fetch command (issue 35)
    assert "sparselab.data fetch" not in msg and "fetch refuses it" in msg


def test_figure3_cells_and_crossover(runs, tmp_path):
    recs, data = R.load_figure3(runs, "smoke")
    assert figure3.figure3_axes(data) == ([10], ["uniform"], [200.0, 1000.0])
    assert figure3.figure3_rows(data, 10, "uniform", [200.0, 1000.0])[0] == [
        "200", "0.02000 ± 0.00100", "0.03000 ± 0.00100", "0.02000 ± 0.00200", "0.03000 ± 0.00200"]
    one_seed = f3_record(10, "uniform", 5.0, "softmax", 0.5, 0.25)
    assert figure3.figure3_cell(one_seed, "js") == "0.25000" and figure3.figure3_cell(None, "mse") == "–"
    out = tmp_path / "o"
    out.mkdir()
    figure3.write_figure3("smoke", out, runs, ref=REF)
    text = (out / "figure3_label_proportions.md").read_text()
    assert "## K = 10, uniform mixtures" in text and "K = 50" not in text
    assert ("- K=10, uniform, MSE: sparsemax better from L = 1000 on (softmax better or equal at L = 200); "
            "1 of 2 L values favour sparsemax") in text
    assert "- Setup: K in {10, 50}" in text
    assert "labels per document Poisson(1) by rejection sampling;" in text
    assert "Differences from the paper profile (config and sweep compared):" in text
    assert "`task.cv_folds`: None here, 5 in the paper profile" in text
    # the claims on these numbers are rows of claims.md
    assert text.endswith(claims.POINTER)
    assert "Welch t per point" in claims.figure3_claims(recs)[0].test
    assert (out / "figure3_label_proportions.png").stat().st_size > 0


@pytest.mark.parametrize("diffs, expected", [
    ([], "no data"),
    ([(1, -0.1), (2, -0.2)], "sparsemax better at every L (1–2)"),
    ([(1, -0.1), (2, 0.0)], "no crossover: softmax better or equal at the largest L (1 of 2 L values favour sparsemax)"),
    ([(1, -0.1), (2, 0.1), (5, -0.1), (10, -0.2)],
     "sparsemax better from L = 5 on (softmax better or equal at L = 2); 3 of 4 L values favour sparsemax"),
])
def test_crossover(diffs, expected):
    assert figure3.crossover(diffs) == expected


def test_write_reports_and_index(runs, tmp_path):
    out = tmp_path / "report"
    out.mkdir()
    recs = rep.write_reports("smoke", out, {}, runs, ref=REF)      # the real Reuters message
    for f in out.iterdir():
        if f.suffix in (".md", ".html", ".jsonl"):
            text = f.read_text()
            assert str(data_root()) not in text and str(tmp_path) not in text, f.name
    assert len(recs) == 12
    html = (out / "index.html").read_text()
    assert html.count("<table>") >= 5
    assert "<td><strong>65.00</strong></td>" in html
    assert "<img src='figure3_label_proportions.png'" in html
    assert "Profile: <strong>smoke</strong>" in html and "**" not in html
    assert str(tmp_path) not in html and str(tmp_path) not in (out / "runs.jsonl").read_text()
    nums = rep.numbers(runs, "smoke")
    assert nums["table2/scene/sparsemax"]["micro_f1"] == 0.65 and nums["table2/cal500/logistic"]["l2[4]"] == 0.05
    assert nums["figure3/K=10/uniform/L=1000/sparsemax"] == {"mse": 0.01, "js": 0.01, "mse_std": 0.001, "js_std": 0.002}


# ---------------------------------------------------------------- the claims' rules
def test_weaker_claim_is_ours_and_labelled():
    close = [{"logistic": 70.0, "softmax": 71.0, "sparsemax": 72.0}]
    c = claims.weaker_claim(close, 1)
    assert c.ours and c.verdict is V.HOLDS and "logistic 2.00, softmax 1.00, sparsemax 0.00" in c.detail
    assert claims.weaker_claim([{"logistic": 72.0, "softmax": 70.0, "sparsemax": 71.0}], 1).verdict is V.FAILS
    assert claims.weaker_claim([], 0).verdict is V.UNTESTED


def f3_rows(diff, sd=0.001, lengths=(200.0, 400.0, 600.0, 1000.0)):
    """Figure 3 rows of 3 seeds: softmax 0.05 at every L, sparsemax 0.05 + diff(L)."""
    rows = []
    for L in lengths:
        for loss, v in (("softmax", 0.05), ("sparsemax", 0.05 + diff(L))):
            r = f3_record(10, "uniform", L, loss, v, v, seeds=(0, 1, 2))
            r["metrics"].update(mse_std=sd, js_std=sd)
            rows.append(r)
    return rows


def test_figure3_rows_are_welch_tests_of_seed_means_with_holm():
    better = claims.figure3_claims(f3_rows(lambda L: -0.01 if L >= 600 else 0.0))
    assert better[0].verdict is V.HOLDS and better[1].verdict is V.HOLDS     # similar below 400 (TOST ±10 %)
    from scipy import stats as st
    p = st.ttest_ind_from_stats(0.04, 0.001, 3, 0.05, 0.001, 3, equal_var=False).pvalue
    assert better[0].p == pytest.approx(min(1.0, 4 * p))                    # 4 points at L ≥ 600, Holm
    worse = claims.figure3_claims(f3_rows(lambda L: 0.01))
    assert worse[0].verdict is V.FAILS and worse[1].verdict is V.FAILS
    noisy = claims.figure3_claims(f3_rows(lambda L: -0.001 if L >= 600 else 0.0, sd=0.01))
    assert noisy[0].verdict is V.INCONCLUSIVE and noisy[1].verdict is V.INCONCLUSIVE


def snli_res(acc):
    """table3.select over records: ``acc[variant]`` the test accuracy per seed (dev the same)."""
    from sparselab.reports.martins2016 import table3
    by = {(v, 0.1, s): {"metrics": {"dev_acc": a, "test_acc": a, "attended_words": 6.0 if v == "sparse" else 15.0,
                                    "premise_words": 15.0}} for v, accs in acc.items() for s, a in enumerate(accs)}
    return table3.select(by)


def test_snli_rows_paired_t_tost_and_holm():
    seeds = range(8)
    base = [70.0 + 0.3 * (s % 3) for s in seeds]
    res = snli_res({"none": [b - 3 for b in base], "logistic": [b - 2.5 + 0.1 * (s % 2) for s, b in enumerate(base)],
                    "soft": base, "sparse": [b + (0.1 if s % 2 else -0.1) for s, b in enumerate(base)]})
    similar, slightly, beat, few, examples = claims.snli_claims(res)
    assert similar.verdict is V.HOLDS and slightly.verdict is V.INCONCLUSIVE and "at 80 % power" in slightly.label
    assert beat.verdict is V.HOLDS and few.verdict is V.HOLDS and examples.verdict is V.UNTESTED
    assert claims.snli_claims(res, [("sparse", "entailment", "entailment"), ("sparse", "neutral", "contradiction")]
                              )[-1].verdict is V.FAILS
    one = snli_res({"soft": [70.0], "sparse": [71.0]})
    assert claims.snli_claims(one)[0].verdict is V.UNTESTED


# ---------------------------------------------------------------- Table 2: the noise and the paper's claims (issue 37)
def cell(name, scores, spread=0.0, seed=0):
    """A cell whose losses' replicates are the score plus independent noise of std ``spread`` (points)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    return claims.Cell(name, scores, {l: list(v + spread * rng.standard_normal(400)) for l, v in scores.items()})


def test_a_cell_is_won_only_beyond_the_paired_noise():
    quiet = cell("a", {"logistic": 70.0, "softmax": 70.5, "sparsemax": 72.0}, spread=0.1)
    assert quiet.winners == {"sparsemax"}
    noisy = cell("b", {"logistic": 70.0, "softmax": 70.5, "sparsemax": 72.0}, spread=2.0)
    assert noisy.winners == {"logistic", "softmax", "sparsemax"}          # a tie shares the cell
    # pairing: a constant offset on the same resamples is decided, however wide each loss's own spread
    paired = claims.Cell("c", {"logistic": 70.0, "softmax": 70.5, "sparsemax": 69.0},
                         {"logistic": [70.0 + x for x in range(-5, 6)], "softmax": [70.5 + x for x in range(-5, 6)],
                          "sparsemax": [69.0 + x for x in range(-5, 6)]})
    assert paired.winners == {"softmax"} and paired.se("softmax", "logistic") == 0.0
    assert claims.Cell("d", {"logistic": 1.0, "softmax": 1.0, "sparsemax": 0.5}).winners == {"logistic", "softmax"}


def test_similar_claim_is_a_tost_within_one_point():
    close = [cell("a", {"logistic": 70.4, "softmax": 70.6, "sparsemax": 70.9}, 0.1)]
    assert claims.similar_claim(close, "s").verdict is V.HOLDS
    # 3 points apart inside a wide noise: no longer "similar" on a non-significant difference alone
    within_noise = [cell("a", {"logistic": 67.0, "softmax": 70.0, "sparsemax": 70.0}, 2.0)]
    assert claims.similar_claim(within_noise, "s").verdict is V.INCONCLUSIVE
    far = [cell("a", {"logistic": 60.0, "softmax": 70.0, "sparsemax": 70.0}, 0.5)]
    c = claims.similar_claim(close + far, "s")
    assert c.verdict is V.FAILS and "1 beyond it" in c.detail and c.estimate == pytest.approx(10.0)
    assert claims.similar_claim([], "s").verdict is V.UNTESTED


def test_advantage_is_counted_as_the_paper_counts():
    sp = {"logistic": 70.0, "softmax": 70.0, "sparsemax": 75.0}
    lo = {"logistic": 75.0, "softmax": 70.0, "sparsemax": 70.0}
    ref = {"reported_summary": "sparsemax is best in 4 of the 10 (dataset, metric) cells"}
    won = claims.advantage_claim([cell("a", sp, 0.1), cell("b", sp, 0.1), cell("c", lo, 0.1)], "s", ref)
    assert won.verdict is V.HOLDS and won.paper == "sparsemax best in 4 of 10"
    lost = claims.advantage_claim([cell("a", sp, 0.1), cell("b", lo, 0.1), cell("c", lo, 0.1)], "s")
    assert lost.verdict is V.FAILS and "logistic 2 of 3, softmax 0 of 3, sparsemax 1 of 3" in lost.detail


def t2_boot_records(root, scores, spread):
    """Table 2 records of the cpu profile with bootstrap replicates: ``scores[(dataset, loss)] = (micro, macro)``."""
    import numpy as np

    t2 = root / "cpu" / "martins2016" / "table2_multilabel"
    for (d, l), (mi, ma) in scores.items():
        rng = np.random.default_rng(hash((d, l)) % 2**32)
        r = t2_record(d, l, mi, ma, 0.5)
        r["config"]["experiment_name"] = rep.T2
        r["wall_time_s"] = 90.0
        r["extra"]["job_cpu_time_s"] = 60.0
        for p in r["extra"]["per_split"]:
            p["bootstrap"] = {"samples": 300, "seed": [0, 0], **{k: list(v + spread * rng.standard_normal(300))
                                                                 for k, v in (("micro_f1", mi), ("macro_f1", ma))}}
        record.write(t2 / f"{d},{l}", r)


def test_table2_only_rebuilds_from_its_committed_records_and_keeps_the_rest(tmp_path):
    runs, out = tmp_path / "runs", tmp_path / "report"
    out.mkdir()
    scores = {("scene", "logistic"): (0.60, 0.60), ("scene", "softmax"): (0.70, 0.70),
              ("scene", "sparsemax"): (0.71, 0.72), ("emotions", "logistic"): (0.50, 0.50),
              ("emotions", "softmax"): (0.50, 0.51), ("emotions", "sparsemax"): (0.55, 0.56)}
    t2_boot_records(runs, scores, spread=0.002)
    # the committed report of an earlier full run: Figure 3 and SNLI rows in runs.jsonl, an old Table 2 row
    old_rows = [{"run": "cpu/x/f3", "config": {"experiment_name": rep.F3}}, {"run": "cpu/x/t2",
                                                                              "config": {"experiment_name": rep.T2}}]
    (out / "runs.jsonl").write_text("".join(__import__("json").dumps(r) + "\n" for r in old_rows))
    (out / "figure3_label_proportions.md").write_text("committed figure 3\n")
    rep.write_reports("cpu", out, {"only": [rep.T2]}, runs, ref=REF, reuters_msg=REUTERS)
    text = (out / "table2_multilabel.md").read_text()
    assert (out / "figure3_label_proportions.md").read_text() == "committed figure 3\n"
    assert [__import__("json").loads(x)["run"] for x in (out / "runs.jsonl").read_text().splitlines()] == ["cpu/x/f3"]
    # each score ± its bootstrap std (0.2 points drawn); sparsemax beyond softmax by more than the paired noise
    assert re.search(r"\| scene \(dataset of the paper\) \| 60\.00 ± 0\.[12]\d \| 70\.00 ± 0\.[12]\d \| \*\*71\.00 ± 0\.[12]\d\*\* \|",
                     text)
    assert "| scene | 2 | 2 | 1 | 3 | 4.5 | 3.0 | 2 folds instead of 5 |" in text
    rows = {line.split(" | ")[0].lstrip("| "): line for line in text.splitlines() if line.startswith("| ")}
    similar = rows['"the three losses perform very similarly" (§4.2, Table 2)']
    assert "**does not hold**" in similar                                 # scene logistic 10 points behind
    advantage = rows['"a slight advantage of sparsemax" (§4.2, Table 2)']
    assert "**holds**" in advantage and "logistic 0 of 4, softmax 0 of 4, sparsemax 4 of 4" in advantage
    # a clone without run directories: --report-only rebuilds the same Table 2 from the two committed files
    clone = tmp_path / "empty_runs"
    assert len(rep.committed(out, clone)) == 6
    rep.write_reports("cpu", out, {}, clone, ref=REF, reuters_msg=REUTERS)
    assert (out / "table2_multilabel.md").read_text() == text
    assert (out / "figure3_label_proportions.md").read_text() == "committed figure 3\n"


def test_paper_claims_are_untested_without_a_noise_measure():
    bare = [claims.Cell("a", {"logistic": 60.0, "softmax": 70.0, "sparsemax": 71.0})]
    assert claims.similar_claim(bare, "s").label == ("untested (no paper dataset with all three losses and a "
                                                     "test-set bootstrap)")
    assert claims.advantage_claim(bare, "s").verdict is V.HOLDS           # a count of point estimates needs no noise
