"""Value checks of a composed job config, run before Hydra makes a folder and again when the job starts.

Each raises :class:`ConfigError` naming the key, so ``python -m sparselab.run`` prints one ``error:`` line and
exits 2 instead of a numpy or Lightning traceback after the data is read. :func:`check_value` judges one
``key=value`` of the command line (each point of a sweep); :func:`check_config` judges a whole config.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from omegaconf import DictConfig, OmegaConf

from sparselab.engine.identity import check_declared
from sparselab.engine.record import NOT_RESOLVED
from sparselab.errors import ConfigError

SEED_MAX = 2**32 - 1  # numpy's RandomState (Lightning's seed_everything) takes seeds in [0, 2**32 - 1]


def _int(key: str, value: Any, low: int, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ConfigError(f"{key}={value!r}: must be {what}")


def _seed(key, v):
    _int(key, v, 0, f"an integer in [0, {SEED_MAX}]")
    if v > SEED_MAX:
        raise ConfigError(f"{key}={v!r}: must be an integer in [0, {SEED_MAX}]")


def _optional(check):
    return lambda key, v: None if v is None else check(key, v)


def _interval(key, v):
    if isinstance(v, float) and not isinstance(v, bool):
        if not 0 < v <= 1:
            raise ConfigError(f"{key}={v!r}: a fraction of an epoch must be in (0, 1], or give a number of steps")
        return
    _int(key, v, 1, "a positive number of steps, or a fraction of an epoch in (0, 1]")


def _devices(key, v):
    if v == "auto" or (isinstance(v, (list, tuple)) and v) or (isinstance(v, int) and v == -1):
        return
    _int(key, v, 1, "a positive number of devices, -1 (all) or auto")


def _clip(key, v):
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0:
        raise ConfigError(f"{key}={v!r}: must be a non-negative number, or null for no clipping")


def _cap(what):
    """-1 (no limit) or a positive number: 0 would record a finished run that trained nothing."""
    def check(key, v):
        _int(key, v, -1, f"-1 (no limit) or a positive number of {what}")
        if v == 0:
            raise ConfigError(f"{key}=0: a run that trains no {what} would be recorded as finished; give -1 "
                              f"(no limit) or a positive number of {what}")
    return check


CHECKS = {
    "seed": _seed,
    "trainer.max_steps": _optional(_cap("steps")),
    "trainer.max_epochs": _optional(_cap("epochs")),
    "task.batch_size": _optional(lambda k, v: _int(k, v, 1, "a positive number of examples")),
    "threads": lambda k, v: _int(k, v, 1, "a positive number of threads"),
    "trainer.log_every_n_steps": lambda k, v: _int(k, v, 1, "a positive number of steps"),
    "trainer.check_val_every_n_epoch": _optional(lambda k, v: _int(k, v, 1, "a positive number of epochs, or null")),
    "trainer.val_check_interval": _optional(_interval),
    "trainer.num_nodes": lambda k, v: _int(k, v, 1, "a positive number of nodes"),
    "trainer.devices": _devices,
    "trainer.gradient_clip_val": _optional(_clip),
}


def runs_path_error(value: Any, source: str = "paths.runs / SPARSELAB_RUNS") -> str | None:
    """Why ``value`` cannot be a runs folder, else None: an empty path (``SPARSELAB_RUNS=`` or ``paths.runs=``; run
    folders would go under the filesystem root as ``/<profile>/...``) or the filesystem root itself."""
    import os
    from pathlib import Path

    text = "" if value is None else str(value)
    if not text.strip():
        return (f"{source} is empty: run folders would be made under the filesystem root; unset it (default ./runs) "
                "or give a folder, e.g. SPARSELAB_RUNS=$HOME/sparselab-runs")
    path = Path(os.path.realpath(os.path.expanduser(text)))
    if "${" not in text and path.parent == path:
        return f"{source}={text!r} is the filesystem root: give a folder of its own, e.g. SPARSELAB_RUNS=$HOME/sparselab-runs"
    return None


def check_value(key: str, text: str) -> None:
    """One command-line value (as Hydra parses it: ``-5`` is an int) of a checked key."""
    check = CHECKS.get(key)
    if check is not None:
        check(key, _parse(text))


def _parse(text: str) -> Any:
    import yaml

    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return text


def check_config(cfg: DictConfig, checks: Sequence[Callable[[DictConfig], None]] = ()) -> None:
    """Every checked key of ``cfg`` (resolved), its top-level keys declared in the job identity, the data pair an
    MT config names, and the DDP set-up; ``checks``: the entry point's checks of what the engine does not know (the
    data layer's tables, sparselab.preflight)."""
    check_declared(k for k in cfg.keys() if k not in NOT_RESOLVED)
    _check_pair(cfg)
    for check in checks:
        check(cfg)
    runs = OmegaConf.select(cfg, "paths.runs", default=None, throw_on_missing=False)
    if OmegaConf.select(cfg, "paths", default=None) is not None:
        why = runs_path_error(runs, "paths.runs (SPARSELAB_RUNS)")
        if why:
            raise ConfigError(why)
    absent = object()
    for key, check in CHECKS.items():
        value = OmegaConf.select(cfg, key, default=absent, throw_on_missing=False)
        if value is absent:
            continue  # e.g. a task without a trainer, or a trainer that leaves a key to Lightning's default
        check(key, OmegaConf.to_container(value, resolve=True) if OmegaConf.is_config(value) else value)
    _check_devices(cfg)


def _check_pair(cfg: DictConfig) -> None:
    data = cfg.get("data")
    if not isinstance(data, DictConfig) or "pair" not in data or not isinstance(data.get("pairs"), DictConfig):
        return
    pairs = [str(k) for k in data.pairs.keys()]
    if str(data.pair) not in pairs:
        raise ConfigError(f"data.pair={data.pair!r} is not a pair of data={data.get('name', '?')}; "
                          f"valid pairs: {', '.join(pairs)}")


def check_accelerator(cfg: DictConfig) -> None:
    """``trainer.accelerator=gpu`` (or ``trainer=ddp``'s) where torch sees no CUDA GPU. Checked by the job itself
    (``execute.validate``), before its record or data, not before Hydra: a SLURM sweep is submitted from a login
    node without a GPU."""
    trainer = cfg.get("trainer")
    if isinstance(trainer, DictConfig) and str(trainer.get("accelerator", "auto")) in ("gpu", "cuda"):
        import torch

        if not torch.cuda.is_available():
            raise ConfigError(f"trainer.accelerator={trainer.get('accelerator')}: no CUDA GPU is visible to torch "
                              f"here (torch {torch.__version__}); use trainer.accelerator=auto or cpu")


def _check_devices(cfg: DictConfig) -> None:
    """More than one device (or node) needs a DDP strategy: our loaders shard by rank only under trainer=ddp."""
    from sparselab.engine.distributed import single_process

    trainer = cfg.get("trainer")
    if not isinstance(trainer, DictConfig) or not single_process(trainer.get("strategy", "auto")):
        return
    devices, nodes = trainer.get("devices", 1), trainer.get("num_nodes", 1) or 1
    devices = OmegaConf.to_container(devices) if OmegaConf.is_config(devices) else devices
    many = (isinstance(devices, int) and devices > 1) or (isinstance(devices, (list, tuple)) and len(devices) > 1)
    if devices == -1 and str(trainer.get("accelerator", "auto")) in ("auto", "gpu", "cuda"):
        import torch

        many = torch.cuda.device_count() > 1  # -1 is every GPU: Lightning would pick DDP with our loaders unsharded
    if many or nodes > 1:
        raise ConfigError(f"trainer.devices={devices!r} trainer.num_nodes={nodes} with trainer.strategy="
                          f"{trainer.get('strategy')}: several devices or nodes need data parallel, add trainer=ddp")
