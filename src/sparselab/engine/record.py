"""The run record: ``run.json`` in every run directory.

It is the single source of every number in ``reports/``: the resolved config and
its hash, status (running / finished / failed with the error), final and best
metrics, wall time and throughput, and the software/hardware it ran on.
"""
from __future__ import annotations

import json
import os
import platform
import subprocess
import time
from importlib import metadata
from pathlib import Path
from typing import Any, Callable

from omegaconf import DictConfig, OmegaConf

from sparselab.engine import identity as _identity

RECORD = "run.json"
PACKAGES = ("torch", "lightning", "hydra-core", "omegaconf", "wandb", "sacrebleu", "datasets", "scipy", "numpy")


def semantic_dict(config: dict[str, Any], version: int | None = None) -> dict[str, Any]:
    """The part of a resolved config (a plain dict, as stored in ``run.json``) that defines the job
    (:func:`sparselab.engine.identity.semantic`; ``version``: the one it was stored under, None: the current)."""
    return _identity.semantic(config, version)


# Not part of the resolved config: Hydra's own node (present in a sweep's folder interpolation, where ``${job_id:}`` is
# evaluated).
NOT_RESOLVED = ("hydra",)


def resolved(cfg: DictConfig) -> dict[str, Any]:
    """The job's config resolved to plain values, without the nodes of :data:`NOT_RESOLVED`."""
    return {str(k): OmegaConf.to_container(cfg[k], resolve=True) if OmegaConf.is_config(cfg[k]) else cfg[k]
            for k in cfg.keys() if k not in NOT_RESOLVED}


def semantic_config(cfg: DictConfig) -> dict[str, Any]:
    return semantic_dict(resolved(cfg))


def job_id(config: dict[str, Any], version: int | None = None) -> str:
    """The job's identity: a hash of the part of its resolved config that defines it (:func:`semantic_dict`).

    The run folder is named by it, resume matches it, and reports select their plan's jobs by it. ``version``: the
    identity version ``config`` was stored under (None: the current one); an older config is migrated first
    (:mod:`sparselab.engine.identity`), so a record written under any earlier version is found under the current.
    """
    return _identity.job_id(config, version)


def config_hash(cfg: DictConfig) -> str:
    return job_id(resolved(cfg))


def version_of(rec: dict[str, Any]) -> Any:
    """The identity version a record was written under: 1 for a record from before versions."""
    return rec.get("identity_version", 1)


def current_config(rec: dict[str, Any]) -> dict[str, Any]:
    """A record's stored config in the current identity version's shape (its keys as today's configs name them)."""
    return _identity.migrate(rec.get("config") or {}, version_of(rec), where=str(rec.get("run_dir") or "a run record"))


def identity(rec: dict[str, Any]) -> str | None:
    """A record's job identity, from its stored config in the version it was written under (None for a record
    without a config); a version newer than this code's is an :class:`~sparselab.engine.identity.IdentityVersionError`."""
    cfg = rec.get("config")
    if not isinstance(cfg, dict):
        return None
    return _identity.job_id(cfg, version_of(rec), where=str(rec.get("run_dir") or "a run record"))


def read(run_dir: Path) -> dict[str, Any] | None:
    """The record of ``run_dir``; None when there is none or it cannot be read (:func:`unreadable` says why)."""
    p = Path(run_dir) / RECORD
    if not p.exists():
        return None
    try:
        rec = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        # A torn or damaged record: treated as unfinished, and named by unreadable() where it is read.
        return None
    return rec if isinstance(rec, dict) else None


def unreadable(run_dir: Path) -> str | None:
    """Why the ``run.json`` of ``run_dir`` cannot be read (one line), or None when it reads or is absent."""
    p = Path(run_dir) / RECORD
    if not p.exists():
        return None
    try:
        rec = json.loads(p.read_text(encoding="utf-8"))
    except OSError as err:
        return err.strerror or str(err)
    except UnicodeDecodeError as err:
        return f"not UTF-8 text ({err.reason})"
    except json.JSONDecodeError as err:
        return f"not valid JSON: {err.msg} at line {err.lineno} column {err.colno}"
    return None if isinstance(rec, dict) else f"not a JSON object ({type(rec).__name__})"


def find_unreadable(root: str | Path, profile: str | None = None) -> list[tuple[str, str]]:
    """``(path of run.json, why)`` for every record under ``root[/profile]`` that cannot be read."""
    base = Path(root) / profile if profile is not None else Path(root)
    out = []
    for path in sorted(base.rglob(RECORD)) if base.is_dir() else ():
        why = unreadable(path.parent)
        if why:
            out.append((str(path), why))
    return out


def write(run_dir: Path, record: dict[str, Any]) -> None:
    """Atomic write, so a SIGKILL never leaves a half-written finished record."""
    write_text_atomically(Path(run_dir) / RECORD, json.dumps(record, indent=2, sort_keys=True, default=str))


def write_text_atomically(path: Path, text: str) -> None:
    """Write beside ``path``, then rename: a reader (or a job killed mid-write) sees the old file or the whole new one."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # a name per process, not mkstemp: the file keeps the umask's permissions (records are read by other users)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def is_finished(rec: dict[str, Any] | None, chash: str) -> bool:
    return bool(rec) and rec.get("status") == "finished" and identity(rec) == chash


def _git_commit() -> str | None:
    try:
        root = Path(__file__).resolve().parents[3]
        out = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5)
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=5)
        if out.returncode != 0:
            return None
        return out.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return None


def environment(threads: int) -> dict[str, Any]:
    import torch

    from sparselab.engine.devices import cpu_kernel

    versions = {}
    for pkg in PACKAGES:
        try:
            versions[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            versions[pkg] = None
    device = torch.cuda.get_device_name(0) if torch.cuda.is_available() else f"cpu ({platform.processor() or platform.machine()})"
    return {
        "versions": versions,
        "python": platform.python_version(),
        "git_commit": _git_commit(),
        "device": device,
        # a 1-thread CPU run reproduces bit for bit only on the same kernels (AVX-512 with AMX against without)
        "cpu_kernel": cpu_kernel(inductor=False),
        "threads": threads,
        "cpu_count": os.cpu_count(),
        "host": platform.node(),
    }


def new_record(cfg: DictConfig, chash: str, threads: int) -> dict[str, Any]:
    return {
        "status": "running",
        "experiment": cfg.get("experiment_name"),
        "config": resolved(cfg),
        "config_hash": chash,
        "identity_version": _identity.current_version(),
        "started_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "pid": os.getpid(),
        **environment(threads),
    }


def find(root: str | Path, profile: str | None = None, experiment: str | None = None,
         status: str | None = "finished", where: Callable[[dict[str, Any]], bool] | None = None
         ) -> list[dict[str, Any]]:
    """Every run record under ``root[/profile[/experiment]]``, sorted by run directory.

    The one place that scans run directories: reports and ensemble-member lookup use it.
    ``status=None`` keeps every status; ``where`` filters the records further. Each returned
    record carries its directory as ``rec["run_dir"]`` (a string). Torn records are skipped.
    """
    base = Path(root)
    if profile is not None:
        base = base / profile
        if experiment is not None:
            base = base / experiment
    out = []
    for path in sorted(base.rglob(RECORD)):
        rec = read(path.parent)
        if rec is None or (status is not None and rec.get("status") != status):
            continue
        rec["run_dir"] = str(path.parent)
        if where is None or where(rec):
            out.append(rec)
    return out
