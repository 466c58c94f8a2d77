#!/usr/bin/env bash
# The GPU check of the `paper` profile (issue 19's GPU item), as one script for a CUDA machine, run from the
# repository root with the package importable (installed, or PYTHONPATH=src):
#
#     OUT=DIR bash benchmarks/gpu_check.sh [SUITE_SECONDS]
#
# Each step writes DIR/<step>.log and has its own time limit, so one that hangs cannot take the others with it:
#   1. env      nvidia-smi, torch's CUDA build and device, bf16 support
#   2. cuda     the CUDA-only tests (they skip on a CPU machine): syncs per mapping call, CUDA-event timing
#   3. speed    softmax / 1.5-entmax / α-entmax side by side, bf16-mixed, paper sizes, synthetic batches
#               (benchmarks/bench_transformer_speed.py): target tokens/s and the ratios to softmax
#   4. syncs    host reads and torch's own CUDA syncs per training step, torch.cuda.set_sync_debug_mode("warn")
#               (benchmarks/count_host_syncs.py --profile paper --precision bf16-mixed)
#   5. job      the real pipeline path: experiment=correia2019/table1_bleu profile=paper for the three mappings
#               (bf16-mixed, TF32, 4 loader workers, pinned memory), a few hundred steps each on Multi30k de-en,
#               because the paper's IWSLT17 training set is not offline; the records give tokens/s
#   6. suite    the whole test suite on 12 xdist workers, for SUITE_SECONDS (default 230)
# Steps 5 and 6 run at the same time (the suite is CPU work on the other cores); step 3's numbers come from a
# machine that runs nothing else.
set -u
OUT=${OUT:?set OUT to a folder for the logs}
SUITE_SECONDS=${1:-230}
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

step env 60 bash -c "nvidia-smi; $PY -c 'import torch; print(torch.__version__, torch.version.cuda, \
torch.cuda.get_device_name(0), \"bf16:\", torch.cuda.is_bf16_supported())'"
step cuda 90 $PY -m pytest -p no:cacheprovider tests/test_mappings_syncs.py tests/test_training_timing.py -rA
step speed 120 $PY benchmarks/bench_transformer_speed.py --profile paper --device cuda --precision bf16-mixed \
    --quick --breakdown never --out "$OUT/speed.md"
step syncs 75 $PY benchmarks/count_host_syncs.py --profile paper --device cuda --precision bf16-mixed \
    --steps 5 --out "$OUT/syncs.md"

# the suite in the background on CPU cores, the job on the GPU
( step suite "$SUITE_SECONDS" $PY -m pytest -p no:cacheprovider -n 12 --dist loadfile \
    --junitxml="$OUT/suite.xml" ) &
suite=$!
step job 270 $PY -m sparselab.run -m experiment=correia2019/table1_bleu profile=paper \
    data.pair=de-en data.pairs.de-en.train=multi30k/train data.pairs.de-en.val=multi30k/val \
    data.pairs.de-en.test=multi30k/test2016 data.pairs.de-en.bpe_merges=8000 data.max_val=500 data.max_test=50 \
    trainer.max_steps=300 trainer.val_check_interval=150
find "$SPARSELAB_RUNS" -name run.json -exec cat {} + > "$OUT/records.json" 2>/dev/null
wait $suite
# everything in one file as well, to copy off the node (a lent machine here returns at most 8 files)
tar czf "/tmp/gpu_check.tgz" -C "$OUT" . && mv /tmp/gpu_check.tgz "$OUT/gpu_check.tgz"
cat "$OUT/steps.log"
