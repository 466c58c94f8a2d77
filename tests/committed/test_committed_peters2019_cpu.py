"""The claims of the committed ``reports/peters2019/cpu/`` follow from its stored records (issue 20, acceptance 4).

``runs.jsonl`` and ``runs_mt.jsonl`` hold the config and the metrics of every run behind the report; the claims
table is recomputed from them with the report's own grouping and must equal the committed ``claims.md`` cell for
cell. A hand edit of a verdict or a number, or a report rebuilt from other runs than its runs files list, fails."""
from __future__ import annotations

import json
import shutil

import pytest

from support import PROJECT, load_script, rebuild_report_only

from sparselab.reports.claims import paper_page
from sparselab.reports.peters2019 import claims as peters2019_claims, convergence, runs as peters2019
from sparselab.reports.peters2019.significance import significance_rows
from sparselab.reports.reference import reference
from support import needs_reference

COMMITTED = PROJECT / "reports" / "peters2019" / "cpu"


def stored(name: str, folder=COMMITTED) -> list[dict]:
    return [json.loads(line) for line in (folder / name).read_text(encoding="utf-8").splitlines()]


def grid_records(folder=COMMITTED, experiment: str = "peters2019/table1_medium") -> list[dict]:
    """The inflection grid's runs among the stored ones (runs.jsonl also holds the baseline's and the ensembles')."""
    return [r for r in stored("runs.jsonl", folder) if r["config"]["experiment_name"] == experiment]


def issue32_claims_text(folder=COMMITTED) -> str:
    """claims.md recomputed from the stored records of issue 32's plan: seeds grouped per cell, the ensembles, MT."""
    groups = {"medium": peters2019.by_config(grid_records(folder))}
    ensembles = {"medium": peters2019.by_config(grid_records(folder, "peters2019/ensemble_medium"))}
    return paper_page(peters2019_claims.__name__, "cpu", peters2019_claims.claims(
        folder, groups, stored("runs_mt.jsonl", folder), reference("peters2019"), ensembles))


def bootstrap_mismatches(folder=COMMITTED) -> list[str]:
    """table2_mt.md's paired-bootstrap rows against a recomputation from ``bleu_files/`` and ``runs_mt.jsonl``.
    Tolerances the computation guarantees across machines: the resamples are drawn with sacrebleu's fixed seed
    and scored from integer n-gram counts, so only the last bit of a BLEU (libm's log / exp) can differ. That
    moves a two-decimal cell by at most one rounding step (0.01), and p by at most one resample (1/1001)."""
    rows, _, _ = significance_rows(folder, stored("runs_mt.jsonl", folder))
    parts = (folder / "table2_mt.md").read_text(encoding="utf-8").split("(paired bootstrap)\n", 1)
    table = parts[1].split("\n\n")[1].splitlines()[2:] if len(parts) > 1 else []   # the rows after the rule
    committed = [[c.strip() for c in line.strip().strip("|").split("|")] for line in table]
    bad = [] if len(rows) == len(committed) else [f"{len(rows)} rows recomputed, {len(committed)} committed"]
    for ours, theirs in zip(rows, committed):
        same = [str(c) for c in ours[:3]] == theirs[:3] and ours[7] == theirs[7]
        same = same and abs(float(ours[3]) - float(theirs[3])) <= 0.01 + 1e-9
        if theirs[6] != "–":
            same = same and abs(float(ours[6]) - float(theirs[6])) <= 1 / 1001 + 1e-4
        if not same:
            bad.append(f"{theirs} recomputed as {ours}")
    return bad


@needs_reference
def test_claims_are_computed_from_the_committed_records():
    """Every verdict, number and margin of claims.md from the stored records: the seeds of each cell, the seed
    ensembles' test predictions, the MT runs and the BLEU files."""
    seeds: dict = {}
    for r in grid_records():
        seeds.setdefault((r["config"]["mapping"]["alpha"], r["config"]["mapping"]["attn_alpha"]), set()).add(r["config"]["seed"])
    # the plan runs across sessions: every cell has seed 0; the 4 cells of output and attention α in {1, 2}, seeds 0-2
    assert len(seeds) == 9 and all(0 in s for s in seeds.values())
    assert all(seeds[(a, b)] == {0, 1, 2} for a in (1.0, 2.0) for b in (1.0, 2.0))
    # each ensemble is of a cell whose 3 seeds are committed (the 4 cells above, then the others as they run)
    ensembles = {(r["config"]["mapping"]["alpha"], r["config"]["mapping"]["attn_alpha"])
                 for r in grid_records(experiment="peters2019/ensemble_medium")}
    assert len(ensembles) >= 4 and all(seeds[cell] == {0, 1, 2} for cell in ensembles), ensembles
    assert issue32_claims_text() == (COMMITTED / "claims.md").read_text(encoding="utf-8")


def test_paired_bootstrap_follows_from_the_committed_bleu_files():
    """A row per mapping for each direction and seed that all three mappings (attention α = output α) ran."""
    mt = stored("runs_mt.jsonl")
    ran: dict = {}
    for r in mt:
        m = r["config"]["mapping"]
        if m["alpha"] == m["attn_alpha"]:
            ran.setdefault((r["config"]["data"]["pair"], r["config"]["seed"]), set()).add(m["alpha"])
    complete = [k for k, alphas in ran.items() if alphas == {1.0, 1.5, 2.0}]
    assert {k[0] for k in complete} == {"de-en", "ja-en"} and len(complete) >= 3
    assert len(significance_rows(COMMITTED, mt)[0]) == 3 * len(complete)
    assert bootstrap_mismatches() == []


def test_sparse_output_row_is_scipys_welch_with_holm():
    """Issue 54: the Table 1 row re-derived without the kit: scipy's Welch p of each 3-seed pair, Holm by hand."""
    acc: dict = {}
    for r in grid_records():
        acc.setdefault((r["config"]["mapping"]["alpha"], r["config"]["mapping"]["attn_alpha"]), []).append(
            r["metrics"]["acc"])
    from scipy import stats
    p = {b: stats.ttest_ind(acc[(2.0, b)], acc[(1.0, b)], equal_var=False).pvalue for b in (1.0, 2.0)}
    assert all(len(acc[(a, b)]) == 3 for a in (1.0, 2.0) for b in (1.0, 2.0))
    row = next(line for line in (COMMITTED / "claims.md").read_text().splitlines()
               if line.startswith("| sparse outputs (1.5-entmax, sparsemax) beat softmax"))
    # six comparisons in the claim: the smallest of these two raw p's is multiplied by at most 6
    assert all(p_ < 0.05 for p_ in p.values()) and "Holm over 6" in row
    assert f"out 2/att 1: {sum(acc[(2.0, 1.0)]) / 3 - sum(acc[(1.0, 1.0)]) / 3:+.2f}" in row


def planned_jobs() -> int:
    """The cpu plan's size, from the job-identity fixture (test_job_ids.py holds it equal to the plan): the committed
    report may hold part of it while the plan runs across sessions."""
    return len(json.loads((PROJECT / "tests" / "fixtures" / "job_ids.json").read_text())["peters2019"]["cpu"]["jobs"])


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
    assert len(err) == 1 and err[0].startswith("error: ") and f"{planned_jobs()} jobs of the cpu plan" in err[0], err
    assert files(clone) == before


SHARED_DATA = PROJECT.parent / "shared" / "data"


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


def test_report_only_rebuilds_the_committed_cpu_report_with_no_record_orphaned(tmp_path, monkeypatch, capsys):
    """Issue 35, acceptance 1: a clone's ``--report-only`` (no run directories) gives back every file of the committed
    folder byte for byte, figures redrawn, from the committed records, and each of them is one of the plan's jobs."""
    records = len(stored("runs.jsonl")) + len(stored("runs_mt.jsonl"))
    clone = rebuild_report_only("peters2019", COMMITTED, records, tmp_path, monkeypatch, capsys,
                                planned=planned_jobs())

    def files(folder):
        return {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file() and p.suffix != ".png"}
    assert files(clone) == files(COMMITTED)


def stopping_mismatches(recs) -> list[str]:
    """Each MT run with early stopping against the report's convergence rule replayed validation by validation: a
    run stopped early must have stopped at the rule's first firing, a run at its step budget never fired it."""
    out = []
    for r in recs:
        if r["config"]["task"].get("early_stopping_patience") is None:
            continue
        hist = r["extra"]["history"]
        fired = next((h["step"] for i, h in enumerate(hist, 1)
                      if convergence.convergence_of({**r, "extra": {"history": hist[:i]}})["stopped"]), None)
        want = r["metrics"]["steps"] if r["extra"].get("stopped_early") else None
        if fired != want:
            out.append(f"{r['run_dir']}: stopped at {r['metrics']['steps']} (early: {r['extra'].get('stopped_early')}), "
                       f"the rule first fires at {fired}")
    return out


def test_each_mt_run_stopped_where_the_reports_convergence_rule_first_fired():
    """Issue 32, acceptance 4: training stops by the report's rule (training/plateau_stopping.py), so every
    committed MT run ended exactly where the convergence table first says it had stopped improving."""
    from sparselab.reports.records import committed_records

    recs = committed_records(COMMITTED / "runs_mt.jsonl", COMMITTED / "run_extras_mt.jsonl", "runs")
    # every committed MT record is read (15 when the ja-en second seeds of 1.5-entmax and sparsemax were added)
    assert len(recs) == len((COMMITTED / "runs_mt.jsonl").read_text(encoding="utf-8").splitlines()) >= 15
    assert stopping_mismatches(recs) == []
