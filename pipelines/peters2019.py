"""Peters, Niculae & Martins (2019), "Sparse Sequence-to-Sequence Models": morphological inflection.

Usage: ``python pipelines/peters2019.py --profile {smoke,cpu,paper} [--out DIR] [--report-only] [--jobs N]``

Runs (resumable: finished jobs are skipped) the sweeps ``peters2019/table1_<setting>`` with the
profile's seeds and, where the profile ensembles, ``peters2019/ensemble_<setting>``; then writes
``reports/peters2019/<profile>/`` (Table 1, sparsity and exactness, Figure 1-style examples) from
the run records only (``sparselab.reports.peters2019``).
"""
from __future__ import annotations

from sparselab.reports import peters2019 as report
from sparselab.reports.runner import Plan, main


def plan(settings: list[str], seeds: list[int], ensemble: bool, launcher: str | None = None) -> Plan:
    """Per setting: the shared task's non-neural baseline (the floor), the α grid with the seeds, then
    (if ``ensemble``) the seeds' ensembles. Sizes and steps live in the configs (conf/{data,model,task},
    the experiment files)."""
    sweeps = []
    for setting in settings:
        sweeps.append((f"peters2019/baseline_{setting}", []))
        sweeps.append((f"peters2019/table1_{setting}", [f"seed={','.join(map(str, seeds))}"]))
        if ensemble:
            sweeps.append((f"peters2019/ensemble_{setting}", []))
    return Plan(sweeps=sweeps, launcher=launcher,
                options={"settings": settings, "seeds": seeds, "ensemble": ensemble, "baseline": True})


PLANS = {
    "smoke": plan(["medium"], seeds=[0, 1], ensemble=True),
    "cpu": plan(["medium"], seeds=[0], ensemble=False, launcher="parallel"),
    "paper": plan(["high", "medium"], seeds=[0, 1, 2], ensemble=True),
}

if __name__ == "__main__":
    raise SystemExit(main(report, PLANS, description=__doc__))
