#!/usr/bin/env bash
# Issue 20: why does sparse attention collapse under a softmax output (cpu profile, Peters 2019 Table 1 medium)?
# Separates the causes with single runs of output α 1 (softmax output) × attention α {1, 2}:
#   A. the paper's halving rule (lr_rule=previous: halve when the dev loss rises over the previous validation),
#      lr 1e-3 (the paper's)                                             -> compare with the committed lr 3e-3 / best
#   B. the paper's rule at the cpu profile's lr 3e-3                     -> lr or rule?
#   C. the old rule (best so far) at lr 1e-3                             -> completes rule × lr
#   D. the paper's rule, lr 1e-3, validating every 5 epochs              -> validation frequency
#   E. no halving at all (lr_rule=constant), lr 1e-3                     -> does the late starter catch up when
#      its rate is not cut? (after A: attention α 2 starts later and is halved 7 times by epoch 71)
# Every run: early stopping patience 5 validations, min_delta 0.1, counted only once dev accuracy is 1 point
# above its first validation (task.early_stopping_start, the cpu default), 100-epoch guard.
# Jobs run N at a time (default 2, 1 thread each) in the order listed, or group by group in the order given after N
# (e.g. `... 2 B A` runs B first: with the previous-validation rule the lr is first halved at epoch ~34 at lr 1e-3
# but within ~10 epochs at lr 3e-3, so B separates the rules sooner); a finished job is skipped on a re-run.
#
# Usage (from a clean clone of the branch, so later edits do not change running code):
#   SPARSELAB_RUNS=/work/runs_diag PYTHON=/work/main/.venv/bin/python \
#     reports/peters2019/diagnosis/diagnose_peters_collapse.sh [N]
# Summary from the records: python reports/peters2019/diagnosis/diagnose_peters_summary.py $SPARSELAB_RUNS
# (epochs 1-based);
# the records are under $SPARSELAB_RUNS/cpu/peters2019/table1_medium, logs under $SPARSELAB_RUNS/diagnose_logs.
source "$(dirname "$0")/../../diagnosis_lib/diagnose_lib.sh"
N=${1:-2}
GROUPS_IN_ORDER=("${@:2}")
[ ${#GROUPS_IN_ORDER[@]} -gt 0 ] || GROUPS_IN_ORDER=(A B C D E)

JOBS=(
  "A_prev_1e-3_att2 task.lr_rule=previous task.lr=1.0e-3 mapping.attn_alpha=2.0"
  "A_prev_1e-3_att1 task.lr_rule=previous task.lr=1.0e-3 mapping.attn_alpha=1.0"
  "B_prev_3e-3_att2 task.lr_rule=previous task.lr=3.0e-3 mapping.attn_alpha=2.0"
  "B_prev_3e-3_att1 task.lr_rule=previous task.lr=3.0e-3 mapping.attn_alpha=1.0"
  "C_best_1e-3_att2 task.lr_rule=best task.lr=1.0e-3 mapping.attn_alpha=2.0"
  "C_best_1e-3_att1 task.lr_rule=best task.lr=1.0e-3 mapping.attn_alpha=1.0"
  "D_prev_1e-3_val5_att2 task.lr_rule=previous task.lr=1.0e-3 trainer.check_val_every_n_epoch=5 mapping.attn_alpha=2.0"
  "D_prev_1e-3_val5_att1 task.lr_rule=previous task.lr=1.0e-3 trainer.check_val_every_n_epoch=5 mapping.attn_alpha=1.0"
  "E_const_1e-3_att2 task.lr_rule=constant task.lr=1.0e-3 mapping.attn_alpha=2.0"
  "E_const_1e-3_att1 task.lr_rule=constant task.lr=1.0e-3 mapping.attn_alpha=1.0"
)

for g in "${GROUPS_IN_ORDER[@]}"; do printf '%s\n' "${JOBS[@]}" | grep "^${g}_"; done \
  | run_jobs "$N" "$SPARSELAB_RUNS/diagnose_logs" \
      "experiment=peters2019/table1_medium profile=cpu threads=1 mapping.alpha=1.0 task.early_stopping_start=1.0"
