"""The run record: ``run.json`` in every run directory.

It is the single source of every number in ``reports/``: the resolved config and
its hash, status (running / finished / failed with the error), final and best
metrics, wall time and throughput, and the software/hardware it ran on.
"""
from __future__ import annotations

import hashlib
import json
import os
import platform
import subprocess
import time
from importlib import metadata
from pathlib import Path
from typing import Any, Callable

from omegaconf import DictConfig, OmegaConf

RECORD = "run.json"
# Keys that do not change a result: where things are written, how they are logged, and where a job runs
# (launcher, devices, strategy, nodes: a job started on a laptop and finished on a cluster is one job).
# Precision stays: it changes the numbers. model.attention_impl (fused kernel or materialised probabilities) computes
# the same function, to rounding, so it is how a job runs, not what it computes (and no committed run moves).
NON_SEMANTIC_KEYS = ("paths", "logger", "engine", "threads")
NON_SEMANTIC_SUBKEYS = (("data", "root"), ("trainer", "accelerator"), ("trainer", "devices"),
                        ("trainer", "strategy"), ("trainer", "num_nodes"), ("trainer", "use_distributed_sampler"),
                        ("model", "attention_impl"))
PACKAGES = ("torch", "lightning", "hydra-core", "omegaconf", "wandb", "sacrebleu", "datasets", "scipy", "numpy")


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


def semantic_dict(config: dict[str, Any]) -> dict[str, Any]:
    """The part of a resolved config (a plain dict, as stored in ``run.json``) that defines the job."""
    d = dict(config)
    paths = d.get("paths") if isinstance(d.get("paths"), dict) else {}
    places = sorted(((str(v), f"<paths.{k}>") for k, v in paths.items() if isinstance(v, str) and len(v) > 1),
                    key=lambda pn: -len(pn[0]))
    # a config committed beside a report has its paths scrubbed (sparselab.reports.records.scrub)
    places.append(("<runs root>", "<paths.runs>"))
    for k in NON_SEMANTIC_KEYS:
        d.pop(k, None)
    for outer, inner in NON_SEMANTIC_SUBKEYS:
        if isinstance(d.get(outer), dict):
            d[outer] = {k: v for k, v in d[outer].items() if k != inner}
    return _canonical(_unplace(d, places))


# Not part of the resolved config: Hydra's own node (present in a sweep's folder interpolation, where ``${job_id:}`` is
# evaluated), and the paper's settings for every profile (the config's ``${setting:NAME}`` values hold the running
# profile's, resolved).
NOT_RESOLVED = ("hydra", "profile_settings")


def resolved(cfg: DictConfig) -> dict[str, Any]:
    """The job's config resolved to plain values, without the nodes of :data:`NOT_RESOLVED`."""
    return {str(k): OmegaConf.to_container(cfg[k], resolve=True) if OmegaConf.is_config(cfg[k]) else cfg[k]
            for k in cfg.keys() if k not in NOT_RESOLVED}


def semantic_config(cfg: DictConfig) -> dict[str, Any]:
    return semantic_dict(resolved(cfg))


def job_id(config: dict[str, Any]) -> str:
    """The job's identity: a hash of its normalised, resolved config (:func:`semantic_dict`).

    The run folder is named by it, resume matches it, and reports select their plan's jobs by it.
    It is recomputed from the config a record stores, so records written before the current
    normalisation (whose stored ``config_hash`` used another one) are still found.
    """
    blob = json.dumps(semantic_dict(config), sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def config_hash(cfg: DictConfig) -> str:
    return job_id(resolved(cfg))


def identity(rec: dict[str, Any]) -> str | None:
    """A record's job identity, from its stored config (None for a record without one)."""
    cfg = rec.get("config")
    return job_id(cfg) if isinstance(cfg, dict) else None


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
