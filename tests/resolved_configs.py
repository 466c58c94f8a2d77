"""Every plan job's whole resolved config, to check that a change of the conf/ layout changes no job at all.

Job identities (tests/job_ids.py) hash the semantic part of a config only; this dumps all of it (every key that
``sparselab.engine.record.resolved`` keeps, machinery included) for every job of every paper's plan, per profile:

    python tests/resolved_configs.py dump before.json      # at the old commit (after it: PAPER... to dump some)
    python tests/resolved_configs.py dump after.json       # with the change
    python tests/resolved_configs.py compare before.json after.json

``compare`` prints one line per job whose config differs (the dotted keys that differ), and exits 1 if any does.
Run both dumps from the same checkout folder and with the same SPARSELAB_RUNS: ``data.root`` and ``paths.runs``
are paths.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from job_ids import PAPERS
from support import load_script

from sparselab.engine import jobs, record
from sparselab.reports.runner import CONF_DIR, PROFILES


def plan_configs(papers=PAPERS, profiles=PROFILES) -> list[dict]:
    """``[{"paper", "profile", "experiment", "overrides", "config"}]`` for every plan job, in plan order."""
    out = []
    for paper in papers:
        plans = load_script(f"pipelines/{paper}.py", f"_plan_{paper}").PLANS
        for profile in profiles:
            for experiment, overrides in plans[profile].sweeps:
                expanded = jobs.expand(CONF_DIR, experiment, profile, overrides)
                for job, cfg in zip(expanded, jobs.compose_all(CONF_DIR, expanded)):
                    out.append({"paper": paper, "profile": profile, "experiment": experiment, "overrides": job,
                                "config": record.resolved(cfg)})
    return out


def flat(d, prefix: str = "") -> dict:
    """``a.b.c`` → leaf value (JSON text, so that 1 and 1.0 or "1" differ)."""
    out = {}
    for k, v in d.items():
        if isinstance(v, dict) and v:
            out.update(flat(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = json.dumps(v)
    return out


def compare(before: list[dict], after: list[dict]) -> list[str]:
    """One line per job (matched by paper, profile, experiment and overrides) that is missing on one side or whose
    config differs in any leaf, naming the keys."""
    def by_job(rows):
        return {(r["paper"], r["profile"], r["experiment"], tuple(sorted(r["overrides"]))): r["config"] for r in rows}
    a, b = by_job(before), by_job(after)
    lines = [f"{' '.join(k[:3])} {' '.join(k[3])}: only before" for k in a.keys() - b.keys()]
    lines += [f"{' '.join(k[:3])} {' '.join(k[3])}: only after" for k in b.keys() - a.keys()]
    for k in a.keys() & b.keys():
        fa, fb = flat(a[k]), flat(b[k])
        keys = sorted(x for x in fa.keys() | fb.keys() if fa.get(x) != fb.get(x))
        if keys:
            lines.append(f"{' '.join(k[:3])} {' '.join(k[3])}: " + ", ".join(
                f"{x} {fa.get(x, '(none)')} -> {fb.get(x, '(none)')}" for x in keys))
    return sorted(lines)


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "dump":
        rows = plan_configs(tuple(sys.argv[3:]) or PAPERS)
        Path(sys.argv[2]).write_text(json.dumps(rows, indent=0) + "\n")
        print(f"{len(rows)} jobs -> {sys.argv[2]}")
    elif len(sys.argv) == 4 and sys.argv[1] == "compare":
        before, after = (json.loads(Path(p).read_text()) for p in sys.argv[2:])
        papers = {r["paper"] for r in after}
        before = [r for r in before if r["paper"] in papers]    # an ``after`` of some papers only
        diff = compare(before, after)
        print("\n".join(diff) or f"identical: {len(before)} jobs")
        sys.exit(1 if diff else 0)
    else:
        sys.exit(__doc__)
