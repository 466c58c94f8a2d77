"""Martins & Astudillo (2016), "From Softmax to Sparsemax": multi-label, label-proportion and SNLI experiments.

Usage: ``python pipelines/martins2016.py --profile {smoke,cpu,paper} [--out DIR] [--report-only] [--jobs N]``

Runs (resumable: finished jobs are skipped) the sweeps ``martins2016/table2_multilabel`` (Table 2),
``martins2016/figure3_label_proportions`` (Figure 3) and ``martins2016/table3_snli`` (Tables 3 and 4), then
writes ``reports/martins2016/<profile>/`` from the run records only (``sparselab.reports.martins2016``).
"""
from __future__ import annotations

from sparselab.reports import martins2016 as report
from sparselab.reports.runner import Plan, main

T2 = "martins2016/table2_multilabel"
F3 = "martins2016/figure3_label_proportions"
T3 = "martins2016/table3_snli"
# SNLI (the experiment config sweeps 6 attention variants x the paper's L2 grid {0, 1e-4, 3e-4, 1e-3} x seeds 0-2):
# smoke: every variant once (L2 0, seed 0; 400 training pairs, 3 epochs).
# cpu: low-data (the 1% training sample offline), L2 {0, 1e-3} x seeds 0-2 = 36 jobs. Measured (2026-11-24, the
#   committed run): 30 min of wall time, 2 jobs in parallel, 65-201 s per job (early stopping); the budget is 45 min.
SNLI_SMOKE = ["task.l2=0", "seed=0"]
SNLI_CPU = ["task.l2=0,1e-3", "seed=0,1,2"]

# What each profile runs beyond the experiment configs' own sweeps (grids, folds and seeds are
# profile-dependent in conf/task/*.yaml through ${by_profile:...}).
PLANS = {
    "smoke": Plan(sweeps=[(T2, ["data.name=emotions,scene"]), (F3, ["data.length=200,1000"]), (T3, SNLI_SMOKE)]),
    "cpu": Plan(sweeps=[(T2, []), (F3, []), (T3, SNLI_CPU)], launcher="parallel"),
    "paper": Plan(sweeps=[(T2, []), (F3, []), (T3, [])]),
}

if __name__ == "__main__":
    raise SystemExit(main(report, PLANS, description=__doc__))
