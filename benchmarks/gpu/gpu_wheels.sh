#!/usr/bin/env bash
# The wheels a lent GPU machine needs for benchmarks/gpu/gpu_check.sh, fetched here (the lent machine reaches no
# registry): what the project imports on that path and the machine's image lacks, for its Python 3.12 on x86_64.
# The image's own packages (torch, triton, lightning, numpy, pandas, requests, ...) are left out, as its package
# list in the device tool's KINDS.md names them; antlr4 (omegaconf's parser) has no wheel on PyPI and is built here.
#     bash benchmarks/gpu/gpu_wheels.sh DIR
# then carry DIR to the machine and run: OUT=... WHEELS=DIR bash benchmarks/gpu/gpu_check.sh
set -euo pipefail
DIR=${1:?usage: gpu_wheels.sh DIR}
PY=${PYTHON:-.venv/bin/python}
mkdir -p "$DIR"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
"$PY" -m pip wheel -q --no-deps -w "$TMP/built" antlr4-python3-runtime==4.9.3
"$PY" -m pip download -q --python-version 3.12 --platform manylinux2014_x86_64 --platform manylinux_2_17_x86_64 \
    --platform manylinux_2_28_x86_64 --only-binary=:all: --find-links "$TMP/built" -d "$TMP/all" \
    hydra-core==1.3.8 omegaconf==2.3.1 hydra-submitit-launcher==1.2.0 wandb==0.31.0 sacremoses==0.2.0 \
    subword-nmt==0.3.8 pooch==1.9.0
"$PY" -m pip download -q --no-deps -d "$TMP/all" entmax==1.3
# what the image has (KINDS.md, "Python packages already there"), by wheel-name prefix
IMAGE="numpy pandas pyarrow hf_xet huggingface_hub fsspec httpx httpcore h11 anyio truststore tzdata python_dateutil
charset_normalizer regex idna certifi urllib3 requests tqdm joblib xxhash pyyaml cloudpickle filelock threadpoolctl
packaging"
for f in "$TMP"/all/*.whl; do
    name=$(basename "$f"); name=${name%%-*}
    case " $(echo $IMAGE) " in *" $name "*) ;; *) cp "$f" "$DIR/" ;; esac
done
ls "$DIR" | wc -l
du -sh "$DIR"
