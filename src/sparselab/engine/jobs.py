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
# a job's identity too (sparselab.engine.identity.machinery_keys). They are dropped before composing.
_MACHINERY = ("hydra/", "hydra.", "paths.", "logger", "engine.", "threads=",
              "model.attention_impl=")   # fused or materialised attention: the same function


def _parse(lines: Sequence[str]):
    from hydra.core.override_parser.overrides_parser import OverridesParser

    return OverridesParser.create().parse_overrides(list(lines))


def first_values(lines: Sequence[str]) -> list[str]:
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
        cfg = compose(config_name="config", overrides=first_values(lines), return_hydra_config=True)
    params = OmegaConf.select(cfg, "hydra.sweeper.params")
    params = OmegaConf.to_container(params, resolve=False) if params is not None else {}
    # as BasicSweeper.sweep does: the config's params first, the command line after (and winning)
    given = {o.get_key_element() for o in _parse(lines)}
    arguments = [f"{k}={v}" for k, v in params.items() if k not in given] + lines
    batches = BasicSweeper.split_arguments(_parse(arguments), max_batch_size=None)
    return [list(job) for batch in batches for job in batch]


def _chooses_a_group(override, conf_dir: Path) -> bool:
    """Whether Hydra reads ``override`` while it builds the defaults list (a config-group choice, or anything else
    than a plain value: a package, a sweep, a dict) rather than applying it to the composed config afterwards."""
    return (override.package is not None or override.is_sweep_override() or isinstance(override.value(), dict)
            or "/" in override.key_or_group or (conf_dir / override.key_or_group).is_dir())


def compose_all(conf_dir: str | Path, jobs: Sequence[Sequence[str]]) -> list:
    """Each job's config, as ``compose(config_name="config", overrides=job)`` gives it.

    Why not one compose per job: Hydra re-reads and re-merges every config file each time (~0.2 s), so a plan of
    1,000 jobs took minutes. Jobs that make the same config-group choices share one composition; each then gets its
    plain value overrides, in order, through Hydra's own override step (``ConfigLoaderImpl._apply_overrides_to_config``),
    which is what compose does after merging the defaults, in the same struct mode.
    """
    import copy

    from hydra import compose, initialize_config_dir
    from hydra._internal.config_loader_impl import ConfigLoaderImpl

    conf_dir = Path(conf_dir).resolve()
    bases: dict[tuple[str, ...], object] = {}
    out = []
    with initialize_config_dir(version_base="1.3", config_dir=str(conf_dir), job_name="plan"):
        for job in jobs:
            parsed = _parse(job)
            groups = tuple(o.input_line for o in parsed if _chooses_a_group(o, conf_dir))
            if groups not in bases:
                bases[groups] = compose(config_name="config", overrides=list(groups))
            cfg = copy.deepcopy(bases[groups])
            ConfigLoaderImpl._apply_overrides_to_config([o for o in parsed if not _chooses_a_group(o, conf_dir)], cfg)
            out.append(cfg)
    return out


def identities(conf_dir: str | Path, experiment: str, profile: str, overrides: Sequence[str] = ()) -> list[str]:
    """The job identity (:func:`record.job_id`) of every job of the sweep, in sweep order."""
    return [record.config_hash(cfg) for cfg in compose_all(conf_dir, expand(conf_dir, experiment, profile, overrides))]
