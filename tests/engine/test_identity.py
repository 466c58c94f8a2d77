"""The versioned job identity (sparselab.engine.identity): the declaration, the pure migrations, and a record of
an earlier version found under the current one; a record of a later version is an ``error:`` line, exit 2."""
from __future__ import annotations

import copy
import json

import pytest

from sparselab.engine import execute, identity, record
from sparselab.reports import runner

PEERS = {"paths": {"runs": "/r"}, "logger": {"mode": "offline"}, "engine": {"resume": True}, "threads": 1,
         "trainer": {"max_steps": 10, "devices": 1, "accelerator": "cpu"}, "seed": 0, "profile": {"name": "cpu"},
         "experiment_name": "paper/exp", "model": {"d_model": 8, "attention_impl": "auto"},
         "data": {"name": "mt", "root": "/d", "pair": "de-en", "pairs": {"de-en": {"max_steps": 5, "val_every": 2}}}}


def config(task: str, **over) -> dict:
    return {**copy.deepcopy(PEERS), "task": {"name": task, "lr": 0.1}, **over}


def test_the_declaration_leaves_out_machinery_only():
    cfg = config("translation")
    sem = identity.semantic(cfg)
    assert set(sem) == {"trainer", "seed", "profile", "experiment_name", "model", "data", "task"}
    assert "root" not in sem["data"] and "attention_impl" not in sem["model"] and sem["trainer"] == {"max_steps": 10.0}
    assert set(identity.machinery_keys()) >= {"paths", "data.root", "trainer.devices", "model.attention_impl"}
    moved = {**cfg, "paths": {"runs": "/elsewhere"}, "threads": 2, "data": {**cfg["data"], "root": "/other"}}
    assert identity.job_id(moved) == identity.job_id(cfg)
    assert identity.job_id({**cfg, "seed": 1}) != identity.job_id(cfg)


def test_a_new_job_with_an_undeclared_top_level_key_stops_naming_it():
    identity.check_declared(config("translation"))
    with pytest.raises(identity.ConfigError, match="^extra: not declared in the job identity"):
        identity.check_declared({**config("translation"), "extra": {"a": 1}})
    # a stored config with one is hashed with it: it never matches a declared job by leaving something out
    assert identity.job_id({**config("translation"), "extra": 1}) != identity.job_id(config("translation"))


def test_migration_helpers_are_pure():
    cfg = {"a": {"b": 1, "c": {"x": 1, "y": 2}}, "task": {"name": "old"}}
    before = json.dumps(cfg, sort_keys=True)
    assert identity.renamed(cfg, "a.b", "z.w") == {"a": {"c": {"x": 1, "y": 2}}, "z": {"w": 1}, "task": {"name": "old"}}
    assert identity.renamed(cfg, "a.nope", "z") == cfg
    assert identity.dropped(cfg, "a.c.x") == {"a": {"b": 1, "c": {"y": 2}}, "task": {"name": "old"}}
    assert identity.dropped(cfg, "a.*.y") == {"a": {"b": 1, "c": {"x": 1}}, "task": {"name": "old"}}
    assert identity.task_renamed(cfg, "old", "new")["task"] == {"name": "new"}
    assert identity.task_renamed(cfg, "other", "new") == cfg
    assert json.dumps(cfg, sort_keys=True) == before


def test_version_1_correia_configs_lose_the_dead_step_guard_and_peters_keep_it():
    correia = config("transformer_translation")
    now = identity.dropped(correia, "data.pairs.*.max_steps")
    assert record.identity({"config": correia}) == record.job_id(now) != record.job_id(correia)
    assert record.identity({"config": correia, "identity_version": identity.current_version()}) == record.job_id(correia)
    peters = config("translation")
    assert record.identity({"config": peters}) == record.job_id(peters)       # Peters reads it: it stays
    wmt14 = config("translation", data={**peters["data"], "name": "mt_wmt14",
                                        "pairs": {"en-de": {"max_steps": 4}, "de-en": {"max_steps": 5}}})
    assert identity.migrate(wmt14, 1)["data"]["pairs"] == {"en-de": {}, "de-en": {"max_steps": 5}}


def rename_task(cfg: dict) -> dict:
    return identity.task_renamed(cfg, "transformer_translation", "transformer")


def test_a_record_of_the_version_before_a_rename_is_found_after_it(tmp_path, monkeypatch):
    old_version = identity.current_version()
    old = config("transformer_translation")
    old_id = record.job_id(old)
    folder = tmp_path / "cpu" / "paper" / "exp" / old_id
    record.write(folder, {"status": "finished", "config": old, "config_hash": old_id, "identity_version": old_version})

    monkeypatch.setattr(identity, "MIGRATIONS", (*identity.MIGRATIONS, rename_task))
    assert identity.current_version() == old_version + 1
    new = rename_task(old)
    new_id = record.job_id(new)
    assert new_id != old_id
    assert runner.finished_jobs(tmp_path, "cpu", {new_id}) == {new_id}          # reports find it
    rec = record.read(folder)
    assert record.is_finished(rec, new_id)                                      # resume finds it
    adopted = execute._adopt(folder.parent / new_id, new_id)                    # ... in its old folder
    assert adopted and adopted["run_dir"] == str(folder)
    # a folder named by a current-version identity is another job's, whatever its config
    record.write(folder, {**rec, "identity_version": old_version + 1})
    assert execute._adopt(folder.parent / new_id, new_id) is None


def test_migrations_run_from_the_stored_version_on():
    seen = []
    steps = [lambda c: seen.append(2) or c, lambda c: seen.append(3) or c]
    identity.migrate({}, 2, steps)
    assert seen == [3]
    with pytest.raises(identity.IdentityVersionError, match="identity_version 0 is not a version"):
        identity.migrate({}, 0)


def future_record(version: int) -> dict:
    return {"status": "finished", "config": config("translation"), "config_hash": "f" * 16,
            "identity_version": version}


def test_a_record_of_a_later_version_is_an_error_naming_it(tmp_path):
    later = identity.current_version() + 1
    with pytest.raises(identity.IdentityVersionError, match=f"/x: identity_version {later} is newer than this"):
        record.identity({**future_record(later), "run_dir": "/x"})


def test_the_pipeline_cli_exits_2_on_a_record_of_a_later_version(tmp_path, monkeypatch, capsys):
    from sparselab.reports import peters2019

    record.write(tmp_path / "runs" / "smoke" / "p" / "e" / "job", future_record(identity.current_version() + 1))
    monkeypatch.setenv("SPARSELAB_RUNS", str(tmp_path / "runs"))
    monkeypatch.setattr(runner, "sweep_identities", lambda *a: [("exp", ["job"])])   # a plan of one job
    plans = {"smoke": runner.Plan(sweeps=[], options={})}
    assert runner.main(peters2019, plans, ["--profile", "smoke", "--out", str(tmp_path / "o"), "--report-only"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "is newer than this sparselab's" in err


def test_restore_exits_2_on_a_committed_record_of_a_later_version(tmp_path, monkeypatch, capsys):
    from sparselab.reports import restore

    report = tmp_path / "report"
    report.mkdir()
    row = {"run": "cpu/correia2019/table1_bleu/x", "config": config("transformer_translation"), "config_hash": "h",
           "identity_version": identity.current_version() + 1}
    (report / "runs.jsonl").write_text(json.dumps(row) + "\n")
    (report / "run_extras.jsonl").write_text(json.dumps({"run": row["run"], "status": "finished"}) + "\n")
    monkeypatch.setattr(runner, "report_path", lambda *a: report)
    monkeypatch.setenv("SPARSELAB_RUNS", str(tmp_path / "runs"))
    assert restore.main(["correia2019"]) == 2
    assert capsys.readouterr().err.startswith("error: ")


def test_committed_rows_keep_the_version_they_were_written_under(tmp_path):
    from sparselab.reports import index
    from sparselab.reports.records import committed_records

    runs = tmp_path / "runs"
    recs = [{"run_dir": str(runs / "cpu" / "e" / name), "config": config("translation"), "config_hash": "h", **v}
            for name, v in (("old", {}), ("new", {"identity_version": 2}))]
    configs = index.write_configs(tmp_path, recs, runs)
    assert ["identity_version" in json.loads(line) for line in configs.read_text().splitlines()] == [True, False]
    (tmp_path / "extras.jsonl").write_text("".join(json.dumps({"run": f"cpu/e/{n}"}) + "\n" for n in ("new", "old")))
    back = {r["run_dir"].rsplit("/", 1)[1]: r for r in committed_records(configs, tmp_path / "extras.jsonl", runs)}
    assert back["new"]["identity_version"] == 2 and "identity_version" not in back["old"]
