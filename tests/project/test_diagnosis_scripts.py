"""The frozen diagnosis launchers (``reports/<paper>/diagnosis/diagnose_*.sh``) still source their shared helper
(``reports/diagnosis_lib/diagnose_lib.sh``) from their folder, and run every job from the checkout's root, whatever the
caller's directory; a stub interpreter stands in for training."""
import os
import subprocess

import pytest

from support import PROJECT

STUB = """#!/usr/bin/env bash
echo "$PWD $*" >> "$CALLS"
"""
# (script, its arguments after N, jobs it launches)
LAUNCHERS = [("peters2019/diagnosis/diagnose_peters_cadence.sh", [], 2),
             ("peters2019/diagnosis/diagnose_peters_collapse.sh", ["B"], 2),
             ("peters2019/diagnosis/diagnose_peters_mt_cadence.sh", [], 6),
             ("correia2019/diagnosis/diagnose_correia_alpha.sh", ["rule"], 2)]


def test_every_launcher_is_listed():
    found = {p.relative_to(PROJECT / "reports").as_posix() for p in PROJECT.glob("reports/*/diagnosis/diagnose_*.sh")}
    assert found == {s for s, _, _ in LAUNCHERS}


@pytest.mark.parametrize("script,args,jobs", LAUNCHERS)
def test_a_launcher_runs_its_jobs_from_the_root(script, args, jobs, tmp_path):
    stub, calls = tmp_path / "py", tmp_path / "calls.txt"
    stub.write_text(STUB)
    stub.chmod(0o755)
    env = {**os.environ, "PYTHON": str(stub), "CALLS": str(calls), "SPARSELAB_RUNS": str(tmp_path / "runs")}
    proc = subprocess.run(["bash", str(PROJECT / "reports" / script), "1", *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    lines = calls.read_text().splitlines()
    assert len(lines) == jobs
    assert all(line.startswith(f"{PROJECT} -m sparselab.run experiment=") for line in lines)
