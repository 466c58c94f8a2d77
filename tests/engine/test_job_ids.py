"""Committed runs stay found: every job of every plan keeps the identity recorded in tests/fixtures/job_ids.json,
and every committed record (the ``cpu`` reports' ``runs*.jsonl``, the smoke fixtures' records) is, through the
identity migrations (sparselab.engine.identity), a job of its plan in that fixture.

A change that means to change identities rewrites the fixture (``python tests/job_ids.py``) in the same commit,
with the migration that takes the committed records there, and says why; any other change must leave every identity
as it is.
"""
from __future__ import annotations

import json

import pytest

from job_ids import FIXTURE, PAPERS, differences, plan_jobs
from sparselab.engine import identity, record
from sparselab.reports.runner import CONF_DIR, PROFILES

COMMITTED = [(paper, "cpu", path) for paper in PAPERS
             for path in sorted((FIXTURE.parents[2] / "reports" / paper / "cpu").glob("runs*.jsonl"))]


def committed_records():
    """``(paper, profile, where, record)`` for every committed run record: the cpu reports' and the smoke fixtures'."""
    for paper, profile, path in COMMITTED:
        for n, line in enumerate(path.read_text().splitlines(), 1):
            yield paper, profile, f"{path.name}:{n}", json.loads(line)
    smoke = FIXTURE.parent / "smoke_records.jsonl"
    for n, line in enumerate(smoke.read_text().splitlines(), 1):
        row = json.loads(line)
        yield row["run_dir"].split("/")[1], "smoke", f"{smoke.name}:{n}", row["record"]


@pytest.mark.parametrize("paper", PAPERS)
def test_every_plan_job_keeps_its_identity(paper):
    fixture = json.loads(FIXTURE.read_text())
    now = plan_jobs([paper])[paper]
    changed = [f"{paper} {profile}: {line}" for profile in PROFILES
               for line in differences(fixture[paper][profile], now[profile])]
    assert not changed, "job identities changed (see tests/job_ids.py):\n" + "\n".join(changed)


def test_the_fixture_is_of_the_current_identity_version():
    assert json.loads(FIXTURE.read_text())["identity_version"] == identity.current_version()


def test_every_committed_record_is_a_job_of_its_plan_through_the_migrations():
    """Each committed record's stored hash is version 1's (the hash of its config as stored, migrating nothing),
    and its identity (its config migrated from the version it was written under) is a job of its profile's plan in
    the fixture, which test_every_plan_job_keeps_its_identity holds to the plan."""
    fixture = json.loads(FIXTURE.read_text())
    planned = {(paper, profile): {j["id"] for j in fixture[paper][profile]["jobs"]} for paper in PAPERS
               for profile in PROFILES}
    lost, moved, seen = [], 0, {p: 0 for p, _, _ in COMMITTED}
    for paper, profile, where, rec in committed_records():
        assert record.job_id(rec["config"]) == rec["config_hash"], where   # its stored config, migrating nothing
        now = record.identity(rec)
        moved += now != rec["config_hash"]
        seen[paper] = seen.get(paper, 0) + 1
        if now not in planned[paper, profile]:
            lost.append(f"{paper} {profile} {where}: {rec['config_hash']} -> {now}, not in the plan")
    assert not lost, "committed records no plan job finds:\n" + "\n".join(lost)
    assert all(seen.values()) and moved >= 8, (seen, moved)    # the 8 Correia runs moved by the v1 -> v2 migration


def test_differences_name_the_job_and_the_keys():
    entry = {"base": {"e": {"a.b": "1", "c": "2"}},
             "jobs": [{"experiment": "e", "overrides": ["seed=0"], "id": "x", "leaves": {}}]}
    moved = {"base": {"e": {"a.b": "9", "c": "2"}},
             "jobs": [{"experiment": "e", "overrides": ["seed=0"], "id": "y", "leaves": {"d": "3"}}]}
    assert differences(entry, moved) == ["e seed=0: x -> y; keys changed: a.b, d"]
    assert differences(entry, entry) == []
    grown = {"base": entry["base"], "jobs": [{"experiment": "e", "overrides": ["seed=1"], "id": "z", "leaves": {}},
                                             *entry["jobs"]]}
    assert differences(entry, grown) == ["e seed=1: new in the plan (z)"]


def test_a_config_change_outside_the_identity_is_named_and_listed_by_key():
    """The fixture's ``config`` digest (the whole resolved config) catches a value that moved without moving the job;
    tests/resolved_configs.py names its keys; neither depends on the runs folder."""
    from job_ids import config_digest
    from resolved_configs import compare

    job = {"experiment": "e", "overrides": ["seed=0"], "id": "x", "config": "c1", "leaves": {}}
    entry = {"base": {"e": {}}, "jobs": [job]}
    assert differences(entry, {"base": {"e": {}}, "jobs": [{**job, "config": "c2"}]}) == [
        "e seed=0: same identity, but its resolved config changed outside it (tests/resolved_configs.py names the keys)"]
    here = {"paths": {"runs": "/a/runs"}, "data": {"root": "/x", "cache_dir": "/a/runs/.cache/mt"}, "engine": {"w": 0}}
    there = {"paths": {"runs": "/b/runs/"}, "data": {"root": None, "cache_dir": "/b/runs/.cache/mt"}, "engine": {"w": 0}}
    assert config_digest(here) == config_digest(there)
    assert config_digest(here) != config_digest({**here, "engine": {"w": 0.0}})      # 0 and 0.0 differ here
    row = {"paper": "p", "profile": "cpu", "experiment": "e", "overrides": ["seed=0"], "config": here}
    assert compare([row], [row]) == []
    moved = {**row, "config": {**here, "engine": {"w": 4}}}
    assert compare([row], [moved]) == ["p cpu e seed=0: engine.w 0 -> 4"]
    assert compare([row], []) == ["p cpu e seed=0: only before"]


def test_compose_all_gives_each_job_the_config_compose_gives_it():
    """engine.jobs.compose_all shares one Hydra composition among the jobs that choose the same config groups: every
    job of every smoke plan (group choices such as mapping=alpha_entmax among them) gets the whole config, unresolved,
    that one compose per job gives."""
    from hydra import compose, initialize_config_dir
    from omegaconf import OmegaConf

    from sparselab.engine import jobs
    from support import load_script

    checked = groups = 0
    for paper in PAPERS:
        for experiment, overrides in load_script(f"pipelines/{paper}.py", f"_plan_{paper}").PLANS["smoke"].sweeps:
            expanded = jobs.expand(CONF_DIR, experiment, "smoke", overrides)
            shared = jobs.compose_all(CONF_DIR, expanded)
            with initialize_config_dir(version_base="1.3", config_dir=str(CONF_DIR), job_name="check"):
                for job, cfg in zip(expanded, shared):
                    assert OmegaConf.to_yaml(cfg) == OmegaConf.to_yaml(compose(config_name="config", overrides=job))
                    checked += 1
                    groups += any(o.startswith("mapping=") for o in job)
    assert checked > 50 and groups > 0, (checked, groups)
