"""The Table 2 claims of the committed ``reports/martins2016/cpu/`` follow from its stored records (issue 37).

``runs_table2.jsonl`` + ``run_extras_table2.jsonl`` hold every Table 2 record behind the report, test-set bootstrap
replicates included. The claim rows are recomputed from them with the report's rules and must equal the committed
rows; the best-cell counts are re-derived once more with numpy alone (paired replicate differences, 2 SE)."""
from __future__ import annotations

import numpy as np
import pytest

from scripts import PROJECT, rebuild_report_only

from sparselab.reports.martins2016 import report as rep
from sparselab.reports.martins2016 import claims
from sparselab.reports.martins2016 import table2_records as t2rec

COMMITTED = PROJECT / "reports" / "martins2016" / "cpu"
pytestmark = pytest.mark.skipif(not (COMMITTED / t2rec.EXTRAS).exists(), reason="no committed Table 2 records")


def committed_by():
    recs = t2rec.committed(COMMITTED, PROJECT / "no-runs-here")
    return {(r["config"]["data"]["name"], r["config"]["task"]["loss"]): r for r in recs}


def claim_rows() -> dict[str, str]:
    text = (COMMITTED / "table2_multilabel.md").read_text(encoding="utf-8")
    section = text.split("## The paper's claims, checked on these runs", 1)[1]
    return {line.split(" | ")[0].lstrip("| "): line for line in section.splitlines() if line.startswith("| ")}


def test_committed_claim_rows_are_recomputed_from_the_committed_records():
    rows = claim_rows()
    for c in rep.table2_claims(committed_by()):
        assert rows[c.claim] == f"| {c.claim} | {c.rule} | **{c.verdict}** | {c.evidence} |"


def test_best_cell_counts_rederived_from_the_replicates():
    by = committed_by()
    wins = dict.fromkeys(rep.LOSSES, 0)
    for d in ("scene", "emotions", "birds", "cal500"):
        for metric in ("micro_f1", "macro_f1"):
            score = {l: 100 * by[(d, l)]["metrics"][metric] for l in rep.LOSSES}
            reps = {l: 100 * np.mean([p["bootstrap"][metric] for p in by[(d, l)]["extra"]["per_split"]], axis=0)
                    for l in rep.LOSSES}
            beaten = {l for l in rep.LOSSES for m in rep.LOSSES
                      if m != l and score[m] - score[l] > 2 * np.std(reps[m] - reps[l], ddof=1)}
            for l in set(rep.LOSSES) - beaten:
                wins[l] += 1
    row = claim_rows()[claims.advantage_claim([], "").claim]
    assert "best (ties shared) in 8 cells (4 paper datasets; Reuters missing): " + ", ".join(
        f"{l} {wins[l]}" for l in rep.LOSSES) in row


def test_report_only_rebuilds_the_committed_folder_with_no_record_orphaned(tmp_path, monkeypatch, capsys):
    """Issue 35, acceptance 1: a clone's ``--report-only`` (no run directories) rewrites Table 2 from its committed
    records and leaves every file of the folder byte for byte as committed; every committed record, Table 2's and
    the Figure 3 / SNLI rows of ``runs.jsonl``, is a job of the cpu plan. (Figure 3's and Table 4's PNGs are kept,
    not redrawn: those runs' extras were never committed, so only a re-run redraws them.)"""
    import json

    from job_ids import FIXTURE

    clone = rebuild_report_only("martins2016", COMMITTED, 27, tmp_path, monkeypatch, capsys, redraw=False)
    assert {p.relative_to(clone): p.read_bytes() for p in clone.rglob("*") if p.is_file()} == \
        {p.relative_to(COMMITTED): p.read_bytes() for p in COMMITTED.rglob("*") if p.is_file()}
    # the plan's identities as the job-identity fixture holds them (test_job_ids.py: the fixture is the plan)
    plan = {j["id"] for j in json.loads(FIXTURE.read_text())["martins2016"]["cpu"]["jobs"]}
    stored = [json.loads(line)["config_hash"] for name in ("runs.jsonl", t2rec.CONFIGS)
              for line in (COMMITTED / name).read_text(encoding="utf-8").splitlines()]
    assert len(stored) == len(set(stored)) == 203 and set(stored) <= plan
