"""Committed runs stay found: every job of every plan keeps the identity recorded in tests/fixtures/job_ids.json.

A change that means to change identities rewrites the fixture (``python tests/job_ids.py``) in the same commit and
says why; any other change must leave every identity as it is.
"""
from __future__ import annotations

import json

import pytest

from job_ids import FIXTURE, PAPERS, differences, plan_jobs
from sparselab.reports.runner import PROFILES


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
