"""A user's mistake exits non-zero with one `error:` line and no traceback; engine.fail_fast governs sweeps.

Two subprocess runs, each failing before any training: a bad α in the Peters sweep (fail_fast=true:
the sweep stops at its first job), and a Martins sweep with a bad loss and a malformed data line
(fail_fast=false: both jobs run, both are recorded, the exit status is still non-zero).
"""
from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest
from omegaconf import OmegaConf

from sparselab.errors import DataFormatError, MissingDataError
from sparselab.data.excerpt import ROOT as EXCERPTS
from sparselab.errors import ConfigError, describe, user_error

import warm


def run_cli(*args):
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    env.pop("HYDRA_FULL_ERROR", None)
    return warm.run([sys.executable, "-m", "sparselab.run", *args], capture_output=True, text=True,
                          env=env, timeout=300)


def records(root: Path) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted(root.rglob("run.json"))]


def error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("error:")]


def test_bad_alpha_prints_one_line_and_stops_the_sweep(tmp_path):
    out = run_cli("experiment=peters2019/table1_medium", "profile=smoke", "mapping.alpha=-1",
                  f"paths.runs={tmp_path}", "logger=none")
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr and "Traceback" not in out.stdout
    assert error_lines(out.stderr) == ["error: mapping.alpha: must be > 0 (got -1.0); the Tsallis alpha-entropy needs alpha > 0"]
    # refused before Hydra starts: no job ran, no folder was made (issue 18 item 8)
    assert records(tmp_path) == [] and not any(tmp_path.iterdir())


def test_malformed_data_line_and_fail_fast_false(tmp_path):
    root = tmp_path / "data"
    src = EXCERPTS / "mulan" / "emotions"     # shipped whole with the package (sparselab.data.excerpt)
    shutil.copytree(src, root / "mulan" / "emotions")
    train = root / "mulan" / "emotions" / "emotions-train.arff"
    train.chmod(0o644)
    lines = train.read_text().split("\n")
    lines[99] = "oops," + lines[99].split(",", 1)[1]
    train.write_text("\n".join(lines))
    runs = tmp_path / "runs"
    out = run_cli("-m", "experiment=martins2016/table2_multilabel", "profile=smoke", "data.name=emotions",
                  "task.loss=bogus,softmax", f"data.root={root}", f"paths.runs={runs}", "logger=none",
                  "engine.fail_fast=false")
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr and "Traceback" not in out.stdout
    errors = error_lines(out.stderr)
    assert len(errors) == 2, out.stderr
    assert errors[0].startswith("error: task.loss='bogus' is unknown")
    assert errors[1].startswith(f"error: {train}:100: ") and "'oops' is not a number" in errors[1]
    assert "sweep: 2 of 2 jobs failed" in out.stderr
    recs = records(runs)
    assert [r["status"] for r in recs] == ["failed", "failed"]  # the second job ran after the first failed


def test_user_errors_and_bugs():
    assert user_error(ConfigError("task.loss: bad")) is not None
    assert user_error(DataFormatError("f.arff", 3, "bad")) is not None
    assert user_error(MissingDataError("x", "x/", "/data")) is not None
    assert user_error(ValueError("a bug's ValueError keeps its traceback")) is None
    assert user_error(KeyError("k")) is None
    wrapped = RuntimeError("outer")
    wrapped.__cause__ = DataFormatError("f.arff", 3, "bad")
    assert isinstance(user_error(wrapped), DataFormatError)
    from sparselab.engine import resolvers

    resolvers.register()
    cfg = OmegaConf.create({"profile": {"name": "nope"}, "x": "${by_profile:1,2,3}"})
    with pytest.raises(Exception) as err:
        OmegaConf.to_container(cfg, resolve=True)
    assert user_error(err.value) is not None
    assert describe(err.value).startswith("x: ") and "profile.name='nope'" in describe(err.value)
    assert "\n" not in describe(err.value)


def test_fail_fast_false_counts_failures_in_parallel_workers(tmp_path):
    """Under the joblib launcher the jobs fail in worker processes; the launching process still exits non-zero
    and names them (issue 19 item 10; sparselab.engine.sweep_status)."""
    runs = tmp_path / "runs"
    out = run_cli("-m", "experiment=martins2016/table2_multilabel", "profile=smoke", "data.name=emotions",
                  "task.loss=bogus,nonsense", f"paths.runs={runs}", "logger=none", "engine.fail_fast=false",
                  "hydra/launcher=parallel")
    assert out.returncode == 2, out.stderr
    assert "sweep: 2 jobs failed" in out.stderr, out.stderr
    assert [r["status"] for r in records(runs)] == ["failed", "failed"]
    assert not list((runs / ".sweeps").glob("*.jsonl"))   # the sweep's failure file is read and removed


# issue 36: each refused before Hydra starts (sparselab.engine.checks, sparselab.run), so no folder is made
BAD_VALUES = {
    "seed": (["experiment=martins2016/table2_multilabel", "data.name=emotions", "seed=-1"],
             "error: seed=-1: must be an integer in [0, 4294967295]"),
    "max_steps": (["experiment=martins2016/table2_multilabel", "data.name=emotions", "trainer.max_steps=-5"],
                  "error: trainer.max_steps=-5: must be -1 (no limit) or a positive number of steps"),
    "pair": (["experiment=peters2019/table2_mt", "data.pair=xx-yy"],
             "error: data.pair='xx-yy' is not a pair of data=mt; valid pairs: de-en, en-de, ja-en, en-ja, ro-en, en-ro"),
    "devices": (["experiment=peters2019/table2_mt", "hydra/launcher=slurm", "trainer.devices=4"],
                "error: trainer.devices=4 trainer.num_nodes=1 with trainer.strategy=auto: several devices or nodes "
                "need data parallel, add trainer=ddp"),
}


@pytest.mark.parametrize("case", sorted(BAD_VALUES))
def test_bad_value_is_one_line_before_any_folder(tmp_path, case):
    args, line = BAD_VALUES[case]
    out = run_cli(*args, "profile=smoke", f"paths.runs={tmp_path}", "logger=none")
    assert out.returncode == 2, out.stderr[-2000:]
    assert "Traceback" not in out.stderr + out.stdout
    assert error_lines(out.stderr) == [line]
    assert not any(tmp_path.iterdir())  # no unresolvable-config/ or job folder


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder")
def test_read_only_runs_folder_is_one_line(tmp_path):
    """An existing folder that refuses writes (a runs folder under a plain file: test_trust.py item 7)."""
    from sparselab.run import _runs_folder_error

    runs = tmp_path / "runs"
    runs.mkdir(mode=0o555)
    try:
        assert _runs_folder_error([f"paths.runs={runs}"]) == (
            f"error: cannot write to the runs folder {runs} (paths.runs / SPARSELAB_RUNS): Permission denied")
    finally:
        runs.chmod(0o755)
    assert not any(runs.iterdir())


@pytest.mark.parametrize("override, expected", [
    ("seed=0,-1", "error: seed=-1: "), ("seed=4294967296", "error: seed=4294967296: "),
    ("trainer.max_epochs=-3", "error: trainer.max_epochs=-3: "),
    ("trainer.log_every_n_steps=0", "error: trainer.log_every_n_steps=0: "),
    ("trainer.val_check_interval=1.5", "error: trainer.val_check_interval=1.5: "),
    ("trainer.num_nodes=2", "error: trainer.devices=1 trainer.num_nodes=2 with trainer.strategy=auto"),
    ("trainer.gradient_clip_val=-1", "error: trainer.gradient_clip_val=-1: "),
    ("seed=7", None), ("trainer=ddp", None),
])
def test_value_checks_before_hydra(override, expected):
    """The checks the CLI runs before Hydra (sparselab.engine.overrides.override_error), in this process."""
    from sparselab.engine.overrides import override_error
    from sparselab.run import CONF_DIR

    msg = override_error(CONF_DIR, ["experiment=peters2019/table1_medium", "profile=smoke", override])
    assert (msg is None) if expected is None else msg.startswith(expected), msg


def test_execute_checks_the_values_too(tmp_path):
    """A sweep point the command line did not show (a config value) is refused by the job before it writes."""
    from sparselab.engine.execute import validate
    from sparselab.engine.overrides import _compose
    from sparselab.run import CONF_DIR

    cfg = _compose(CONF_DIR, ["experiment=peters2019/table1_medium", "profile=smoke"])
    cfg.trainer.max_steps = -5
    with pytest.raises(ConfigError, match=r"trainer.max_steps=-5"):
        validate(cfg)
