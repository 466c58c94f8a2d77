#!/usr/bin/env bash
# Correia cpu: why does the learned α only fall (no head turns), and how far can it travel? Short α-entmax runs
# (de-en, seed 0, the cpu profile otherwise unchanged) that separate the hypotheses:
#   H1 room to travel: α's movement is bounded by the sum of its learning rate. α's peak lr at 3x, 10x and 30x the
#      other weights' (task.alpha_lr; the schedule, warm-up 1,200 then inverse sqrt, is the same), first 4,000
#      steps only: the inverse-sqrt schedule does not depend on the budget, so each is the prefix of a 12,000-step run.
#   H2 time: the committed 12,000-step run at α lr = lr is the 1x control (its α every 100 steps is in the record).
# Then the rule (H1): α's summed learning rate over the 12,000-step budget equal to the paper profile's (60.3):
#   α peak lr = 10.4 x lr = 0.0104 (summed 60.2); the full budget, seeds 0 and 1 (`rule`). Their identities are
#   those of the plan's α-entmax jobs under that rule (experiment + mapping + seed + task.alpha_lr).
# Usage (from a clean clone, so later edits do not change running code):
#   SPARSELAB_RUNS=/work/runs_cpu PYTHON=.venv/bin/python \
#     reports/correia2019/diagnosis/diagnose_correia_alpha.sh [N] [short|rule]
# Logs under $SPARSELAB_RUNS/correia_alpha_logs; summary: diagnose_correia_alpha_report.py (beside this script).
source "$(dirname "$0")/../../diagnosis_lib/diagnose_lib.sh"
N=${1:-2}
COMMON="experiment=correia2019/table1_bleu profile=cpu threads=1 data.pair=de-en mapping=alpha_entmax"

if [ "${2:-short}" = rule ]; then
  printf '%s\n' "R_s0 seed=0" "R_s1 seed=1" | run_jobs "$N" "$SPARSELAB_RUNS/correia_alpha_logs" \
    "$COMMON task.alpha_lr=0.0104"
  exit
fi
JOBS=(
  "A10 task.alpha_lr=0.01"
  "A30 task.alpha_lr=0.03"
  "A3 task.alpha_lr=0.003"
)

printf '%s\n' "${JOBS[@]}" | run_jobs "$N" "$SPARSELAB_RUNS/correia_alpha_logs" "$COMMON seed=0 trainer.max_steps=4000"
