"""Before a run starts: what its jobs' configs ask of the data layer, checked and fetched by the entry points
(``sparselab.run``, a pipeline's plan), which sit above both the engine and the data layer.

**Data on first use.** Before a ``cpu`` or ``paper`` run (or a pipeline's plan) starts, the data sets its jobs read
that are not under their data root are fetched (:func:`sparselab.data.first_use.fetch_missing`); without network
the run stops in one ``error:`` line naming the data set and the fetch command, before any run folder is made. The
smoke profile reads the shipped excerpts (:mod:`sparselab.data.excerpt`) and fetches nothing. Which data sets a job
reads follows from its composed config, by the loaders' own tables: the inflection tasks read
``sigmorphon2018_task1``, multilabel ``mulan``, SNLI the data sets of ``data.splits`` and ``data.vectors``, the
translation tasks the data sets of their pair's corpora (:data:`sparselab.data.parallel.CORPORA`).

**Data checks.** :data:`CONFIG_CHECKS` judge a composed config against the data layer's tables (a Mulan
``data.name``); the engine runs them with its own checks, before Hydra makes a folder and when the job starts.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Iterable, Sequence

from omegaconf import DictConfig, OmegaConf

from sparselab.errors import ConfigError, DataUnavailableError

FETCH_PROFILES = ("cpu", "paper")
# the overrides that can change which data sets a job reads (the jobs of a sweep that differ only in others are one)
_DATA_KEYS = ("experiment", "profile", "task", "data", "data.name", "data.pair", "data.root", "data.vectors")


def check_multilabel_dataset(cfg: DictConfig) -> None:
    """``data.name`` of a Mulan config is one of the registered multi-label sets (before any file is read)."""
    data = cfg.get("data")
    if not isinstance(data, DictConfig) or OmegaConf.select(cfg, "task.name", default=None) != "multilabel":
        return
    from sparselab.data.mulan import EXTRA_DATASETS, PAPER_DATASETS

    name = data.get("name")
    valid = [*PAPER_DATASETS, *EXTRA_DATASETS]
    if str(name) not in valid:
        import difflib

        near = difflib.get_close_matches(str(name), valid, n=1)
        raise ConfigError(f"data.name={name!r} is not a multi-label data set; valid: {', '.join(valid)}"
                          + (f". Did you mean {near[0]!r}?" if near else ""))


# the data layer's checks of a composed config, handed to the engine (sparselab.engine.checks.check_config)
CONFIG_CHECKS = (check_multilabel_dataset,)


def datasets_of(cfg: DictConfig) -> set[str]:
    """The registry data sets a job with this (composed) config reads."""
    from sparselab.data import parallel

    task, d = str(cfg.task.name) if cfg.get("task") else "", cfg.get("data")
    if d is None:
        return set()
    if task in ("inflection", "inflection_baseline"):
        return {"sigmorphon2018_task1"}
    if task == "multilabel":
        return {"mulan"}
    if task == "snli":
        return {str(spec).partition("/")[0] for spec in d.splits.values()} | {str(d.vectors)}
    if task in ("translation", "transformer_translation"):
        ps = d.pairs.get(str(d.pair)) if d.get("pairs") else None
        specs = [ps.get(k) for k in ("train", "val", "test")] + list((ps.get("extra_test") or {}).values()) if ps else []
        out = set()
        for spec in (str(s) for s in specs if s):
            corpus, _, split = spec.partition("/")
            source = parallel.CORPORA.get(corpus) and parallel.CORPORA[corpus].splits.get(split)
            if source:
                out.add(source.dataset)
        return out
    return set()


def ensure(cfgs: Iterable[DictConfig], progress=None) -> list[str]:
    """Fetch what these jobs read and is not on disk (cpu and paper profiles only); the data sets fetched.
    Offline (or any failed download) with a data set missing: :class:`DataUnavailableError`."""
    from sparselab.data.first_use import fetch_missing
    from sparselab.locations import data_root

    wanted: dict[tuple[Path, str], str] = {}
    for cfg in cfgs:
        profile = str(cfg.profile.name)
        if profile in FETCH_PROFILES and cfg.get("data") is not None:
            root = data_root(cfg.data.get("root"))
            for name in datasets_of(cfg):
                wanted.setdefault((root, name), profile)
    return fetch_missing(wanted, progress)


def job_configs(conf_dir: str | Path, args: Sequence[str]) -> list[DictConfig]:
    """The composed configs of a ``sparselab.run`` command line's jobs, one per distinct data choice of its sweep."""
    from hydra import compose, initialize_config_dir

    from sparselab.engine import jobs, resolvers

    resolvers.register()
    lines = [a for a in args if not a.startswith("-") and "=" in a]
    given = {a.split("=", 1)[0]: a.split("=", 1)[1] for a in lines}
    experiment, profile = given.get("experiment"), given.get("profile", "cpu")
    if profile not in FETCH_PROFILES:
        return []
    others = [a for a in lines if not a.startswith(("experiment=", "profile="))]
    runs = jobs.expand(conf_dir, experiment, profile, others) if experiment else [jobs.first_values(lines)]
    keep = {tuple(o for o in job if o.lstrip("+").split("=", 1)[0] in _DATA_KEYS
                  or o.startswith(("data.splits.", "data.pairs."))) for job in runs}
    with initialize_config_dir(version_base="1.3", config_dir=str(Path(conf_dir).resolve()), job_name="data"):
        return [compose(config_name="config", overrides=list(job)) for job in sorted(keep)]


def prepare(conf_dir: str | Path, *commands: Sequence[str]) -> int | None:
    """Entry points call this before anything is written: fetch what the commands' jobs read (a pipeline passes every
    sweep of its plan); the exit status to stop with (2: a data set cannot be had, one ``error:`` line; 130: Ctrl-C
    during a download) or None to go on."""
    from sparselab.engine.distributed import process_rank

    if process_rank() > 0:
        return None                     # a DDP child rank re-runs the command line: rank 0 fetched already
    if any(a in ("--cfg", "-c", "--info", "-i", "--help", "-h", "--hydra-help", "--resolve") for c in commands for a in c):
        return None                     # Hydra only prints (a config, help): nothing runs, nothing is read
    try:
        cfgs = [cfg for args in commands for cfg in job_configs(conf_dir, args)]
    except Exception:
        return None
    try:
        ensure(cfgs)
    except DataUnavailableError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted: the download resumes where it stopped when you run the command again", file=sys.stderr)
        return 130
    return None
