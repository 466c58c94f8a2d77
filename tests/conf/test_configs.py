"""Every experiment composes under every profile, and bad command lines explain themselves."""
from __future__ import annotations

import os
import sys

import pytest
from hydra import compose, initialize_config_dir

from sparselab.engine import resolvers
from sparselab.engine.overrides import group_options, override_error
from sparselab.run import CONF_DIR

import warm

resolvers.register()
EXPERIMENTS = group_options(CONF_DIR, "experiment")


def run_cli(*args):
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    return warm.run([sys.executable, "-m", "sparselab.run", *args], capture_output=True, text=True,
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
    assert out.returncode == 2
    assert "unknown config key 'mapping.alpah'" in out.stderr
    assert "alpha, attn_alpha" in out.stderr


# ---- the check composes the config the job gets (experiment and other group choices applied)
PETERS = ["experiment=peters2019/table1_medium", "hydra.mode=RUN", "profile=cpu"]


def test_override_check_accepts_keys_the_experiment_adds():
    """Acceptance 4: `trainer.val_check_interval` is a key of the composed experiment, not of the primary config."""
    assert override_error(CONF_DIR, [*PETERS, "trainer.val_check_interval=300"]) is None
    assert override_error(CONF_DIR, [*PETERS, "data.resource=high", "task.beam=3", "mapping=sparsemax",
                                     "mapping.alpha=1,1.5", "seed=range(0,3)", "+extra.key=1"]) is None


def test_override_check_names_the_unknown_key_and_its_siblings():
    """Acceptance 4: with an experiment on the command line, the typo (not `experiment`) is blamed."""
    msg = override_error(CONF_DIR, [*PETERS, "mapping.alpah=1.5"])
    assert msg.startswith("error: unknown config key 'mapping.alpah'. Valid keys under 'mapping': ")
    assert "'experiment'" not in msg
    siblings = msg.split("Valid keys under 'mapping': ", 1)[1].split(".", 1)[0].split(", ")
    assert {"alpha", "attn_alpha"} <= set(siblings)
    assert "Did you mean 'mapping.alpha'?" in msg
    msg = override_error(CONF_DIR, [*PETERS, "trainer.max_step=3"])
    assert "unknown config key 'trainer.max_step'" in msg and "max_steps" in msg


def test_override_check_on_a_missing_node_and_a_value():
    msg = override_error(CONF_DIR, [*PETERS, "nope.key=1"])
    assert "unknown config key 'nope.key': this config has no 'nope'. Valid keys under the top level:" in msg
    assert "'seed' is a value" in override_error(CONF_DIR, [*PETERS, "seed.x=1"])


def test_martins_experiments_have_no_mapping_to_sweep():
    """Their tasks choose the loss with task.loss; `mapping.alpha=…` would give identical runs, so it is refused."""
    for exp in ("martins2016/figure3_label_proportions", "martins2016/table2_multilabel"):
        msg = override_error(CONF_DIR, [f"experiment={exp}", "profile=smoke", "mapping.alpha=1,1.5,2"])
        assert msg and "unknown config key 'mapping.alpha': this config has no 'mapping'" in msg
    from omegaconf import OmegaConf

    from sparselab.errors import ConfigError
    from sparselab.engine.overrides import check_no_mapping

    with pytest.raises(ConfigError, match="task.loss"):  # `mapping=…` brought back by hand
        check_no_mapping(OmegaConf.create({"task": {"name": "multilabel"}, "mapping": {"alpha": 2.0}}))


def test_bases_are_not_experiments():
    assert not [e for e in EXPERIMENTS if e.rsplit("/", 1)[-1].startswith("_")]
    msg = override_error(CONF_DIR, ["experiment=peters2019/_table1"])
    assert msg and msg.startswith("error: unknown experiment 'peters2019/_table1'")


def test_help_lists_no_base_as_an_experiment():
    """`python -m sparselab.run --help` (Hydra's group listing) names only experiments one can run (issue 18)."""
    proc = run_cli("--help")
    assert proc.returncode == 0, proc.stderr[-2000:]
    groups = [line for line in proc.stdout.splitlines() if line.startswith("experiment/")]
    assert len(groups) == 3 and "experiment/peters2019: baseline_high" in proc.stdout
    options = [o.strip() for line in groups for o in line.split(":", 1)[1].split(",")]
    assert options and not [o for o in options if o.startswith("_")], options


def test_peters_settings_share_their_base():
    """table1_high/medium (and ensemble_high/medium) differ only in their setting-specific keys."""
    def job(exp):
        with initialize_config_dir(version_base="1.3", config_dir=str(CONF_DIR)):
            cfg = compose("config", overrides=[f"experiment={exp}", "profile=cpu"], return_hydra_config=True)
        from omegaconf import OmegaConf

        d = OmegaConf.to_container(cfg, resolve=False)
        return d, d.pop("hydra")

    def diff(a, b, prefix=""):
        keys = set(a) | set(b)
        out = set()
        for k in keys:
            if isinstance(a.get(k), dict) and isinstance(b.get(k), dict):
                out |= diff(a[k], b[k], f"{prefix}{k}.")
            elif a.get(k) != b.get(k):
                out.add(prefix + k)
        return out

    (hi, hhi), (me, hme) = job("peters2019/table1_high"), job("peters2019/table1_medium")
    assert diff(hi, me) == {"experiment_name", "data.resource", "trainer.check_val_every_n_epoch"}
    assert hhi["sweeper"] == hme["sweeper"] and hhi["mode"] == hme["mode"]
    (hi, _), (me, _) = job("peters2019/ensemble_high"), job("peters2019/ensemble_medium")
    assert diff(hi, me) == {"experiment_name", "data.resource", "task.source_experiment"}


@pytest.mark.parametrize("profile, lr, rule, every, start", [("paper", 1e-3, "previous", 10, 1.0),
                                                             ("cpu", 1e-3, "previous", 10, 1.0),
                                                             ("smoke", 3e-2, "best", 1, 0.0)])
def test_inflection_schedule_per_profile(profile, lr, rule, every, start):
    """Issue 20: the paper profile follows the paper (lr 1e-3, halved when the dev loss rises over the previous
    validation, medium validated every 10 epochs); early stopping cannot end a run still on its initial plateau."""
    from omegaconf import OmegaConf

    with initialize_config_dir(version_base="1.3", config_dir=str(CONF_DIR)):
        cfg = compose("config", overrides=["experiment=peters2019/table1_medium", f"profile={profile}"])
    c = OmegaConf.to_container(cfg, resolve=True)
    t = c["task"]
    assert (t["lr"], t["lr_rule"], c["trainer"]["check_val_every_n_epoch"], t["early_stopping_start"]) == (
        lr, rule, every, start)


def test_correia_cpu_follows_the_scaling_rule():
    """Issue 33: the cpu Table 1 runs warm up over the paper profile's fraction of the step budget (20k of 200k),
    train α in the same optimiser and schedule as every other weight, and stop at the step budget only."""
    from omegaconf import OmegaConf

    def job(profile):
        with initialize_config_dir(version_base="1.3", config_dir=str(CONF_DIR)):
            cfg = compose("config", overrides=["experiment=correia2019/table1_bleu", f"profile={profile}"])
        return OmegaConf.to_container(cfg.task, resolve=True), OmegaConf.to_container(cfg.trainer, resolve=True)

    (cpu, cpu_tr), (paper, paper_tr) = job("cpu"), job("paper")
    assert cpu["warmup_steps"] / cpu_tr["max_steps"] == paper["warmup_steps"] / paper_tr["max_steps"] == 0.1
    assert cpu["alpha_lr"] is None and paper["alpha_lr"] is None
    assert cpu["early_stopping_patience"] is None and cpu_tr["max_steps"] == 12000
