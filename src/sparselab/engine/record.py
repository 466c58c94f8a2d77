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
# Keys that do not change a result: where things are written, how they are logged.
NON_SEMANTIC_KEYS = ("paths", "logger", "engine", "threads")
NON_SEMANTIC_SUBKEYS = (("data", "root"), ("trainer", "accelerator"), ("trainer", "devices"))
PACKAGES = ("torch", "lightning", "hydra-core", "omegaconf", "wandb", "sacrebleu", "datasets", "scipy", "numpy")


def semantic_config(cfg: DictConfig) -> dict[str, Any]:
    d = OmegaConf.to_container(cfg, resolve=True)
    for k in NON_SEMANTIC_KEYS:
        d.pop(k, None)
    for outer, inner in NON_SEMANTIC_SUBKEYS:
        if isinstance(d.get(outer), dict):
            d[outer].pop(inner, None)
    return d


def config_hash(cfg: DictConfig) -> str:
    blob = json.dumps(semantic_config(cfg), sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def read(run_dir: Path) -> dict[str, Any] | None:
    p = Path(run_dir) / RECORD
    if not p.exists():
        return None
    try:
        return json.loads(p.read_text())
    except json.JSONDecodeError:
        # A job killed mid-write leaves a torn record: treat it as unfinished.
        return None


def write(run_dir: Path, record: dict[str, Any]) -> None:
    """Atomic write, so a SIGKILL never leaves a half-written finished record."""
    run_dir = Path(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    tmp = run_dir / f".{RECORD}.{os.getpid()}.tmp"
    tmp.write_text(json.dumps(record, indent=2, sort_keys=True, default=str))
    os.replace(tmp, run_dir / RECORD)


def is_finished(rec: dict[str, Any] | None, chash: str) -> bool:
    return bool(rec) and rec.get("status") == "finished" and rec.get("config_hash") == chash


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
        "config": OmegaConf.to_container(cfg, resolve=True),
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
