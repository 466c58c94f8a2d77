"""Issue 57 item 5: every value checked before data is read: one line, exit 2, no record."""
from __future__ import annotations

import pytest

from .conftest import error_lines

CASES = {
    "task.batch_size=0": ("martins2016/table2_multilabel", "error: task.batch_size=0: must be a positive number"),
    "threads=0": ("martins2016/table2_multilabel", "error: threads=0: must be a positive number of threads"),
    "trainer.max_epochs=0": ("peters2019/table1_medium", "error: trainer.max_epochs=0: a run that trains no epochs"),
    "trainer.max_steps=0": ("peters2019/table1_medium", "error: trainer.max_steps=0: a run that trains no steps"),
    "data.name=emotionz": ("martins2016/table2_multilabel", "error: data.name='emotionz' is not a multi-label data set"),
}


@pytest.mark.parametrize("override", sorted(CASES))
def test_bad_value_refused_before_hydra(override):
    from sparselab.engine.overrides import override_error
    from sparselab.preflight import CONFIG_CHECKS
    from sparselab.run import CONF_DIR

    experiment, start = CASES[override]
    msg = override_error(CONF_DIR, [f"experiment={experiment}", "profile=smoke", override], CONFIG_CHECKS)
    assert msg is not None and msg.startswith(start) and "\n" not in msg, msg


def test_gpu_accelerator_without_gpu_refused_before_the_record(tmp_path):
    import torch
    from hydra import compose, initialize_config_dir

    from sparselab.engine.execute import execute
    from sparselab.errors import ConfigError
    from sparselab.run import CONF_DIR

    if torch.cuda.is_available():
        pytest.skip("a GPU is here")
    with initialize_config_dir(str(CONF_DIR), version_base="1.3"):
        cfg = compose("config", ["experiment=martins2016/figure3_label_proportions", "profile=smoke",
                                 "trainer.accelerator=gpu", f"paths.runs={tmp_path}", "logger=none"])
    run = tmp_path / "job"
    with pytest.raises(ConfigError, match="no CUDA GPU"):
        execute(cfg, run)
    assert not run.exists() or not (run / "run.json").exists()


def test_jobs_zero_refused(tmp_path, monkeypatch, capsys):
    from sparselab.reports.runner import main
    from support import load_script

    monkeypatch.setenv("SPARSELAB_RUNS", str(tmp_path / "runs"))
    mod = load_script("pipelines/martins2016.py", "pipeline_martins2016")
    assert main(mod.report, mod.PLANS, ["--profile", "smoke", "--jobs", "0"]) == 2
    assert error_lines(capsys.readouterr().err) == [
        "error: --jobs 0: must be a positive number of jobs side by side (1: sequential)"]
    assert not (tmp_path / "runs").exists()
