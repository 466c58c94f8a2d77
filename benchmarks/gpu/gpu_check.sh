#!/usr/bin/env bash
# The GPU check of the `paper` profile (issue 19's GPU item), as one script for a CUDA machine, run from the
# repository root with the package importable (installed, or PYTHONPATH=src):
#
#     OUT=DIR [WHEELS=DIR] bash benchmarks/gpu/gpu_check.sh [SUITE_SECONDS]
#
# WHEELS: a folder of wheels for what the machine's image lacks (benchmarks/gpu/gpu_wheels.sh builds it here; a lent
# machine reaches no registry), installed first with pip --no-index.
#
# Each step writes DIR/<step>.log and has its own time limit, so one that hangs cannot take the others with it.
# The default steps fit 9 minutes of a lent machine (their limits add up to 540 s, the wheels' install aside):
#   1. env        nvidia-smi, torch's CUDA build and device, bf16 support, triton's version
#   2. kernels    the fused α-entmax attention tests compiled for the GPU (issues 34, 58): the short-row and the
#                 blocked kernel against the materialised path, the model's fused = materialised check, zero host
#                 syncs per attention call
#   3. attention  benchmarks/bench_attention.py: forward+backward per shape (MT shapes; causal 1k/4k/16k at D 64
#                 and 128, grouped-query heads, a long cross-attention), SDPA softmax / materialised entmax /
#                 fused 1.5-entmax / fused learned α / AdaSplash (if installed), bf16, block sparsity beside
#                 each fused time; the table is rewritten after every shape, so a run stopped by its limit keeps
#                 the shapes it finished
#   4. speed      softmax (SDPA) / 1.5-entmax / α-entmax Transformer training, all fused
#                 (bench_transformer_speed.py --attention-impl fused), bf16-mixed, paper sizes, synthetic batches:
#                 target tokens/s and the ratios to softmax (the targets 0.90 and 0.80)
#   5. job_*      the real pipeline path (and job_entmax15_nocompile, SPARSELAB_COMPILE=0: on the H100 of 2026-11-27
#                 the 1.5-entmax job logged no step in 135 s while α-entmax finished; is it torch.compile?): experiment=correia2019/table1_bleu profile=paper, one process per mapping
#                 (softmax, entmax15, alpha_entmax) side by side on the GPU (bf16-mixed, model.attention_impl=auto:
#                 fused in training, materialised in validation), 200 steps each on Multi30k de-en, because the
#                 paper's IWSLT17 training set is not offline; the records give tokens/s (shared GPU: the speed
#                 step's numbers are the ones to compare)
# With EXTRA=1 the older checks follow (each needs minutes of torch.compile): the CUDA-only mapping tests (syncs
# per mapping call, CUDA-event timing) and count_host_syncs.py's host reads per training step. SUITE_SECONDS > 0
# (default 0) runs the whole test suite on 12 xdist workers beside the jobs, for that long.
# Steps 2-4 run on a machine that runs nothing else.
set -u
OUT=${OUT:?set OUT to a folder for the logs}
SUITE_SECONDS=${1:-0}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 WANDB_MODE=offline HF_DATASETS_OFFLINE=1 HF_HUB_OFFLINE=1
export SPARSELAB_RUNS=${SPARSELAB_RUNS:-/tmp/gpu_check_runs}
PY=${PY:-python3}
step() {   # step NAME SECONDS COMMAND...: run with a limit, log to $OUT/NAME.log, print its exit status
    local name=$1 secs=$2; shift 2
    local t0=$SECONDS
    timeout --kill-after=10 "$secs" "$@" > "$OUT/$name.log" 2>&1
    echo "step $name: exit $? in $((SECONDS - t0)) s" | tee -a "$OUT/steps.log"
}

if [ -n "${WHEELS:-}" ]; then
    step wheels 60 $PY -m pip install --no-index --find-links "$WHEELS" hydra-core omegaconf wandb sacremoses \
        subword-nmt pooch entmax hydra-submitit-launcher
fi
step env 20 bash -c "nvidia-smi; $PY -c 'import torch, triton; print(torch.__version__, torch.version.cuda, \
torch.cuda.get_device_name(0), \"bf16:\", torch.cuda.is_bf16_supported(), \"triton\", triton.__version__)'"
step kernels 120 $PY -m pytest -p no:cacheprovider tests/kernels/test_kernels_entmax_attention.py \
    tests/kernels/test_kernels_entmax_blocked.py tests/kernels/test_kernels_transformer.py -rA
step attention 140 $PY benchmarks/bench_attention.py --dtype bf16 --warmup 2 --reps 5 --out "$OUT/attention.md"
step speed 120 $PY benchmarks/bench_transformer_speed.py --profile paper --device cuda --precision bf16-mixed \
    --quick --attention-impl fused --breakdown never --out "$OUT/speed.md"

# the suite (optional) in the background on CPU cores, the four jobs on the GPU
if [ "$SUITE_SECONDS" -gt 0 ]; then
    ( step suite "$SUITE_SECONDS" $PY -m pytest -p no:cacheprovider -n 12 --dist loadfile \
        --junitxml="$OUT/suite.xml" ) &
fi
for job in softmax entmax15 alpha_entmax entmax15_nocompile; do
    mapping=${job%_nocompile}
    # the same job without compilation: its own runs folder, since the job's identity (its config) is the same;
    # the compiled ones log why torch.compile compiled again (is the 1.5-entmax stall a recompilation storm?)
    ( if [ "$job" = "$mapping" ]; then export TORCH_LOGS=recompiles,graph_breaks
      else export SPARSELAB_COMPILE=0 SPARSELAB_RUNS="$SPARSELAB_RUNS/nocompile"; fi
      step "job_$job" 140 $PY -m sparselab.run experiment=correia2019/table1_bleu profile=paper \
        mapping=$mapping data.pair=de-en data.pairs.de-en.train=multi30k/train \
        data.pairs.de-en.val=multi30k/val data.pairs.de-en.test=multi30k/test2016 data.pairs.de-en.bpe_merges=8000 \
        data.max_val=100 data.max_test=50 trainer.max_steps=200 trainer.val_check_interval=100 ) &
done
wait
find "$SPARSELAB_RUNS" -name run.json -exec cat {} + > "$OUT/records.json" 2>/dev/null

if [ "${EXTRA:-0}" = 1 ]; then
    step cuda 90 $PY -m pytest -p no:cacheprovider tests/mappings/test_mappings_syncs.py tests/training/test_training_timing.py -rA
    step syncs 75 $PY benchmarks/probes/count_host_syncs.py --profile paper --device cuda --precision bf16-mixed \
        --steps 5 --out "$OUT/syncs.md"
fi
# everything in one file as well, to copy off the node (a lent machine here returns at most 8 files)
TGZ=$(mktemp) && tar czf "$TGZ" -C "$OUT" . && mv "$TGZ" "$OUT/gpu_check.tgz"
cat "$OUT/steps.log"
