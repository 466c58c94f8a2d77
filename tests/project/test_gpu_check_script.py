"""benchmarks/gpu/gpu_check.sh's control flow, with a stub interpreter (CI has no GPU): every step runs and is logged
with its exit status, the wheels are installed first when WHEELS is set, and the 1.5-entmax job runs a second time
without torch.compile in its own runs folder (same config, so the same job identity: a shared folder would lock it)."""
import os
import subprocess

from support import PROJECT

STUB = """#!/usr/bin/env bash
echo "SPARSELAB_COMPILE=${SPARSELAB_COMPILE:-} SPARSELAB_RUNS=$SPARSELAB_RUNS $*" >> "$CALLS"
"""


def test_every_step_runs_and_the_nocompile_job_gets_its_own_runs_folder(tmp_path):
    stub = tmp_path / "py"
    stub.write_text(STUB)
    stub.chmod(0o755)
    out, calls, runs = tmp_path / "out", tmp_path / "calls.txt", tmp_path / "runs"
    env = {**{k: v for k, v in os.environ.items() if k != "SPARSELAB_COMPILE"}, "OUT": str(out), "PY": str(stub), "CALLS": str(calls), "SPARSELAB_RUNS": str(runs),
           "WHEELS": str(tmp_path / "wheels")}
    proc = subprocess.run(["bash", "benchmarks/gpu/gpu_check.sh"], cwd=PROJECT, env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    steps = [line.split(":")[0].removeprefix("step ") for line in (out / "steps.log").read_text().splitlines()]
    assert steps[:5] == ["wheels", "env", "kernels", "attention", "speed"]
    assert sorted(steps[5:]) == ["job_alpha_entmax", "job_entmax15", "job_entmax15_nocompile", "job_softmax"]
    jobs = [c for c in calls.read_text().splitlines() if "sparselab.run" in c]
    assert len(jobs) == 4
    (nocompile,) = [c for c in jobs if c.startswith("SPARSELAB_COMPILE=0 ")]
    assert f"SPARSELAB_RUNS={runs}/nocompile " in nocompile and "mapping=entmax15 " in nocompile
    assert all(c.startswith(f"SPARSELAB_COMPILE= SPARSELAB_RUNS={runs} ") for c in jobs if c != nocompile)
    assert (out / "gpu_check.tgz").stat().st_size > 0
