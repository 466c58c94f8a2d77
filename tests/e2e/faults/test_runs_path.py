"""Issue 57 item 1: an empty or root runs path is one error line, exit 2, and nothing is made under /."""
from __future__ import annotations

import os
import sys

import pytest

from sparselab.errors import ConfigError

from .conftest import error_lines

import warm


@pytest.mark.parametrize("value", ["", "  ", "/", "//", "/.."])
def test_runs_root_refuses_empty_and_root(monkeypatch, value):
    from sparselab.reports.records import runs_root

    monkeypatch.setenv("SPARSELAB_RUNS", value)
    with pytest.raises(ConfigError, match="SPARSELAB_RUNS"):
        runs_root()


@pytest.mark.parametrize("args, env", [(["paths.runs="], None), ([], ""), (["paths.runs=/"], None)])
def test_cli_checks_the_runs_path_first(monkeypatch, args, env):
    from sparselab.run import _runs_folder_error, _runs_path_error

    if env is not None:
        monkeypatch.setenv("SPARSELAB_RUNS", env)
    msg = _runs_path_error(args)
    assert msg and msg.startswith("error: ") and "\n" not in msg
    assert _runs_folder_error(args) == msg      # and nothing is created


def test_empty_runs_env_cli_exits_2_and_writes_nothing(tmp_path):
    """The user's command (one subprocess): `SPARSELAB_RUNS= python -m sparselab.run ...`."""
    before = set(os.listdir("/"))
    env = {**os.environ, "SPARSELAB_RUNS": "", "OMP_NUM_THREADS": "1"}
    env.pop("HYDRA_FULL_ERROR", None)
    out = warm.run([sys.executable, "-m", "sparselab.run", "experiment=martins2016/figure3_label_proportions",
                          "profile=smoke", "hydra.mode=RUN", "logger=none"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2, out.stderr[-2000:]
    assert len(error_lines(out.stderr)) == 1 and "Traceback" not in out.stderr, out.stderr
    assert "empty" in error_lines(out.stderr)[0]
    assert set(os.listdir("/")) == before and not any(tmp_path.iterdir())


def test_pipeline_empty_runs_env(monkeypatch, capsys):
    from sparselab.reports.runner import main
    from support import load_script

    monkeypatch.setenv("SPARSELAB_RUNS", "")
    mod = load_script("pipelines/martins2016.py", "pipeline_martins2016")
    assert main(mod.report, mod.PLANS, ["--profile", "smoke", "--report-only"]) == 2
    assert len(error_lines(capsys.readouterr().err)) == 1
