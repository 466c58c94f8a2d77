"""A job's identity: the part of its config that decides what it computes, hashed, under a version.

:data:`SEMANTIC` declares that part: each top-level key of a job config that enters the identity, whole but for the
keys inside it that say where or how the job runs. :data:`MACHINERY` names the top-level keys that do not enter it.
A new job whose config has a top-level key declared in neither stops with a one-line error (:func:`check_declared`),
so a new group is classified when it is added; a stored config with such a key is hashed with it (never matching a
declared job by leaving something out).

A stored config is hashed in the current version's shape. A record written under version ``k`` (its
``identity_version``; a record without one is version 1, as is every record written before versions) goes through
``MIGRATIONS[k - 1:]`` first: pure functions ``v_k -> v_{k+1}`` on a plain dict (rename a key, drop a dead key,
rename a task). Version 1's hash is that of every record committed before versions, so a config no migration
changes keeps its identity. How to add a migration: docs/running.md, "Job identity".
"""
from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Sequence

from sparselab.errors import ConfigError


@dataclass(frozen=True)
class Part:
    """A top-level key of a job config that enters the identity: its whole value, less the keys ``but``."""
    but: tuple[str, ...] = ()


SEMANTIC: Mapping[str, Part] = {
    "experiment_name": Part(),
    "profile": Part(),
    "seed": Part(),
    "task": Part(),
    "mapping": Part(),
    # where the data files are read from is not which data
    "data": Part(but=("root",)),
    # fused kernel or materialised probabilities: the same function, to rounding
    "model": Part(but=("attention_impl",)),
    # where a job runs (a job started on a laptop and finished on a cluster is one job); precision stays
    "trainer": Part(but=("accelerator", "devices", "strategy", "num_nodes", "use_distributed_sampler")),
}
# where things are written, how they are logged, how the engine and the CPU threads run the job
MACHINERY: tuple[str, ...] = ("paths", "logger", "engine", "threads")


def machinery_keys() -> tuple[str, ...]:
    """Every key a job's identity leaves out, dotted (``paths``, ``data.root``, ...)."""
    return MACHINERY + tuple(f"{group}.{key}" for group, part in SEMANTIC.items() for key in part.but)


# ---------------------------------------------------------------- migrations
Migration = Callable[[dict], dict]


def _path(dotted: str) -> list[str]:
    return dotted.split(".")


def dropped(config: dict, dotted: str) -> dict:
    """``config`` without the key ``dotted`` (``*`` stands for any key at its level); pure."""
    out = copy.deepcopy(config)

    def drop(node: Any, parts: list[str]) -> None:
        if not isinstance(node, dict):
            return
        head, rest = parts[0], parts[1:]
        keys = list(node) if head == "*" else [head] if head in node else []
        for k in keys:
            if rest:
                drop(node[k], rest)
            else:
                del node[k]
    drop(out, _path(dotted))
    return out


def renamed(config: dict, old: str, new: str) -> dict:
    """``config`` with the value at ``old`` moved to ``new`` (dotted; absent ``old``: unchanged); pure."""
    out = copy.deepcopy(config)
    *outer, last = _path(old)
    node = out
    for k in outer:
        node = node.get(k) if isinstance(node, dict) else None
    if not isinstance(node, dict) or last not in node:
        return out
    value = node.pop(last)
    *outer, last = _path(new)
    node = out
    for k in outer:
        node = node.setdefault(k, {})
    node[last] = value
    return out


def task_renamed(config: dict, old: str, new: str) -> dict:
    """``config`` with ``task.name`` ``old`` written ``new``; pure."""
    out = copy.deepcopy(config)
    if isinstance(out.get("task"), dict) and out["task"].get("name") == old:
        out["task"]["name"] = new
    return out


def _v1_to_v2(config: dict) -> dict:
    # The pairs' step guard (data.pairs.*.max_steps) left conf/data/mt.yaml and mt_wmt14.yaml for Peters et al.'s
    # experiment, the one that reads it (its trainer.max_steps): Correia's Transformer runs never read it, and
    # data=mt_wmt14's en-de, under Peters, holds its guard in trainer.max_steps alone
    task = config.get("task") if isinstance(config.get("task"), dict) else {}
    data = config.get("data") if isinstance(config.get("data"), dict) else {}
    if task.get("name") == "transformer_translation":
        return dropped(config, "data.pairs.*.max_steps")
    if task.get("name") == "translation" and data.get("name") == "mt_wmt14":
        return dropped(config, "data.pairs.en-de.max_steps")
    return config


def _v2_to_v3(config: dict) -> dict:
    # SIGMORPHON's data setting (low | medium | high) is data.resource, so no config key is named "setting"; only
    # sigmorphon2018's data block ever had data.setting
    return renamed(config, "data.setting", "data.resource")


# MIGRATIONS[k - 1] takes a version-k config to version k + 1; append only, never edit one that has shipped
MIGRATIONS: tuple[Migration, ...] = (_v1_to_v2, _v2_to_v3)


def current_version(migrations: Sequence[Migration] | None = None) -> int:
    return 1 + len(MIGRATIONS if migrations is None else migrations)


class IdentityVersionError(ConfigError):
    """A stored record of an identity version this code does not know (written by a newer sparselab)."""


def migrate(config: dict, version: int | None = None, migrations: Sequence[Migration] | None = None,
            where: str = "a run record") -> dict:
    """``config``, stored under identity ``version`` (None: the current one), in the current version's shape."""
    migrations = MIGRATIONS if migrations is None else migrations
    current = current_version(migrations)
    version = current if version is None else version
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise IdentityVersionError(f"{where}: identity_version {version!r} is not a version (1, 2, ...)")
    if version > current:
        raise IdentityVersionError(f"{where}: identity_version {version} is newer than this sparselab's "
                                   f"({current}); read it with the sparselab that wrote it, or update this one")
    for step in migrations[version - 1:]:
        config = step(config)      # each step is pure (copies what it changes), so no copy here
    return config


# ---------------------------------------------------------------- the hash
def _canonical(value: Any) -> Any:
    """A value as the identity sees it: numbers as numbers (``1`` and ``1.0`` are one α), keys sorted."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        f = float(value)
        return 0.0 if f == 0 else f  # -0.0 is 0
    if isinstance(value, dict):
        return {str(k): _canonical(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (list, tuple)):
        return [_canonical(v) for v in value]
    return str(value)


def _unplace(value: Any, places: list[tuple[str, str]]) -> Any:
    """Strings with the job's own folders (``paths.*``) written as ``<paths.KEY>``, so that a value derived
    from a folder (``data.cache_dir: ${paths.runs}/.cache/mt``) does not tie the job to one machine."""
    if isinstance(value, str):
        for path, name in places:  # a whole path or a path under it, never a substring of another word
            if value == path or value.startswith(path.rstrip("/") + "/"):
                return name + value[len(path.rstrip("/")):]
        return value
    if isinstance(value, dict):
        return {k: _unplace(v, places) for k, v in value.items()}
    if isinstance(value, list):
        return [_unplace(v, places) for v in value]
    return value


def semantic(config: dict[str, Any], version: int | None = None, where: str = "a run record") -> dict[str, Any]:
    """The part of a resolved config (a plain dict, as stored in ``run.json``) that defines the job, in the current
    version's shape; ``version``: the identity version it was stored under (None: the current one)."""
    config = migrate(config, version, where=where)
    paths = config.get("paths") if isinstance(config.get("paths"), dict) else {}
    places = sorted(((str(v), f"<paths.{k}>") for k, v in paths.items() if isinstance(v, str) and len(v) > 1),
                    key=lambda pn: -len(pn[0]))
    # a config committed beside a report has its paths scrubbed (sparselab.reports.records.scrub)
    places.append(("<runs root>", "<paths.runs>"))
    out = {}
    for key, value in config.items():
        if key in MACHINERY:
            continue
        part = SEMANTIC.get(key, Part())   # undeclared (a stored config only: check_declared stops a new job)
        out[key] = {k: v for k, v in value.items() if k not in part.but} if isinstance(value, dict) else value
    return _canonical(_unplace(out, places))


def job_id(config: dict[str, Any], version: int | None = None, where: str = "a run record") -> str:
    """The job's identity: 16 hex digits of the hash of :func:`semantic`."""
    blob = json.dumps(semantic(config, version, where), sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def check_declared(keys: Iterable[str]) -> None:
    """The top-level keys of a new job's config: each declared, in :data:`SEMANTIC` or :data:`MACHINERY`."""
    unknown = sorted(str(k) for k in keys if k not in SEMANTIC and k not in MACHINERY)
    if unknown:
        raise ConfigError(f"{', '.join(unknown)}: not declared in the job identity (sparselab.engine.identity: "
                          "SEMANTIC if it changes what a job computes, MACHINERY if only where or how it runs)")
