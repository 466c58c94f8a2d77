"""OmegaConf resolvers used by the configs.

``${by_profile:S,C,P}`` picks the smoke, cpu or paper value by ``profile.name``,
so an experiment states its three scales on one line.
"""
from __future__ import annotations

from omegaconf import OmegaConf

from sparselab.engine.errors import ConfigError

PROFILES = ("smoke", "cpu", "paper")


def _by_profile(smoke, cpu, paper, *, _root_):
    name = _root_.profile.name
    if name not in PROFILES:
        raise ConfigError(f"profile.name={name!r} is not one of {', '.join(PROFILES)}")
    return {"smoke": smoke, "cpu": cpu, "paper": paper}[name]


def register() -> None:
    if not OmegaConf.has_resolver("by_profile"):
        OmegaConf.register_new_resolver("by_profile", _by_profile)
