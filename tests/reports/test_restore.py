"""A plan continued on a new machine: the committed records restored into an empty runs folder are found as the
jobs they are, with the files a report copies out of run directories, so the report rebuilt from them is the
committed one byte for byte and the plan skips every restored job."""
from __future__ import annotations

import shutil
from pathlib import Path

from support import PROJECT, load_script

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


def test_a_job_is_skipped_by_the_folder_name_runs_jsonl_shows(tmp_path):
    # an inflection record written before identity version 3 keeps its old folder name (its config_hash), which
    # differs from its identity now: either names the job
    recs = load_script("pipelines/peters2019.py", "pipeline_peters2019").report.committed(COMMITTED, tmp_path)
    rec = next(r for r in recs if Path(r["run_dir"]).name != record.identity(r))
    assert Path(rec["run_dir"]).name == rec["config_hash"]
    done = restore("peters2019", "cpu", tmp_path, COMMITTED, skip={rec["config_hash"]})
    assert done["skipped"] == 1 and record.read(rec["run_dir"]) is None


def test_an_unknown_skip_id_is_one_error_line_and_nothing_is_restored(tmp_path, monkeypatch, capsys):
    from sparselab.reports.restore import main

    monkeypatch.setenv("SPARSELAB_RUNS", str(tmp_path))
    assert main(["peters2019", "--profile", "cpu", "--skip", "0123456789abcdef"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: --skip 0123456789abcdef: no committed run")
    assert not any(tmp_path.rglob("run.json"))


def test_an_ensemble_names_its_restored_members_that_lack_a_model(tmp_path):
    import pytest
    from omegaconf import OmegaConf

    from sparselab.tasks.inflection import MODEL_FILE, find_members

    def member(seed, restored):
        d = tmp_path / "cpu" / "peters2019" / "table1_medium" / f"job{seed}"
        body = {"status": "finished", "metrics": {"acc": 70.0},
                "config": {"seed": seed, "mapping": {"alpha": 1.5, "attn_alpha": 2.0}, "data": {"setting": "medium"},
                           "task": {"mode": "train"}}}
        record.write(d, {**body, **({"restored_from": "reports/peters2019/cpu"} if restored else {})})
        if not restored:
            (d / MODEL_FILE).write_bytes(b"")
        return d
    member(0, restored=True)
    member(1, restored=False)
    cfg = OmegaConf.create({"paths": {"runs": str(tmp_path)}, "profile": {"name": "cpu"},
                            "task": {"source_experiment": "peters2019/table1_medium", "ensemble_seeds": [0, 1]},
                            "mapping": {"alpha": 1.5, "attn_alpha": 2.0}, "data": {"resource": "medium"}})
    with pytest.raises(FileNotFoundError, match=r"job0 were restored without their model\.pt; remove those"):
        find_members(cfg)
    member(0, restored=False)            # re-trained: its record is no longer the restored one
    assert [m["seed"] for m in find_members(cfg)] == [0, 1]
