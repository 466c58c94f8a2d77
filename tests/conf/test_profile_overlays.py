"""Profiles as overlays: an experiment file holds the paper's values at their final paths, and a smoke or cpu run
merges the experiment's overlay ``conf/overlay/<paper>/<artefact>/<profile>.yaml`` last (its defaults entry
``- optional /overlay/<paper>/<artefact>@_global_: ${profile}`` after ``_self_``), which sets only the keys that differ.

- no config reads a profile's value by name any more, and no shared task / data / model file holds one;
- every experiment merges an overlay of its own (or includes the experiment whose overlay it shares);
- every overlay belongs to an experiment and to the smoke or cpu profile;
- an overlay sets only keys of its experiment's paper config (no typo adds a key) and only values that differ;
- an experiment under smoke or cpu is exactly its paper config with the overlay merged into it.
"""
from __future__ import annotations

import pytest
import yaml
from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf

from sparselab.engine import resolvers
from sparselab.engine.overrides import group_options
from sparselab.run import CONF_DIR

EXPERIMENTS = group_options(CONF_DIR, "experiment")
OVERLAY_DIR = CONF_DIR / "overlay"
OVERLAYS = sorted(str(p.relative_to(OVERLAY_DIR).with_suffix("")) for p in OVERLAY_DIR.rglob("*.yaml"))


def config(experiment: str, profile: str) -> dict:
    """The experiment's composed config under ``profile``, unresolved, without the hydra node."""
    resolvers.register()
    with initialize_config_dir(version_base="1.3", config_dir=str(CONF_DIR)):
        cfg = compose("config", overrides=[f"experiment={experiment}", f"profile={profile}"])
    return OmegaConf.to_container(cfg, resolve=False)


def leaves(d: dict, prefix: tuple = ()) -> dict:
    return {k2: v2 for k, v in d.items()
            for k2, v2 in (leaves(v, (*prefix, k)).items() if isinstance(v, dict) and v else [((*prefix, k), v)])}


def defaults(experiment: str) -> list:
    return yaml.safe_load((CONF_DIR / "experiment" / f"{experiment}.yaml").read_text()).get("defaults", [])


def test_no_config_reads_a_profile_value_by_name():
    files = sorted(CONF_DIR.rglob("*.yaml"))
    assert files and [str(p.relative_to(CONF_DIR)) for p in files if "${setting:" in p.read_text()] == []
    assert not (CONF_DIR / "profile_settings").exists()
    resolvers.register()
    assert not OmegaConf.has_resolver("setting") and OmegaConf.has_resolver("by_profile")


def test_no_shared_task_data_or_model_file_holds_a_profile_value():
    shared = [p for group in ("task", "data", "model") for p in sorted((CONF_DIR / group).glob("*.yaml"))]
    assert shared and [str(p.relative_to(CONF_DIR)) for p in shared if "by_profile" in p.read_text()] == []


@pytest.mark.parametrize("experiment", EXPERIMENTS)
def test_every_experiment_merges_its_own_overlay_after_its_values(experiment):
    entries = defaults(experiment)
    own = f"optional /overlay/{experiment}@_global_"
    overlay = [e for e in entries if isinstance(e, dict) and own in e]
    if not overlay:
        # an experiment built on another one shares its overlays (correia2019/output_alpha on table1_bleu)
        (base,) = [e for e in entries if isinstance(e, str) and e in EXPERIMENTS]
        assert any(isinstance(e, dict) and f"optional /overlay/{base}@_global_" in e for e in defaults(base))
        assert not (OVERLAY_DIR / experiment).exists()
        return
    assert overlay == [{own: "${profile}"}]
    assert entries.index(overlay[0]) > entries.index("_self_")     # the experiment's own values first


def test_every_overlay_is_an_experiments_for_a_scaled_profile():
    assert len(OVERLAYS) >= 20
    for name in OVERLAYS:
        experiment, profile = name.rsplit("/", 1)
        assert experiment in EXPERIMENTS and profile in ("smoke", "cpu"), name   # paper is the experiment itself


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_an_overlay_sets_only_keys_of_the_paper_config_and_only_values_that_differ(overlay):
    experiment, _ = overlay.rsplit("/", 1)
    paper = config(experiment, "paper")
    given = OmegaConf.to_container(OmegaConf.load(OVERLAY_DIR / f"{overlay}.yaml"), resolve=False)
    assert given, overlay
    for path, value in leaves(given).items():
        node = paper
        for k in path:                      # every step a mapping: no new key, no interpolated node replaced
            assert isinstance(node, dict) and k in node, f"{overlay}: {'.'.join(path)} is not a key of {experiment}"
            node = node[k]
        assert node != value, f"{overlay}: {'.'.join(path)} is the paper's value already"


@pytest.mark.parametrize("profile", ["smoke", "cpu"])
@pytest.mark.parametrize("experiment", EXPERIMENTS)
def test_a_scaled_profile_is_the_paper_config_with_the_overlay_merged(experiment, profile):
    paper, scaled = config(experiment, "paper"), config(experiment, profile)
    assert scaled.pop("profile") == {"name": profile} and paper.pop("profile") == {"name": "paper"}
    name = experiment if (OVERLAY_DIR / experiment).is_dir() else next(
        e for e in defaults(experiment) if isinstance(e, str) and e in EXPERIMENTS)
    path = OVERLAY_DIR / name / f"{profile}.yaml"
    expected = OmegaConf.merge(paper, OmegaConf.load(path)) if path.exists() else OmegaConf.create(paper)
    assert scaled == OmegaConf.to_container(expected, resolve=False)
    resolved = OmegaConf.to_container(OmegaConf.create({**scaled, "profile": {"name": profile}}), resolve=True)
    assert "${" not in str(resolved)


def test_a_patience_in_updates_becomes_whole_validations_of_the_cadence():
    """``${validations:STEPS,EVERY}`` (the MT patience): rounded up, null stays null, a zero cadence refused."""
    from sparselab.errors import ConfigError

    assert resolvers._validations(4500, 1500) == 3 and resolvers._validations(4500, 750) == 6
    assert resolvers._validations(100, 30) == 4 and resolvers._validations(None, 10) is None
    with pytest.raises(ConfigError, match="cadence of 0 steps"):
        resolvers._validations(4500, 0)
