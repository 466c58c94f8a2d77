# Sourced by the diagnosis scripts (reports/*/diagnosis/diagnose_*.sh): from the checkout's root, with SPARSELAB_RUNS
# outside it and one thread per job,
#   run_jobs N LOGS "PREFIX" < jobs    (one job a line: "name override...")
# runs `$PY -m sparselab.run PREFIX override...` for each job, N at a time, its output in LOGS/name.log and its
# start / end in LOGS/progress.log. PYTHON names the interpreter (default python).
set -euo pipefail
# the checkout's root, two folders above this one (reports/diagnosis_lib/)
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
: "${SPARSELAB_RUNS:?set SPARSELAB_RUNS to a folder outside the checkout}"
export SPARSELAB_RUNS OMP_NUM_THREADS=1 PYTHONPATH="$PWD/src${PYTHONPATH:+:$PYTHONPATH}"
PY=${PYTHON:-python}

run_one() {
  local name=$1; shift
  echo "$(date -Is) start $name: $*" >> "$LOGS/progress.log"
  # shellcheck disable=SC2086  # PREFIX is a list of overrides without spaces inside them
  if "$PY" -m sparselab.run $PREFIX "$@" > "$LOGS/$name.log" 2>&1; then
    echo "$(date -Is) done $name" >> "$LOGS/progress.log"
  else
    echo "$(date -Is) FAILED $name (see $LOGS/$name.log)" >> "$LOGS/progress.log"
  fi
}

run_jobs() {
  LOGS=$2 PREFIX=$3
  mkdir -p "$LOGS"
  export -f run_one
  export PY LOGS PREFIX
  xargs -P "$1" -L 1 bash -c 'run_one "$@"' _
}
