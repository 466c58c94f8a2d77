"""Every experiment composes under every profile, and bad command lines explain themselves."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
from hydra import compose, initialize_config_dir

from sparselab.engine import resolvers
from sparselab.engine.overrides import group_options
from sparselab.run import CONF_DIR

resolvers.register()
EXPERIMENTS = group_options(CONF_DIR, "experiment")


def run_cli(*args):
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    return subprocess.run([sys.executable, "-m", "sparselab.run", *args], capture_output=True, text=True,
                          env=env, timeout=120)


def test_there_are_experiments():
    assert {"martins2016/table2_multilabel", "martins2016/figure3_label_proportions",
            "peters2019/table1_medium", "peters2019/table1_high"} <= set(EXPERIMENTS)


@pytest.mark.parametrize("profile", ["smoke", "cpu", "paper"])
@pytest.mark.parametrize("experiment", EXPERIMENTS)
def test_experiment_composes_and_resolves(experiment, profile):
    with initialize_config_dir(version_base="1.3", config_dir=str(CONF_DIR)):
        cfg = compose("config", overrides=[f"experiment={experiment}", f"profile={profile}"], return_hydra_config=True)
    from omegaconf import OmegaConf

    # Resolve everything but the hydra node (which needs a running app).
    job = OmegaConf.to_container(cfg, resolve=False)
    job.pop("hydra")
    resolved = OmegaConf.to_container(OmegaConf.create(job), resolve=True)
    assert resolved["experiment_name"] == experiment
    assert resolved["task"]["name"] and resolved["profile"]["name"] == profile


def test_unknown_experiment_lists_valid_ones():
    out = run_cli("experiment=martins2016/nope")
    assert out.returncode != 0
    assert "unknown experiment 'martins2016/nope'" in out.stderr
    for name in EXPERIMENTS:
        assert name in out.stderr


def test_unknown_key_lists_valid_keys():
    out = run_cli("mapping.alpah=1.5")
    assert out.returncode != 0
    assert "unknown config key 'mapping.alpah'" in out.stderr
    assert "alpha, attn_alpha" in out.stderr


def test_invalid_alpha_names_the_key(tmp_path):
    out = run_cli("experiment=martins2016/figure3_label_proportions", "profile=smoke", "mapping.alpha=0.9",
                  f"paths.runs={tmp_path}", "logger=none", "hydra.mode=RUN")
    assert out.returncode != 0
    assert "mapping.alpha=0.9 is invalid" in out.stderr
