"""Smoke output does not dirty the checkout (issue 18, item 14)."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("git") is None or not (PROJECT / ".git").exists(), reason="not a git checkout")
@pytest.mark.parametrize("path", ["reports/peters2019/smoke/index.html", "reports/martins2016/smoke/table2_multilabel.md",
                                  "reports/correia2019/smoke/speed.md"])
def test_smoke_reports_are_ignored(path):
    assert subprocess.run(["git", "check-ignore", "-q", path], cwd=PROJECT).returncode == 0, path


@pytest.mark.skipif(shutil.which("git") is None or not (PROJECT / ".git").exists(), reason="not a git checkout")
def test_committed_cpu_reports_are_not_ignored():
    assert subprocess.run(["git", "check-ignore", "-q", "reports/peters2019/cpu/index.html"], cwd=PROJECT).returncode == 1
