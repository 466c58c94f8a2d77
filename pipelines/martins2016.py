"""Martins & Astudillo (2016), "From Softmax to Sparsemax": multi-label and label-proportion experiments.

Usage: ``python pipelines/martins2016.py --profile {smoke,cpu,paper} [--out DIR] [--report-only] [--jobs N]``

Runs (resumable: finished jobs are skipped) the sweeps ``martins2016/table2_multilabel`` (Table 2) and
``martins2016/figure3_label_proportions`` (Figure 3), then writes ``reports/martins2016/<profile>/``
from the run records only (``sparselab.reports.martins2016``).
"""
from __future__ import annotations

from sparselab.reports import martins2016 as report
from sparselab.reports.runner import Plan, main

T2 = "martins2016/table2_multilabel"
F3 = "martins2016/figure3_label_proportions"

# What each profile runs beyond the experiment configs' own sweeps (grids, folds and seeds are
# profile-dependent in conf/task/*.yaml through ${by_profile:...}).
PLANS = {
    "smoke": Plan(sweeps=[(T2, ["data.name=emotions,scene"]), (F3, ["data.length=200,1000"])]),
    "cpu": Plan(sweeps=[(T2, []), (F3, [])], launcher="parallel"),
    "paper": Plan(sweeps=[(T2, []), (F3, [])]),
}

if __name__ == "__main__":
    raise SystemExit(main(report, PLANS, description=__doc__))
