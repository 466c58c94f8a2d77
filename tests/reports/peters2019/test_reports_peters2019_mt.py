"""The Peters MT reports (sparselab.reports.peters2019: table2, table3, figure4, figure2, ...) in-process, on hand-made run records of peters2019/table2_mt (no training)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from sacrebleu.metrics import BLEU

from sparselab.engine import record
from sparselab.reports import mt_common
from sparselab.reports.peters2019 import (convergence, figure2, figure4, header, report, runs as R, significance,
                                          table2 as T2, table3)
from support import table, write_translations

REF = {
    "table2_mt_bleu": {"columns": ["de-en", "en-de", "ja-en", "en-ja", "ro-en", "en-ro"],
                       "rows": {"softmax": [[25.70, 0.15], [21.86, 0.09], [20.22, 0.08], [25.21, 0.29], [29.12, 0.18],
                                            [28.12, 0.18]],
                                "entmax15": [[26.17, 0.13], [22.42, 0.08], [20.55, 0.30], [26.00, 0.31], [30.15, 0.06],
                                             [28.84, 0.10]],
                                "sparsemax": [[24.69, 0.22], [20.82, 0.19], [18.54, 0.11], [23.84, 0.37],
                                              [29.20, 0.16], [28.03, 0.16]]}},
    "table3_sparsity_deen": {"columns": ["attended_source_tokens", "target_words_nonzero"],
                             "rows": {"softmax": [24.25, 17993], "entmax15": [5.55, 16.13], "sparsemax": [3.75, 7.55]}},
    "figure4_alpha_grid_deen": {"attention_alpha_with_output_1.5": {1.0: 63.09, 1.5: 63.12, 2.0: 63.32},
                                "output_alpha": {1.0: 62.22, 1.5: 63.23, 2.25: 59.70},
                                "reported_summary": "the output alpha has a clear optimum"},
}
OPTIONS = {"mt": {"pairs": ["de-en", "en-ja"], "seeds": [0, 1],
                  "not_run": {"ro-en": "no training data offline (fetch wmt16_ro_en_full)",
                              "en-ro": "no training data offline"},
                  "figure4": {"attn": [1.0, 1.5, 2.0], "out": [1.25, 1.5]}}}

HYPS = ["a man in an orange hat .", "two dogs play in the snow .", "a girl is running on the beach ."]
REFS = ["a man in an orange hat staring at something .", "two dogs are playing in the snow .",
        "a little girl runs on the beach ."]


def config(pair, alpha, attn_alpha, seed):
    ps = {"train": "multi30k/train", "val": "multi30k/val", "test": "multi30k/test2016", "bpe_merges": 300,
          "bpe_joint": True, "val_every": 10, "max_steps": 30,
          "extra_test": {"iwslt17": "iwslt2017/test"} if "de" in pair else {}}
    return {"experiment_name": "peters2019/table2_mt", "seed": seed, "profile": {"name": "smoke"},
            "mapping": {"alpha": alpha, "attn_alpha": attn_alpha},
            "data": {"pair": pair, "pairs": {pair: ps}, "max_train": 300, "max_val": 20, "max_test": 20,
                     "max_extra_test": 20, "max_len": 50, "root": "/somewhere/data"},
            "model": {"enc_layers": 1, "dec_layers": 1, "emb_size": 32, "hidden_size": 32, "dropout": 0.0},
            "task": {"lr": 0.01, "batch_size": 32, "beam": 5, "length_norm": 0.0, "max_decode_len": 30,
                     "early_stopping_patience": None},
            "trainer": {"max_steps": 30, "val_check_interval": 10}, "paths": {"runs": "/somewhere/runs"}}


def bleu(hyps, refs, tokenize):
    return BLEU(tokenize=tokenize, force=True).corpus_score(hyps, [refs]).score


def mt_record(run_dir: Path, pair, alpha, attn_alpha, seed, n_hyps=3, val_acc=50.0, stopped=False, speed=1000.0):
    tgt = pair.split("-")[1]
    tok = "ja-mecab" if tgt == "ja" else "13a"
    hyps = HYPS[:n_hyps] + REFS[n_hyps:]          # more reference lines copied: a higher BLEU
    files, scores = write_translations(run_dir, "test2016", hyps, REFS, tok)
    metrics = {**scores, "exact_share": 0.25 * alpha, "single_share": 0.1, "attn_support": 10.0 / alpha,
               "out_support": 100.0 / alpha, "val_acc_best": val_acc, "steps": 30.0, "best_step": 20.0, "n": 3.0,
               "train_tgt_tokens_per_s": speed}
    extra_test = {}
    if "de" in pair:
        efiles, escores = write_translations(run_dir, "iwslt17-iwslt2017-test", HYPS[:1] + REFS[1:], REFS, tok)
        metrics.update(bleu_iwslt17=escores["bleu"], bleu_tok_iwslt17=escores["bleu_tok"])
        extra_test["iwslt17"] = {"spec": "iwslt2017/test", "files": efiles,
                                 "metrics": {**escores, "n": 3.0, "exact_share": 0.5, "single_share": 0.0}}
    rec = {"status": "finished", "experiment": "peters2019/table2_mt",
           "config": config(pair, alpha, attn_alpha, seed), "config_hash": f"{pair}-{alpha}-{attn_alpha}-{seed}",
           "git_commit": "abc", "finished_at": "2026-01-01T00:00:00", "threads": 1, "wall_time_s": 60.0,
           "metrics": metrics,
           "extra": {"pair": pair, "tgt_lang": tgt, "corpus": "multi30k", "target_vocab_size": 290,
                     "splits": {"train": {"spec": "multi30k/train", "n": 300}, "val": {"spec": "multi30k/val", "n": 20},
                                "test": {"spec": "multi30k/test2016", "n": 3},
                                **({"extra:iwslt17": {"spec": "iwslt2017/test", "n": 3}} if extra_test else {})},
                     "preprocessing": {"bpe": {"merges_learned": {"joint": 300}}},
                     "history": [{"step": 10, "val_acc": 10.0, "lr": 0.01}, {"step": 20, "val_acc": val_acc, "lr": 0.005},
                                 {"step": 30, "val_acc": val_acc - 1, "lr": 0.005}],
                     "stopped_early": stopped,
                     "bleu_tokenization": f"bleu: SacreBLEU tokenize={tok}; bleu_tok: tokenize=none",
                     "test": {"spec": "multi30k/test2016", "files": files,
                              "bleu_signature": f"nrefs:1|tok:{tok}", "bleu_tok_signature": "nrefs:1|tok:none"},
                     "extra_test": extra_test,
                     "autocomplete": [{"index": 0, "src": "Ein Mann .", "ref": "A man .", "steps": [
                         {"gold": "A", "gold_prob": 0.75, "support": 2, "candidates": [["A", 0.75], ["Two", 0.25]],
                          "shown_mass": 1.0},
                         {"gold": "man", "gold_prob": 0.5, "support": 4,
                          "candidates": [["man", 0.5], ["dog", 0.3]], "shown_mass": 0.8}]}]}}
    record.write(run_dir, rec)
    return rec


@pytest.fixture
def runs(tmp_path):
    """de-en: α 1 (seeds 0, 1), 1.5 (seed 0, plus a duplicate hand run of it), no α 2; attention grid point (1.5, 2)
    and output grid point (1.25, 1.5); en-ja: α 1.5; a failed run (ignored)."""
    root = tmp_path / "runs"
    base = root / "smoke" / "peters2019" / "table2_mt"
    mt_record(base / "de-en,a=1,s=0", "de-en", 1.0, 1.0, 0, n_hyps=3, val_acc=40.0, speed=1000.0)
    mt_record(base / "de-en,a=1,s=1", "de-en", 1.0, 1.0, 1, n_hyps=2, val_acc=42.0, speed=1000.0)
    mt_record(base / "de-en,a=1.5,s=0", "de-en", 1.5, 1.5, 0, n_hyps=1, val_acc=45.0, stopped=True, speed=900.0)
    dup = mt_record(base / "run" / "de-en,a=1.5", "de-en", 1.5, 1.5, 0, n_hyps=1, val_acc=45.0, stopped=True)
    dup["finished_at"] = "2025-01-01T00:00:00"          # older duplicate of the same config: dropped
    record.write(base / "run" / "de-en,a=1.5", {k: v for k, v in dup.items() if k != "run_dir"})
    mt_record(base / "de-en,a=1.5,b=2", "de-en", 1.5, 2.0, 0, val_acc=46.0)
    mt_record(base / "de-en,a=1.25,b=1.5", "de-en", 1.25, 1.5, 0, val_acc=47.0)
    mt_record(base / "en-ja,a=1.5", "en-ja", 1.5, 1.5, 0, n_hyps=2)
    failed = mt_record(base / "failed", "de-en", 2.0, 2.0, 0)
    record.write(base / "failed", {**failed, "status": "failed"})
    return root



# ---------------------------------------------------------------- cells
def test_mean_std_reference_and_status_cells():
    assert mt_common.mean_std([]) == "–" and mt_common.mean_std([25.0]) == "25.00"
    assert mt_common.mean_std([24.0, 26.0]) == "25.00 ± 1.41"              # sample std (n−1)
    assert mt_common.paper_cell(REF, T2.PAPER_T2, "entmax15", "ja-en") == "20.55 ± 0.30"
    assert mt_common.paper_cell(REF, T2.PAPER_T2, "entmax15", "xx-yy") == "–"
    assert mt_common.paper_cell({}, T2.PAPER_T2, "softmax", "de-en") == "–"
    opts = R.mt_options(OPTIONS)
    assert mt_common.pair_status(opts, "de-en") is None
    assert mt_common.pair_status(opts, "ro-en") == "no training data offline"
    assert mt_common.pair_status(opts, "en-de") == mt_common.NOT_RUN
    assert T2.ordering({"a": 1.0, "b": 3.0, "c": 3.001}) == "c = b > a" and T2.ordering({"a": None}) == "–"
    assert table3.num(17993.0) == "17,993" and table3.num(5.55) == 5.55 and table3.num(None) == "–"


def test_collect_drops_failed_runs_and_duplicate_configs(runs):
    recs = R.collect_mt(runs, "smoke")
    assert len(recs) == 6
    assert sorted(R.mt_key(r) for r in R.table2_records(recs)) == [
        ("de-en", 1.0, 1.0), ("de-en", 1.0, 1.0), ("de-en", 1.5, 1.5), ("en-ja", 1.5, 1.5)]


# ---------------------------------------------------------------- Table 2
def test_table2_cells_paper_columns_not_run_missing_and_no_data(runs):
    recs = R.collect_mt(runs, "smoke")
    text = T2.table2_text("smoke", OPTIONS, recs, REF)
    rows = {r[0]: r[1:] for r in table(text, "## Tokenized BLEU")}
    g = R.by_key(recs)
    soft = [r["metrics"]["bleu_tok"] for r in g[("de-en", 1.0, 1.0)]]
    assert rows["softmax (α=1)"][:2] == [mt_common.mean_std(soft), "25.70 ± 0.15"] and "±" in rows["softmax (α=1)"][0]
    assert rows["sparsemax (α=2)"][:2] == ["missing run", "24.69 ± 0.22"]       # only a failed run
    assert rows["1.5-entmax"][2:4] == ["not run in this profile", "22.42 ± 0.08"]  # en-de not in the plan
    assert rows["1.5-entmax"][6] == f"{g[('en-ja', 1.5, 1.5)][0]['metrics']['bleu_tok']:.2f}"
    assert rows["1.5-entmax"][8:] == ["no training data offline", "30.15 ± 0.06", "no training data offline",
                                      "28.84 ± 0.10"]
    detok = {r[0]: r[1:] for r in table(text, "## Detokenized SacreBLEU")}
    assert detok["1.5-entmax"][0] == f"{g[('de-en', 1.5, 1.5)][0]['metrics']['bleu']:.2f}"
    # out-of-domain IWSLT17 column for de-en, orderings, tokenization and signatures, header from the configs
    ood = table(text, "## Out-of-domain test sets")
    assert ood[0][:3] == ["iwslt17", "de-en", "iwslt2017/test (3)"] and ood[0][-2:] == ["missing run", "missing run"]
    order = {r[0]: r[1:] for r in table(text, "## Ordering of the mappings")}
    assert order["de-en"][2] == "1.5-entmax > softmax > sparsemax" and order["ro-en"][0] == "no training data offline"
    assert "tokenize=13a" in text and "`nrefs:1|tok:ja-mecab`" in text and "`nrefs:1|tok:none`" in text
    assert "ro-en: not run — no training data offline (fetch wmt16_ro_en_full)" in text
    settings = table(text, "Per direction")
    assert settings[0][:5] == ["de-en", "multi30k", "multi30k/train (300)", "multi30k/val (20)", "multi30k/test2016 (3)"]
    assert settings[0][6:] == ["300 joint (learned: joint 300)", "every 10 steps", "30", "none (step cap)"]
    conv = table(text, "## Convergence of each run")
    # every MT run, the two Figure 4 grid runs included
    assert len(conv) == 6 and "1 of 6 runs stopped by early stopping, 5 at the step budget" in text
    assert [r[1:3] for r in conv if r[0] == "de-en"] == [["1.00", "1.00"], ["1.00", "1.00"], ["1.25", "1.50"],
                                                        ["1.50", "1.50"], ["1.50", "2.00"]]
    # lr halvings / last lr read from the history (issue 20), then the stop reason
    assert conv[0][4:] == ["3", "30", "30", "20", "10.00 → 40.00 (step 20) → 39.00", "1", "0.005", "step budget", "30", "–", "–", "–", "–"]


def test_no_runs_at_all(tmp_path):
    text = T2.table2_text("smoke", OPTIONS, R.collect_mt(tmp_path, "smoke"), REF)
    assert "- profile `smoke`: no finished MT runs yet" in text
    rows = {r[0]: r[1:] for r in table(text, "## Tokenized BLEU")}
    assert rows["softmax (α=1)"][0] == "missing run" and rows["softmax (α=1)"][8] == "no training data offline"


# ---------------------------------------------------------------- Table 3, beam statistics
def test_table3_rows_and_beam_statistics(runs):
    recs = R.collect_mt(runs, "smoke")
    text = table3.table3_text("smoke", OPTIONS, recs, REF)
    rows = {(r[0], r[1]): r[2:] for r in table(text)}
    assert rows[("de-en", "softmax (α=1)")] == ["10.00", "24.25", "100.00", "17,993", "290"]
    assert rows[("de-en", "1.5-entmax")] == ["6.67", "5.55", "66.67", "16.13", "290"]
    assert rows[("de-en", "sparsemax (α=2)")] == ["missing run", "3.75", "missing run", "7.55", "–"]
    assert rows[("en-ja", "1.5-entmax")][1] == "–" and rows[("en-de", "softmax (α=1)")][0] == "not run in this profile"
    assert rows[("ro-en", "sparsemax (α=2)")][0] == "no training data offline"
    beam = table(text, "## Beam statistics")
    assert ["de-en", "1.50", "2.00", "test", "1", "3", "0.38", "0.10"] in beam      # every configuration
    assert ["de-en", "1.00", "1.00", "iwslt17", "2", "3", "0.50", "0.00"] in beam
    # issue 20: no speed columns from runs that shared the machine; the benchmark is named instead
    assert "tokens/s" not in text and "ratio to softmax" not in text and "`figure6_speed.md` measures" in text


# ---------------------------------------------------------------- Figure 4
def test_figure4_table_and_png(runs, tmp_path):
    recs = R.collect_mt(runs, "smoke")
    text = figure4.figure4_text("smoke", OPTIONS, recs, REF)
    rows = {r[0]: r[1:] for r in table(text)}
    assert rows["1.5"] == ["45.00", "1", "63.12", "45.00", "1", "63.23"]         # the Table 2 run, in both grids
    assert rows["2"][:3] == ["46.00", "1", "63.32"] and rows["1.25"][3:5] == ["47.00", "1"]
    assert rows["1"][0] == "missing run" and rows["1"][3] == "not run in this profile"   # planned vs not planned
    assert rows["2.25"][5] == "59.70" and len(rows) == 10
    assert "Points of the attention α grid run in this profile: 1.5, 2 (planned: 1, 1.5, 2)" in text
    assert "Paper's summary: the output alpha has a clear optimum." in text
    png = figure4.plot_figure4(tmp_path / "f4.png", "smoke", recs, REF)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# ---------------------------------------------------------------- Figure 2
def test_autocomplete_formatting(runs):
    text = figure2.autocomplete_text("smoke", OPTIONS, R.collect_mt(runs, "smoke"))
    assert "## de-en, softmax (α=1) (seed 0), test sentence 0" in text
    assert "## en-ja, 1.5-entmax (seed 0), test sentence 0" in text
    assert "- source: Ein Mann .\n- reference: A man .\n" in text
    assert "| 1 | `A` 0.750 | 2 | `A` 0.750 · `Two` 0.250 |" in text
    assert "| 2 | `man` 0.500 | 4 | `man` 0.500 · `dog` 0.300 · … 2 more (listed mass 0.800) |" in text


# ---------------------------------------------------------------- hyp/ref files and BLEU
def test_bleu_files_reproduce_every_table2_bleu(runs, tmp_path):
    recs = R.collect_mt(runs, "smoke")
    out = tmp_path / "report"
    rows = mt_common.copy_bleu_files(out, R.table2_records(recs), R.bleu_file_stem)
    files = sorted(p.name for p in (out / mt_common.BLEU_DIR).iterdir())
    assert len(files) == 4 * (3 + 3) + 4            # 3 de-en runs x (test + iwslt17) + en-ja test; 4 files each
    hyps = [f for f in files if ".hyp." in f]
    assert all(f.replace(".hyp.", ".ref.") in files for f in hyps) and len(hyps) * 2 == len(files)
    by_stem = {r[0]: r for r in rows}
    for rec in R.table2_records(recs):
        for set_name, _, metrics in mt_common.run_sets(rec):
            stem = R.bleu_file_stem(rec, set_name)
            tok = "ja-mecab" if rec["extra"]["tgt_lang"] == "ja" else "13a"
            for kind, metric, tokenize in (("detok", "bleu", tok), ("tok", "bleu_tok", "none")):
                d = out / mt_common.BLEU_DIR
                hyp = (d / f"{stem}.{kind}.hyp.txt").read_text(encoding="utf-8").splitlines()
                ref = (d / f"{stem}.{kind}.ref.txt").read_text(encoding="utf-8").splitlines()
                assert bleu(hyp, ref, tokenize) == pytest.approx(metrics[metric], abs=1e-9)
                assert by_stem[f"{stem}.{kind}"][1] == metrics[metric] and f"-tok {tokenize}" in by_stem[f"{stem}.{kind}"][2]
    text = T2.table2_text("smoke", OPTIONS, recs, REF, rows)
    assert "## Re-checking every BLEU with the sacrebleu CLI" in text


def test_sacrebleu_cli_reproduces_a_table_cell(runs, tmp_path):
    recs = R.collect_mt(runs, "smoke")
    out = tmp_path / "report"
    rows = mt_common.copy_bleu_files(out, R.table2_records(recs), R.bleu_file_stem)
    row = next(r for r in rows if r[0].startswith("de-en.alpha1.5-attn1.5.seed0.test.detok"))
    cmd = row[2].strip("`").split()
    exe = shutil.which("sacrebleu", path=str(Path(sys.executable).parent)) or shutil.which("sacrebleu")
    assert exe, "the sacrebleu CLI is installed with the sacrebleu package"
    proc = subprocess.run([exe, *cmd[1:]], cwd=out, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert f"{float(proc.stdout.split()[0]):.2f}" == f"{row[1]:.2f}"          # -w 2: the table's two decimals
    table2 = {r[0]: r[1:] for r in table(T2.table2_text("smoke", OPTIONS, recs, REF), "## Detokenized SacreBLEU")}
    assert table2["1.5-entmax"][0] == f"{row[1]:.2f}"


# ---------------------------------------------------------------- write_reports and index.html
def test_write_reports_through_the_inflection_report_and_index(runs, tmp_path):
    out = tmp_path / "report"
    out.mkdir()
    (out / "figure6_speed.md").write_text("# Figure 6\n\n| mapping | ratio |\n|---|---|\n| softmax | 1.00 |\n")
    recs = report.write_reports("smoke", out, {"settings": [], "ensemble": False, **OPTIONS}, runs, ref=REF)
    assert len(recs) == 6
    for name in ("table2_mt.md", "table3_sparsity.md", "figure4_alpha_grid.md", "figure4_alpha_grid.png",
                 "autocomplete_examples.md", "runs_mt.jsonl", "index.html"):
        assert (out / name).stat().st_size > 0, name
    html = (out / "index.html").read_text()
    for name in ("table2_mt.md", "table3_sparsity.md", "figure4_alpha_grid.md", "autocomplete_examples.md",
                 "figure6_speed.md"):
        assert f"<a href='{name}'>" in html, name
    assert "<img src='figure4_alpha_grid.png'" in html and "<img src='mt_learning_curves.png'" in html
    assert "<td>no training data offline</td>" in html and "<td>25.70 ± 0.15</td>" in html
    assert "<td>softmax</td>" in html                      # the benchmark's table, rendered inline
    assert "smoke/peters2019/table2_mt/de-en,a=1,s=0" in html
    for text in [html] + [(out / n).read_text() for n in ("table2_mt.md", "table3_sparsity.md", "runs_mt.jsonl")]:
        assert str(tmp_path) not in text and "/somewhere" not in text
    # without MT in the plan options the inflection report lists no MT artefact
    out2 = tmp_path / "report2"
    out2.mkdir()
    report.write_reports("smoke", out2, {"settings": [], "ensemble": False}, runs, ref=REF)
    assert "table2_mt.md" not in (out2 / "index.html").read_text() and not (out2 / "table2_mt.md").exists()


def test_only_the_mt_part_leaves_the_inflection_files_as_they_are(runs, tmp_path):
    out = tmp_path / "report"
    out.mkdir()
    kept = {"table1.md": "# Table 1 from an earlier run\n", "runs.jsonl": '{"run": "earlier"}\n',
            "sparsity.md": "# kept\n"}
    for name, text in kept.items():
        (out / name).write_text(text)
    options = {"settings": ["medium"], "ensemble": False, "baseline": True, **OPTIONS, "only": [R.EXPERIMENT]}
    recs = report.write_reports("smoke", out, options, runs, ref=REF)
    assert {r["experiment"] for r in recs} == {R.EXPERIMENT}
    assert {name: (out / name).read_text() for name in kept} == kept
    assert (out / "table2_mt.md").stat().st_size > 0 and (out / "mt_learning_curves.png").stat().st_size > 0
    html = (out / "index.html").read_text()
    assert "Table 1 from an earlier run" in html and "unchanged by this one" in html and "table2_mt.md" in html
    # without --only the same call rewrites the inflection files
    report.write_reports("smoke", out, {**options, "only": []}, runs, ref=REF)
    assert (out / "table1.md").read_text() != kept["table1.md"]


def test_learning_curves_have_one_panel_per_direction_and_one_line_per_run(runs, tmp_path, monkeypatch):
    from sparselab import plots as figures

    recs = R.collect_mt(runs, "smoke")
    seen = {}
    real_save = figures.save

    def keep(fig, path, dpi=100):
        seen.update({ax.get_title(): [ln.get_label() for ln in ax.get_lines()] for ax in fig.axes})
        return real_save(fig, path, dpi)

    monkeypatch.setattr(figures, "save", keep)
    path = mt_common.plot_learning_curves(tmp_path / "c.png", recs, R.curve_label, "LSTM NMT")
    assert path.stat().st_size > 0
    pairs = sorted({mt_common.pair_of(r) for r in recs})
    assert sorted(seen) == [f"LSTM NMT, {p}" for p in pairs]
    with_history = [r for r in recs if r["extra"].get("history")]
    assert sum(len(v) for v in seen.values()) == len(with_history) > 0
    assert all(lbl.startswith("out α=") and "attn α=" in lbl for v in seen.values() for lbl in v)


def test_numbers(runs):
    nums = report.mt_numbers(runs, "smoke")
    assert len(nums) == 6
    row = nums["table2_mt/de-en,alpha=1.5,attn_alpha=1.5,seed=0"]
    assert set(row) >= {"bleu", "bleu_tok", "bleu_iwslt17", "val_acc_best"} and "train_tgt_tokens_per_s" not in row


def test_convergence_summary_counts_training_time_across_resumes():
    """A run resumed from its checkpoint: its record's wall_time_s is the last process's only, while train_time_s
    (the module's training timer, restored with the checkpoint) covers every process. The summary sums the latter."""
    resumed = {"metrics": {"train_time_s": 5400.0}, "wall_time_s": 1800.0, "extra": {"stopped_early": True}}
    capped = {"metrics": {"train_time_s": 1800.0}, "wall_time_s": 1800.0, "extra": {"stopped_early": False}}
    text = convergence.convergence_summary([resumed, capped])
    assert text.startswith("1 of 2 runs stopped by early stopping, 1 at the step budget")
    assert "1 at the step budget" in text and "Training time of these runs: 2.00 h" in text
    assert convergence.convergence_summary([]) == ""


# ---------------------------------------------------------------- paired bootstrap (test-set noise)
def noise_runs(root: Path) -> list[dict]:
    """de-en, one seed per mapping, 60 test sentences: 1.5-entmax copies the references but for 3 lines, softmax
    differs from 1.5-entmax in one more line (a difference within noise), sparsemax gets half of them wrong."""
    refs = [f"sentence {i} about a man with {i % 7} dogs in the park ." for i in range(60)]
    wrong = "a completely different line ."
    hyps = {1.5: [wrong if i < 3 else r for i, r in enumerate(refs)],
            1.0: [wrong if i < 4 else r for i, r in enumerate(refs)],
            2.0: [wrong if i % 2 else r for i, r in enumerate(refs)]}
    base = root / "smoke" / "peters2019" / "table2_mt"
    for a, hs in hyps.items():
        run_dir = base / f"de-en,a={a}"
        rec = mt_record(run_dir, "de-en", a, a, 0)
        files, scores = write_translations(run_dir, "test2016", hs, refs, "13a")
        rec["extra"]["test"]["files"] = files
        rec["metrics"].update(scores)
        record.write(run_dir, {k: v for k, v in rec.items() if k != "run_dir"})
    return R.collect_mt(root, "smoke")


def test_paired_bootstrap_rows_against_the_records_and_the_cli(tmp_path):
    recs = noise_runs(tmp_path / "runs")
    out = tmp_path / "report"
    mt_common.copy_bleu_files(out, R.table2_records(recs), R.bleu_file_stem)
    rows, commands, signature = significance.significance_rows(out, recs)
    assert [r[1] for r in rows] == ["1.5-entmax", "softmax (α=1)", "sparsemax (α=2)"]
    tok = {R.alphas(r)[0]: r["metrics"]["bleu_tok"] for r in recs}
    assert [r[3] for r in rows] == [f"{tok[a]:.2f}" for a in (1.5, 1.0, 2.0)]     # the Table 2 cells
    assert rows[0][5] == "baseline" and rows[1][5] == f"{tok[1.0] - tok[1.5]:+.2f}"
    assert rows[1][7] == "no" and float(rows[1][6]) > 0.05          # one line more wrong: within noise
    assert rows[2][7] == "yes" and rows[2][6] == f"{1 / 1001:.4f}"   # no resample comes close: the floor of p
    assert "bs:1000" in signature and "tok:none" in signature
    # the printed command gives the same numbers (JSON output instead of the text table, to read them)
    cmd = commands[0].split("`")[1].replace("-f text", "-f json").split()
    exe = shutil.which("sacrebleu", path=str(Path(sys.executable).parent)) or shutil.which("sacrebleu")
    proc = subprocess.run([exe, *cmd[1:]], cwd=out, capture_output=True, text=True, timeout=60,
                          env={k: v for k, v in os.environ.items() if k != "SACREBLEU_SEED"})
    assert proc.returncode == 0, proc.stderr
    cli = json.loads(proc.stdout)
    assert [f"{s['BLEU']['score']:.2f}" for s in cli] == [r[3] for r in rows]
    assert f"{cli[1]['BLEU']['p_value']:.4f}" == rows[1][6] and f"{cli[2]['BLEU']['p_value']:.4f}" == rows[2][6]
    text = T2.table2_text("smoke", OPTIONS, recs, REF, None, (rows, commands, signature))
    assert "## Are the differences larger than test-set noise? (paired bootstrap)" in text
    assert table(text, "(paired bootstrap)")[1][:2] == ["de-en", "softmax (α=1)"]


def test_paired_bootstrap_needs_all_three_mappings_and_one_reference(tmp_path, runs):
    recs = R.collect_mt(runs, "smoke")                 # de-en has no finished α 2 run
    out = tmp_path / "report"
    mt_common.copy_bleu_files(out, R.table2_records(recs), R.bleu_file_stem)
    assert significance.significance_rows(out, recs) == ([], [], None)
    assert significance.significance_text(([], [], None)) == ""
    recs = noise_runs(tmp_path / "runs2")
    mt_common.copy_bleu_files(out, R.table2_records(recs), R.bleu_file_stem)
    ref = out / mt_common.BLEU_DIR / f"{R.bleu_file_stem(recs[-1], 'test')}.tok.ref.txt"
    ref.write_text(ref.read_text(encoding="utf-8").replace("sentence 0", "sentence zero"), encoding="utf-8")
    rows, commands, _ = significance.significance_rows(out, recs)
    assert rows == [["de-en", "–", "–", "–", "–", "–", "–", "the runs' references differ: not comparable"]]
    assert commands == []


def test_convergence_rule_tells_a_rising_curve_from_a_flat_one():
    """The MT convergence rule (issue 32, the kit's mt_common.convergence, shared with Correia): a run has stopped
    improving when neither its smoothed curve nor its best validation gained 0.25 points over the last 2,000
    steps."""

    def hist(f):
        return [{"step": s, "val_acc": f(s)} for s in range(250, 15001, 250)]
    rising = {"extra": {"history": hist(lambda s: 40 + s / 1000)}}              # +1 point per 1,000 steps
    flat = {"extra": {"history": hist(lambda s: 60 - (0.3 if (s // 250) % 2 else 0))}}   # noisy but flat
    assert convergence.convergence_of(rising)["stopped"] is False
    assert convergence.convergence_of(flat)["stopped"] is True
    assert convergence.convergence_of({"extra": {"history": hist(lambda s: 50)[:4]}})["stopped"] is None   # too short
    row = convergence.convergence_rows([{**rising, "config": {"data": {"pair": "de-en"}, "mapping": {"alpha": 1.0,
        "attn_alpha": 1.0}, "seed": 0, "trainer": {"max_steps": 15000}}, "metrics": {"steps": 15000}}])[0]
    assert "**no: still rising**" in row and "+2.00" in row
    assert mt_common.convergence(flat["extra"]["history"])["trend"] == 0.0


def test_a_runs_convergence_window_is_its_early_stopping_patience_in_updates():
    """Issue 32's MT protocol: the check asks what early stopping asked. ja-en validates every 1,500 steps with a
    patience of 3 validations, so the window is 4,500 steps (2 validations smoothed); a fixed-budget run (no
    patience) is judged over its last 3 validations."""
    def rec(every, patience, f, steps):
        hist = [{"step": s, "val_acc": f(s)} for s in range(every, steps + 1, every)]
        return {"config": {"data": {"pair": "ja-en"}, "mapping": {"alpha": 1.0, "attn_alpha": 1.0}, "seed": 0,
                           "trainer": {"max_steps": 45000, "val_check_interval": every},
                           "task": {"early_stopping_patience": patience}},
                "metrics": {"steps": steps}, "extra": {"history": hist}}
    # +0.1 point per validation: a gain of 0.3 over 4,500 steps, more than the rule allows
    slow = rec(1500, 3, lambda s: 60 + s / 15000, 30000)
    assert convergence.plateau_window(slow) == (4500, 2)
    conv = convergence.convergence_of(slow)
    assert conv["window"] == 4500 and round(conv["trend"], 6) == 0.3 and conv["stopped"] is False
    # stopped by patience: the last 3 validations (4,500 steps) gained nothing
    flat = rec(1500, 3, lambda s: min(60 + s / 1200, 70), 19500)
    assert convergence.convergence_of(flat)["stopped"] is True
    fixed = rec(5000, None, lambda s: 60, 100000)
    assert convergence.plateau_window(fixed) == (15000, 2) and convergence.convergence_of(fixed)["stopped"] is True
    row = convergence.convergence_rows([slow])[0]
    assert "4,500" in row and "**no: still rising**" in row


def test_paired_bootstrap_runs_for_every_seed(tmp_path):
    """Issue 32: de-en has 2 seeds per Table 2 cell. Seed 0: softmax one line worse than 1.5-entmax (noise);
    seed 1: softmax wrong on half the lines (significant)."""

    refs = [f"sentence {i} about a man with {i % 7} dogs in the park ." for i in range(60)]
    wrong = "a completely different line ."
    hyps = {(1.5, 0): [wrong if i < 3 else r for i, r in enumerate(refs)],
            (1.0, 0): [wrong if i < 4 else r for i, r in enumerate(refs)],
            (2.0, 0): [wrong if i % 2 else r for i, r in enumerate(refs)],
            (1.5, 1): [wrong if i < 3 else r for i, r in enumerate(refs)],
            (1.0, 1): [wrong if i % 2 else r for i, r in enumerate(refs)],
            (2.0, 1): [wrong if i % 2 else r for i, r in enumerate(refs)]}
    base = tmp_path / "runs" / "smoke" / "peters2019" / "table2_mt"
    for (a, seed), hs in hyps.items():
        run_dir = base / f"de-en,a={a},seed={seed}"
        rec = mt_record(run_dir, "de-en", a, a, seed)
        files, scores = write_translations(run_dir, "test2016", hs, refs, "13a")
        rec["extra"]["test"]["files"] = files
        rec["metrics"].update(scores)
        record.write(run_dir, {k: v for k, v in rec.items() if k != "run_dir"})
    recs = R.collect_mt(tmp_path / "runs", "smoke")
    out = tmp_path / "report"
    mt_common.copy_bleu_files(out, R.table2_records(recs), R.bleu_file_stem)
    rows, commands, _ = significance.significance_rows(out, recs)
    assert [(r[1], r[2]) for r in rows] == [(m, s) for s in (0, 1) for m in ("1.5-entmax", "softmax (α=1)",
                                                                          "sparsemax (α=2)")]
    assert len(commands) == 2 and "seed 1" in commands[1]
    soft = {r[2]: float(r[6]) for r in rows if r[1] == "softmax (α=1)"}
    assert soft[0] > 0.05 and soft[1] < 0.05


def test_the_cpu_scaling_rule_keeps_the_papers_validations_per_budget():
    """Issue 32: the cpu header states, per direction run, how its cadence and stopping follow from the paper's. The
    validations per budget it names are the paper profile's (max_steps / val_every) and the cpu profile's cadence
    gives the same count in the 15,000-update budget."""
    from hydra import compose, initialize_config_dir

    from sparselab.engine import resolvers
    from sparselab.run import CONF_DIR

    resolvers.register()
    with initialize_config_dir(version_base="1.3", config_dir=str(CONF_DIR)):
        pairs = {profile: compose("config", overrides=["experiment=peters2019/table2_mt", f"profile={profile}"]).data.pairs
                 for profile in ("paper", "cpu")}
    paper = {p: int(pairs["paper"][p].max_steps) // int(pairs["paper"][p].val_every) for p in ("de-en", "ja-en")}
    cpu = {p: header.BUDGET_UPDATES // int(pairs["cpu"][p].val_every) for p in ("de-en", "ja-en")}
    assert paper == cpu == {"de-en": 20, "ja-en": 10}

    def rec(pair, every, n):
        return {"config": {"data": {"pair": pair}, "trainer": {"val_check_interval": every, "max_steps": 45000},
                           "task": {"batch_size": 64, "early_stopping_patience": 45000 // every // 10,
                                    "early_stopping_min_delta": 0.25}},
                "extra": {"splits": {"train": {"n": n}}}}
    line = header.mt_scaling_rule([rec("ja-en", 1500, 50000), rec("de-en", 750, 29000)])
    assert "(10 on ja-en, 20 on de-en)" in line
    assert ("ja-en: validation every 1,500 updates, 10 per 15,000-update budget (19 epochs of 50,000 pairs); early "
            "stopping after 4,500 updates (3 validations) without a 0.25-point gain; at most 45,000 updates") in line
    assert "de-en: validation every 750 updates, 20 per 15,000-update budget (33 epochs of 29,000 pairs)" in line
