"""The cpu profile's SIGMORPHON language subset is the seeded draw that conf/data documents."""
from __future__ import annotations

import os

import pytest
from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf

from sparselab.data import language_sample
from sparselab.errors import MissingDataError
from sparselab.engine import resolvers

CONF = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "conf")


@pytest.fixture(scope="module")
def eligible():
    try:
        return language_sample.eligible("medium")
    except MissingDataError:
        pytest.skip("SIGMORPHON 2018 data not present")


def test_configured_subset_is_the_documented_draw(eligible):
    resolvers.register()
    with initialize_config_dir(version_base="1.3", config_dir=os.path.abspath(CONF)):
        cfg = compose("config", overrides=["experiment=peters2019/table1_medium", "profile=cpu"])
    langs = OmegaConf.to_container(cfg, resolve=True)["data"]["languages"]
    assert langs == language_sample.sample("medium", n=len(langs), seed=0)


def test_draw_covers_every_script_and_is_seeded(eligible):
    a = language_sample.sample("medium", n=10, seed=0)
    assert a == language_sample.sample("medium", n=10, seed=0) and len(set(a)) == 10
    assert {eligible[lang] for lang in a} == set(eligible.values())      # one language per script at least
    assert language_sample.sample("medium", n=10, seed=1) != a


def test_script_of_forms():
    assert language_sample.script_of(["abc", "déf"]) == "LATIN"
    assert language_sample.script_of(["αβγ", "x"]) == "GREEK"


def test_too_many_languages_is_refused(eligible):
    with pytest.raises(ValueError, match="eligible"):
        language_sample.sample("medium", n=len(eligible) + 1)
