#!/usr/bin/env bash
# Issue 32: is the cpu grid's deficit (softmax/softmax below the non-neural baseline, a 13-point attention-α spread at
# output α 1) caused by the validation cadence? The paper validates (and may halve the lr) once every 10 epochs in
# medium; the cpu profile validates every epoch. Single runs of output α 1 × attention α {1, 2}, seed 0, the cpu
# profile otherwise unchanged:
#   V10: validate every 10 epochs (the paper's cadence in epochs), early-stopping patience 3 validations (the paper
#        profile's, = 30 epochs), 400-epoch guard (the issue's probe hit a 100-epoch cap with dev still rising)
#   V1:  the committed cadence (every epoch, patience 5) is the committed grid itself (reports/peters2019/cpu)
# Usage (from a clean clone, so later edits do not change running code):
#   SPARSELAB_RUNS=/work/runs_cpu PYTHON=.venv/bin/python reports/peters2019/diagnosis/diagnose_peters_cadence.sh [N]
# Summary: python reports/peters2019/diagnosis/diagnose_peters_summary.py $SPARSELAB_RUNS;
# logs under $SPARSELAB_RUNS/cadence_logs.
source "$(dirname "$0")/../../diagnosis_lib/diagnose_lib.sh"
N=${1:-2}

COMMON="trainer.check_val_every_n_epoch=10 trainer.max_epochs=400 task.early_stopping_patience=3"
JOBS=(
  "V10_att1 $COMMON mapping.attn_alpha=1.0"
  "V10_att2 $COMMON mapping.attn_alpha=2.0"
)

printf '%s\n' "${JOBS[@]}" | run_jobs "$N" "$SPARSELAB_RUNS/cadence_logs" \
  "experiment=peters2019/table1_medium profile=cpu threads=1 mapping.alpha=1.0 seed=0"
