"""Committed runs stay found: every job of every plan keeps the identity recorded in tests/fixtures/job_ids.json.

A change that means to change identities rewrites the fixture (``python tests/job_ids.py``) in the same commit and
says why; any other change must leave every identity as it is.
"""
from __future__ import annotations

import json

import pytest

from job_ids import FIXTURE, PAPERS, differences, plan_jobs
from sparselab.reports.runner import CONF_DIR, PROFILES


@pytest.mark.parametrize("paper", PAPERS)
def test_every_plan_job_keeps_its_identity(paper):
    fixture = json.loads(FIXTURE.read_text())
    now = plan_jobs([paper])[paper]
    changed = [f"{paper} {profile}: {line}" for profile in PROFILES
               for line in differences(fixture[paper][profile], now[profile])]
    assert not changed, "job identities changed (see tests/job_ids.py):\n" + "\n".join(changed)


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


def test_compose_all_gives_each_job_the_config_compose_gives_it():
    """engine.jobs.compose_all shares one Hydra composition among the jobs that choose the same config groups: every
    job of every smoke plan (group choices such as mapping=alpha_entmax among them) gets the whole config, unresolved,
    that one compose per job gives."""
    from hydra import compose, initialize_config_dir
    from omegaconf import OmegaConf

    from sparselab.engine import jobs
    from scripts import load_script

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
