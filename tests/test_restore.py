"""A plan continued on a new machine: the committed records restored into an empty runs folder are found as the
jobs they are, with the files a report copies out of run directories, so the report rebuilt from them is the
committed one byte for byte and the plan skips every restored job."""
from __future__ import annotations

import shutil

from scripts import PROJECT, load_script

from sparselab.engine import record
from sparselab.reports.restore import restore

COMMITTED = PROJECT / "reports" / "peters2019" / "cpu"


def test_restored_runs_rebuild_the_committed_report_and_count_as_finished(tmp_path, monkeypatch, capsys):
    from sparselab.reports.runner import finished_jobs, main, sweep_identities

    runs = tmp_path / "runs"
    done = restore("peters2019", "cpu", runs, COMMITTED)
    stored = len(COMMITTED.joinpath("runs.jsonl").read_text().splitlines()) + \
        len(COMMITTED.joinpath("runs_mt.jsonl").read_text().splitlines())
    assert done["restored"] == stored and done["files"] > 0
    assert restore("peters2019", "cpu", runs, COMMITTED)["present"] == stored     # a second restore writes nothing

    mod = load_script("pipelines/peters2019.py", "pipeline_peters2019")
    planned = {i for _, ids in sweep_identities(mod.PLANS["cpu"], "cpu") for i in ids}
    assert len(finished_jobs(runs, "cpu", planned)) == stored                    # the plan will skip them all
    assert all(r.get("restored_from") == "reports/peters2019/cpu" for r in record.find(runs, "cpu"))

    out = tmp_path / "report"           # a copy of the folder: files no record writes (the rescoring) stay
    shutil.copytree(COMMITTED, out)
    monkeypatch.setenv("SPARSELAB_RUNS", str(runs))
    assert main(mod.report, mod.PLANS, ["--profile", "cpu", "--report-only", "--out", str(out)]) == 0
    assert f"{stored} of {len(planned)} planned jobs" in capsys.readouterr().out

    def files(folder):
        return {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file() and p.suffix != ".png"}
    assert files(out) == files(COMMITTED)


def test_skipped_jobs_are_left_to_run_again(tmp_path):
    recs = load_script("pipelines/peters2019.py", "pipeline_peters2019").report.committed(COMMITTED, tmp_path)
    first = record.identity(recs[0])
    done = restore("peters2019", "cpu", tmp_path, COMMITTED, skip={first})
    assert done["skipped"] == 1 and record.read(recs[0]["run_dir"]) is None
