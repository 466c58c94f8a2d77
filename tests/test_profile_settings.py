"""Profile settings by name, one file per paper (issue 35): ``conf/profile_settings/<paper>.yaml`` holds every value
that differs between the profiles, and the configs read one with ``${setting:NAME}``.

- no shared task / data / model file holds a profile's value (no ``${by_profile:…}`` there);
- each paper's file names the same settings in smoke, cpu and paper;
- every experiment of every profile composes and resolves (each name it reads is set);
- the settings node is not part of a job's resolved config, so it is not part of its identity.
"""
from __future__ import annotations

import pytest
from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf

from sparselab.engine import record, resolvers
from sparselab.run import CONF_DIR

PAPERS = ("martins2016", "peters2019", "correia2019")
EXPERIMENTS = sorted(str(p.relative_to(CONF_DIR / "experiment").with_suffix(""))
                     for p in (CONF_DIR / "experiment").rglob("*.yaml"))


def leaves(d, prefix=""):
    return {k2 for k, v in d.items() for k2 in (leaves(v, f"{prefix}{k}.") if isinstance(v, dict) and v
                                              else {f"{prefix}{k}"})}


def test_no_shared_task_data_or_model_file_holds_a_profile_value():
    shared = [p for group in ("task", "data", "model") for p in sorted((CONF_DIR / group).glob("*.yaml"))]
    assert shared and [str(p.relative_to(CONF_DIR)) for p in shared if "by_profile" in p.read_text()] == []


@pytest.mark.parametrize("paper", PAPERS)
def test_each_paper_names_the_same_settings_in_every_profile(paper):
    settings = OmegaConf.to_container(OmegaConf.load(CONF_DIR / "profile_settings" / f"{paper}.yaml"))
    assert set(settings) == {"smoke", "cpu", "paper"}
    assert leaves(settings["smoke"]) == leaves(settings["cpu"]) == leaves(settings["paper"])


@pytest.mark.parametrize("profile", ["smoke", "cpu", "paper"])
def test_every_experiment_resolves_its_settings_and_keeps_them_out_of_its_identity(profile):
    resolvers.register()
    with initialize_config_dir(version_base="1.3", config_dir=str(CONF_DIR)):
        for experiment in EXPERIMENTS:
            cfg = compose("config", overrides=[f"experiment={experiment}", f"profile={profile}"])
            config = record.resolved(cfg)                     # raises if a name is not set for this profile
            assert "profile_settings" not in config and "${" not in str(config), experiment
            assert cfg.profile_settings is not None, experiment


def test_setting_reads_the_running_profile_and_needs_an_experiment():
    resolvers.register()
    cfg = OmegaConf.create({"profile": {"name": "cpu"}, "x": "${setting:task.lr}",
                            "profile_settings": {p: {"task": {"lr": v}} for p, v in
                                                 (("smoke", 0.03), ("cpu", 0.001), ("paper", 0.002))}})
    assert cfg.x == 0.001
    cfg.profile.name = "smoke"
    assert cfg.x == 0.03
    bare = OmegaConf.create({"profile": {"name": "cpu"}, "x": "${setting:task.lr}"})
    with pytest.raises(Exception, match="compose an experiment"):
        _ = bare.x
    unset = OmegaConf.create({"profile": {"name": "cpu"}, "x": "${setting:task.nope}",
                              "profile_settings": {"cpu": {"task": {}}}})
    with pytest.raises(Exception, match="profile_settings.cpu.task.nope is not set"):
        _ = unset.x


def test_a_patience_in_updates_becomes_whole_validations_of_the_cadence():
    """``${validations:STEPS,EVERY}`` (issue 32's MT patience): rounded up, null stays null, a zero cadence refused."""
    from sparselab.errors import ConfigError

    assert resolvers._validations(4500, 1500) == 3 and resolvers._validations(4500, 750) == 6
    assert resolvers._validations(100, 30) == 4 and resolvers._validations(None, 10) is None
    with pytest.raises(ConfigError, match="cadence of 0 steps"):
        resolvers._validations(4500, 0)
