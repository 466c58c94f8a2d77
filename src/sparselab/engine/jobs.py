"""The jobs of a sweep, and their identities, without running anything.

A pipeline's plan is a list of sweeps ``(experiment, overrides)``. A report must be built from
exactly the jobs of its plan, so the plan is expanded here into its jobs the way Hydra's basic
sweeper would expand it (the experiment's own ``hydra.sweeper.params`` and the command-line sweeps,
as a cartesian product, by :meth:`BasicSweeper.split_arguments`), and each job's config is composed
with Hydra's compose API. Its identity is :func:`sparselab.engine.record.job_id` of that config,
the same hash the engine names the job's folder by and resume matches.
"""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

from omegaconf import OmegaConf

from sparselab.engine import record, resolvers

# Overrides that choose where and how a job runs, never what it computes; the engine leaves them out of
# a job's identity too (record.NON_SEMANTIC_*). They are dropped before composing.
_MACHINERY = ("hydra/", "hydra.", "paths.", "logger", "engine.", "threads=",
              "model.attention_impl=")   # fused or materialised attention: the same function


def _parse(lines: Sequence[str]):
    from hydra.core.override_parser.overrides_parser import OverridesParser

    return OverridesParser.create().parse_overrides(list(lines))


def _first_values(lines: Sequence[str]) -> list[str]:
    """Each override with a sweep replaced by its first value (enough to read the sweeper's params)."""
    out = []
    for o in _parse(lines):
        value = next(iter(o.sweep_string_iterator())) if o.is_sweep_override() else o.get_value_element_as_str()
        out.append(f"{o.get_key_element()}={value}")
    return out


def expand(conf_dir: str | Path, experiment: str, profile: str, overrides: Sequence[str] = ()) -> list[list[str]]:
    """The override list of every job of ``experiment``'s sweep, as ``python -m sparselab.run -m`` would run it."""
    from hydra import compose, initialize_config_dir
    from hydra._internal.core_plugins.basic_sweeper import BasicSweeper

    resolvers.register()
    lines = [f"experiment={experiment}", f"profile={profile}",
             *[o for o in overrides if not o.startswith(_MACHINERY)]]
    with initialize_config_dir(version_base="1.3", config_dir=str(Path(conf_dir).resolve()), job_name="plan"):
        cfg = compose(config_name="config", overrides=_first_values(lines), return_hydra_config=True)
    params = OmegaConf.select(cfg, "hydra.sweeper.params")
    params = OmegaConf.to_container(params, resolve=False) if params is not None else {}
    # as BasicSweeper.sweep does: the config's params first, the command line after (and winning)
    given = {o.get_key_element() for o in _parse(lines)}
    arguments = [f"{k}={v}" for k, v in params.items() if k not in given] + lines
    batches = BasicSweeper.split_arguments(_parse(arguments), max_batch_size=None)
    return [list(job) for batch in batches for job in batch]


def identities(conf_dir: str | Path, experiment: str, profile: str, overrides: Sequence[str] = ()) -> list[str]:
    """The job identity (:func:`record.job_id`) of every job of the sweep, in sweep order."""
    from hydra import compose, initialize_config_dir

    jobs = expand(conf_dir, experiment, profile, overrides)
    out = []
    with initialize_config_dir(version_base="1.3", config_dir=str(Path(conf_dir).resolve()), job_name="plan"):
        for job in jobs:
            cfg = compose(config_name="config", overrides=job)
            out.append(record.config_hash(cfg))
    return out
