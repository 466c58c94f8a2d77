"""The claims of the committed ``reports/peters2019/cpu/`` follow from its stored records (issue 20, acceptance 4).

``runs.jsonl`` and ``runs_mt.jsonl`` hold the config and the metrics of every run behind the report; the claims
table is recomputed from them with the report's own grouping and must equal the committed ``claims.md`` cell for
cell. A hand edit of a verdict or a number, or a report rebuilt from other runs than its runs files list, fails."""
from __future__ import annotations

import json
import shutil

import pytest

from scripts import PROJECT, load_script, rebuild_report_only

from sparselab.reports.peters2019 import claims as peters2019_claims, mt as peters2019_mt, report as peters2019
from sparselab.reports.reference import reference
from reference_data import needs_reference

COMMITTED = PROJECT / "reports" / "peters2019" / "cpu"
# the folder committed before issue 32's plan finished holds the earlier protocol's records, without run extras
EARLIER = not (COMMITTED / "run_extras.jsonl").exists()
earlier_protocol = pytest.mark.skipif(not EARLIER, reason="the committed cpu report is issue 32's protocol")
issue32_protocol = pytest.mark.skipif(EARLIER, reason="the committed cpu report predates issue 32's plan (still running)")


def stored(name: str) -> list[dict]:
    return [json.loads(line) for line in (COMMITTED / name).read_text(encoding="utf-8").splitlines()]


def grid_records() -> list[dict]:
    """The inflection grid's runs among the stored ones (runs.jsonl also holds the baseline's)."""
    return [r for r in stored("runs.jsonl") if r["config"]["experiment_name"] == "peters2019/table1_medium"]


def committed_pvalues() -> dict:
    """{(direction, mapping α): p} as table2_mt.md prints them. Read back rather than recomputed, so that the
    claims text does not depend on the last bit of a resampled BLEU (the recomputation, with its tolerance, is
    test_committed_paired_bootstrap_follows_from_the_committed_bleu_files)."""
    alpha = {label: a for _, a, label in peters2019_mt.MAPPINGS}
    section = (COMMITTED / "table2_mt.md").read_text(encoding="utf-8").split("(paired bootstrap)\n", 1)[1]
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in section.splitlines()
             if line.startswith("| ") and not line.startswith("| direction")]
    return {(c[0], alpha[c[1]]): float(c[6]) for c in cells if c[1] in alpha and c[6] != "–"}


@earlier_protocol
@needs_reference
def test_committed_claims_are_computed_from_the_committed_records():
    table1 = grid_records()
    mt = stored("runs_mt.jsonl")
    assert len(table1) == 9, "the cpu plan's 3×3 grid (medium, one seed)"
    groups = {"medium": peters2019.by_config(table1)}
    pvalues = committed_pvalues()
    assert pvalues[("de-en", 1.0)] > 0.05 and len(pvalues) == 4
    text = peters2019_claims.claims_text("cpu", groups, mt, reference("peters2019"), None, pvalues)
    assert text == (COMMITTED / "claims.md").read_text(encoding="utf-8")


@earlier_protocol
def test_committed_claims_verdicts_match_the_grid_numbers():
    """The acceptance's inflection rule re-derived from the stored accuracies without the claims module: the
    attention-α spread at each output α, against 3 points."""
    table1 = grid_records()
    acc = {(r["config"]["mapping"]["alpha"], r["config"]["mapping"]["attn_alpha"]): r["metrics"]["acc"]
           for r in table1}
    spreads = [max(acc[(a, b)] for b in (1.0, 1.5, 2.0)) - min(acc[(a, b)] for b in (1.0, 1.5, 2.0))
               for a in (1.0, 1.5, 2.0)]
    rows = {line.split(" | ")[0].lstrip("| "): line for line in (COMMITTED / "claims.md").read_text().splitlines()
            if line.startswith("| ")}
    row = rows["attention α matters less than output α (Table 1)"]
    assert "/".join(f"{x:.2f}" for x in spreads) in row
    if max(spreads) > peters2019_claims.ATTENTION_SPREAD_MAX:     # the rule's first half fails on its own
        assert row.endswith("| does not hold |")
    else:
        assert row.endswith(("| holds |", "| does not hold |", "| inconclusive |"))


@earlier_protocol
def test_committed_paired_bootstrap_follows_from_the_committed_bleu_files():
    """table2_mt.md's paired-bootstrap table, recomputed from the committed ``bleu_files/`` and ``runs_mt.jsonl``.
    Tolerances the computation guarantees across machines: the resamples are drawn with sacrebleu's fixed seed
    and scored from integer n-gram counts, so only the last bit of a BLEU (libm's log / exp) can differ. That
    moves a two-decimal cell by at most one rounding step (0.01), and p by at most one resample (1/1001)."""
    rows, _, _ = peters2019_mt.significance_rows(COMMITTED, stored("runs_mt.jsonl"))
    section = (COMMITTED / "table2_mt.md").read_text(encoding="utf-8").split("(paired bootstrap)\n", 1)[1]
    table = section.split("\n\n")[1].splitlines()[2:]          # the paragraph, then the table: rows after the rule
    committed = [[c.strip() for c in line.strip().strip("|").split("|")] for line in table]
    assert len(rows) == len(committed) == 6, "de-en and ja-en, three mappings each"
    for ours, theirs in zip(rows, committed):
        assert [str(c) for c in ours[:3]] == theirs[:3] and ours[7] == theirs[7]
        assert abs(float(ours[3]) - float(theirs[3])) <= 0.01 + 1e-9
        if theirs[6] != "–":
            assert abs(float(ours[6]) - float(theirs[6])) <= 1 / 1001 + 1e-4


def test_report_only_refuses_records_of_an_earlier_protocol_and_writes_nothing(tmp_path, monkeypatch, capsys):
    """Issue 35: records that are no jobs of the cpu plan (the folder committed before issue 32's plan, or a copy of
    any folder whose configs are changed) leave a clone's ``--report-only`` nothing to rebuild from: one error line,
    exit 2, every file left as it is."""
    from sparselab.reports.runner import main

    clone = tmp_path / "reports" / "peters2019" / "cpu"
    shutil.copytree(COMMITTED, clone)
    for name in ("runs.jsonl", "runs_mt.jsonl"):
        recs = stored(name)
        for rec in recs:
            rec["config"]["seed"] = 1000 + int(rec["config"].get("seed") or 0)   # no plan job has these seeds
        (clone / name).write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")

    def files(folder):
        return {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    before = files(clone)
    monkeypatch.setenv("SPARSELAB_RUNS", str(tmp_path / "no_runs"))
    mod = load_script("pipelines/peters2019.py", "pipeline_peters2019")
    assert main(mod.report, mod.PLANS, ["--profile", "cpu", "--report-only", "--out", str(clone)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and "35 jobs of the cpu plan" in err[0], err
    assert files(clone) == before


SHARED_DATA = PROJECT.parent / "shared" / "data"


@issue32_protocol
@pytest.mark.skipif(not SHARED_DATA.is_dir(), reason="../shared/data absent: no gold files to score against")
def test_committed_predictions_rescore_to_the_reported_accuracy():
    """Every per_language.csv row has its gzipped test predictions, and they score to its accuracy against the gold
    files (issue 32, acceptance 5; ``make rescore-peters2019`` runs the shared task's own evalm.py on the same files
    where GitHub is reachable, and writes predictions/rescored.md)."""
    from sparselab.reports.peters2019 import predictions
    rows = predictions.rescore(COMMITTED, predictions.builtin, str(SHARED_DATA))
    assert rows and [r for r in rows if not r["agrees"]] == []
    if (COMMITTED / "predictions" / predictions.RESCORED).exists():   # the official scorer's run, committed
        assert f"**{len(rows)} of {len(rows)}** rows" in (COMMITTED / "predictions" / predictions.RESCORED).read_text()


@issue32_protocol
def test_report_only_rebuilds_the_committed_cpu_report_with_no_record_orphaned(tmp_path, monkeypatch, capsys):
    """Issue 35, acceptance 1: a clone's ``--report-only`` (no run directories) gives back every file of the committed
    folder byte for byte, figures redrawn, from the committed records, and each of them is one of the plan's jobs."""
    records = len(stored("runs.jsonl")) + len(stored("runs_mt.jsonl"))
    clone = rebuild_report_only("peters2019", COMMITTED, records, tmp_path, monkeypatch, capsys)

    def files(folder):
        return {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file() and p.suffix != ".png"}
    assert files(clone) == files(COMMITTED)
