"""OmegaConf resolvers used by the configs.

``${by_profile:S,C,P}`` picks the smoke, cpu or paper value by ``profile.name``,
so an experiment states its three scales on one line.

``${job_id:}`` is the job's identity (:func:`sparselab.engine.record.job_id` of the resolved config
without its ``hydra`` node); the run folder is named by it (conf/config.yaml), so the same job under
another spelling (``mapping.alpha=1`` / ``1.0``, an explicit default ``seed=0``) is the same folder.
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


def _job_id(*, _root_):
    from sparselab.engine.record import job_id, resolved

    try:
        config = resolved(_root_)
    except Exception:  # noqa: BLE001 - the job itself reports the bad value, as one line (sparselab.run)
        return "unresolvable-config"
    return job_id(config)


def register() -> None:
    if not OmegaConf.has_resolver("by_profile"):
        OmegaConf.register_new_resolver("by_profile", _by_profile)
    if not OmegaConf.has_resolver("job_id"):
        OmegaConf.register_new_resolver("job_id", _job_id)
