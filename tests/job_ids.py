"""The identity of every job of every paper's plan, per profile, as ``sparselab.engine.jobs`` expands it.

``python tests/job_ids.py`` rewrites ``tests/fixtures/job_ids.json``. Do that only in a commit that means to change
identities, and say in it which jobs change and why; an identity that moves must come with the migration
(``sparselab.engine.identity.MIGRATIONS``) that takes the committed records' configs to it, or it orphans them
(``tests/engine/test_job_ids.py`` checks every committed record against the fixture).
Beside each identity the fixture keeps a short hash of every leaf of the job's semantic config, so that a failing
test can name the keys that changed (the values themselves would make the file ten times larger), and a hash of its
whole resolved config (``config``: machinery too, but for where files are), so that a change meant to move no job
(a new layout of conf/) is checked to change no value at all; ``tests/resolved_configs.py`` names the keys.
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from sparselab.engine import identity, jobs, record
from sparselab.reports.runner import CONF_DIR, PROFILES

sys.path.insert(0, str(Path(__file__).resolve().parent))
from support import load_script

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "job_ids.json"
PAPERS = ("martins2016", "peters2019", "correia2019")


def leaves(d, prefix: str = "") -> dict[str, str]:
    """Every leaf of a nested dict as ``a.b.c`` → 8 hex digits of its JSON value."""
    out = {}
    for k, v in d.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict) and v:
            out.update(leaves(v, key + "."))
        else:
            out[key] = hashlib.sha256(json.dumps(v, sort_keys=True).encode()).hexdigest()[:8]
    return out


def config_digest(resolved: dict) -> str:
    """16 hex digits of the whole resolved config (JSON as is: 1 and 1.0 differ) without where files are: the data
    root and ``paths`` (a value under the runs folder, such as ``data.cache_dir``, is written ``<paths.runs>/...``)."""
    config = {k: v for k, v in resolved.items() if k != "paths"}
    if isinstance(config.get("data"), dict):
        config["data"] = {k: v for k, v in config["data"].items() if k != "root"}
    blob = json.dumps(config, sort_keys=True)
    runs = str((resolved.get("paths") or {}).get("runs") or "")
    if len(runs) > 1:
        blob = blob.replace(json.dumps(runs.rstrip("/"))[1:-1] + "/", "<paths.runs>/")
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def plan_jobs(papers=PAPERS, profiles=PROFILES) -> dict:
    """{paper: {profile: {"base": {experiment: leaves}, "jobs": [{"experiment", "overrides", "id", "config",
    "leaves"}]}}}
    in plan order; a job's ``leaves`` are those that differ from its experiment's first job (``base``)."""
    out: dict = {}
    for paper in papers:
        plans = load_script(f"pipelines/{paper}.py", f"_plan_{paper}").PLANS
        out[paper] = {}
        for profile in profiles:
            base, rows = {}, []
            for experiment, overrides in plans[profile].sweeps:
                expanded = jobs.expand(CONF_DIR, experiment, profile, overrides)
                for job, cfg in zip(expanded, jobs.compose_all(CONF_DIR, expanded)):
                    resolved = record.resolved(cfg)   # once: resolving is most of the time
                    flat = leaves(record.semantic_dict(resolved))
                    first = base.setdefault(experiment, flat)
                    rows.append({"experiment": experiment, "overrides": job, "id": record.job_id(resolved),
                                 "config": config_digest(resolved),
                                 "leaves": {k: v for k, v in flat.items() if first.get(k) != v}
                                 | {k: None for k in first if k not in flat}})
            out[paper][profile] = {"base": base, "jobs": rows}
    return out


def full_leaves(entry: dict, job: dict) -> dict:
    """A job's leaves: its experiment's base, with the job's own differences (None: a key it lacks)."""
    merged = {**entry["base"][job["experiment"]], **job["leaves"]}
    return {k: v for k, v in merged.items() if v is not None}


def differences(old: dict, new: dict) -> list[str]:
    """One line per job whose identity changed (``old``/``new``: one paper's profile entry), naming the job and
    the keys that changed; jobs are matched by experiment and overrides (in any order), so a plan that adds or
    reorders sweeps lists its new and dropped jobs rather than shifted ones."""
    def by_job(entry):
        return {(j["experiment"], tuple(sorted(j["overrides"]))): j for j in entry["jobs"]}
    a_jobs, b_jobs = by_job(old), by_job(new)
    lines = [f"{k[0]} {' '.join(k[1])}: dropped from the plan" for k in a_jobs if k not in b_jobs]
    lines += [f"{k[0]} {' '.join(k[1])}: new in the plan ({b_jobs[k]['id']})" for k in b_jobs if k not in a_jobs]
    for k in a_jobs.keys() & b_jobs.keys():
        a, b = a_jobs[k], b_jobs[k]
        if a["id"] != b["id"]:
            la, lb = full_leaves(old, a), full_leaves(new, b)
            keys = sorted(k for k in set(la) | set(lb) if la.get(k) != lb.get(k))
            lines.append(f"{a['experiment']} {' '.join(a['overrides'])}: {a['id']} -> {b['id']}; "
                         f"keys changed: {', '.join(keys) or '(none: the hash normalisation changed)'}")
        elif "config" in a and "config" in b and a["config"] != b["config"]:
            lines.append(f"{a['experiment']} {' '.join(a['overrides'])}: same identity, but its resolved config "
                         "changed outside it (tests/resolved_configs.py names the keys)")
    return sorted(lines)


def write_fixture(entries: dict) -> None:
    """The fixture: ``entries`` ({paper: {profile: ...}}) under the identity version that computed them."""
    FIXTURE.parent.mkdir(exist_ok=True)
    body = {"identity_version": identity.current_version(), **entries}
    FIXTURE.write_text(json.dumps(body, indent=0, sort_keys=True) + "\n")


if __name__ == "__main__":
    write_fixture(plan_jobs())
    print(f"wrote {FIXTURE}")
