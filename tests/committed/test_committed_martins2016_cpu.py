"""The Table 2 claims of the committed ``reports/martins2016/cpu/`` follow from its stored records (issue 37).

``runs_table2.jsonl`` + ``run_extras_table2.jsonl`` hold every Table 2 record behind the report, test-set bootstrap
replicates included. The claim rows are recomputed from them with the report's rules and must equal the committed
rows; the best-cell counts are re-derived once more with numpy alone (paired replicate differences, 2 SE)."""
from __future__ import annotations

import pytest

from support import PROJECT, rebuild_report_only

from sparselab.reports.martins2016 import report as rep
from sparselab.reports.martins2016 import claims
from sparselab.reports.martins2016 import runs, table2
from sparselab.reports.martins2016 import runs as t2rec

COMMITTED = PROJECT / "reports" / "martins2016" / "cpu"
pytestmark = pytest.mark.skipif(not (COMMITTED / t2rec.EXTRAS).exists(), reason="no committed Table 2 records")


def committed_by():
    recs = t2rec.committed(COMMITTED, PROJECT / "no-runs-here")
    return {(r["config"]["data"]["name"], r["config"]["task"]["loss"]): r for r in recs}


def test_committed_claims_are_the_typed_claims_of_the_committed_records():
    """claims.md: Table 2's rows from its committed records, Figure 3's and SNLI's from the runs.jsonl rows."""
    from sparselab.reports.reference import reference
    found = table2.table2_claims(committed_by(), reference("martins2016").get("table2_multilabel", {}))
    text = (COMMITTED / "claims.md").read_text(encoding="utf-8")
    for c in found + claims.figure3_claims(runs.stored_rows(COMMITTED, rep.F3)):
        assert "| " + " | ".join(c.row()) + " |" in text


def test_point_estimate_counts_rederived_from_the_records():
    """Issue 54, item 5: "a slight advantage" counted as the paper counts: the cells where a loss is highest."""
    by = committed_by()
    top = dict.fromkeys(runs.LOSSES, 0)
    for d in ("scene", "emotions", "birds", "cal500"):
        for metric in ("micro_f1", "macro_f1"):
            score = {l: by[(d, l)]["metrics"][metric] for l in runs.LOSSES}
            for l in runs.LOSSES:
                top[l] += score[l] == max(score.values())
    row = next(line for line in (COMMITTED / "claims.md").read_text().splitlines()
               if line.startswith('| "a slight advantage of sparsemax"'))
    assert ", ".join(f"{l} {top[l]} of 8" for l in runs.LOSSES) in row and top["sparsemax"] == 1


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
