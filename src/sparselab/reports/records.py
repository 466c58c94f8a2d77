"""Where run records live and how reports name paths (never an absolute path of the machine)."""
from __future__ import annotations

import json
import os
import re
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from sparselab.engine import record

PROJECT = Path(__file__).resolve().parents[3]
# a record's provenance fields, kept beside a report's configs (no host, pid or traceback)
PROVENANCE = ("status", "experiment", "git_commit", "versions", "python", "device", "threads", "cpu_count",
              "started_at", "finished_at", "wall_time_s")


def runs_root() -> Path:
    """``$SPARSELAB_RUNS``, else ``<project>/runs``; an empty one (or ``/``) is a ConfigError."""
    from sparselab.engine.checks import runs_path_error
    from sparselab.errors import ConfigError

    value = os.environ.get("SPARSELAB_RUNS")
    if value is None:
        return PROJECT / "runs"
    why = runs_path_error(value, "SPARSELAB_RUNS")
    if why:
        raise ConfigError(why)
    return Path(value)


@dataclass
class Selection:
    """The jobs a report may use: its plan's job identities; the others are noted, never tabled."""

    ids: frozenset[str]
    planned: int = 0    # jobs of the part of the plan being reported (--only), and how many have a record
    finished: int = 0
    others: dict[str, dict[str, Any]] = field(default_factory=dict)  # run_dir -> record


_SELECTION: ContextVar[Selection | None] = ContextVar("sparselab_report_selection", default=None)


@contextmanager
def plan_only(ids: Iterable[str], planned: int = 0, finished: int = 0) -> Iterator[Selection]:
    """Within the block, :func:`load` returns only records of these job identities."""
    sel = Selection(frozenset(ids), planned, finished)
    token = _SELECTION.set(sel)
    try:
        yield sel
    finally:
        _SELECTION.reset(token)


def selection() -> Selection | None:
    return _SELECTION.get()


def other_runs() -> list[dict[str, Any]]:
    """Records that :func:`load` left out because their job is not in the plan (sorted by run directory)."""
    sel = _SELECTION.get()
    return [] if sel is None else [sel.others[k] for k in sorted(sel.others)]


def _latest(recs: Iterable[dict[str, Any]], key: Callable[[dict[str, Any]], str]) -> list[dict[str, Any]]:
    """One record per ``key``, the one finished last, in first-seen order."""
    best: dict[str, dict[str, Any]] = {}
    for r in recs:
        k = key(r) or r["run_dir"]
        if k not in best or (r.get("finished_at") or "") >= (best[k].get("finished_at") or ""):
            best[k] = r
    return list(best.values())


def once_per_job(recs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One record per job identity, the last finished (a job re-run in another folder is still one job)."""
    return sorted(_latest(recs, record.identity), key=lambda r: r["run_dir"])


def latest_per_config(recs: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """One record per config hash (a hand run and a sweep job of one config are one run), the latest."""
    return _latest(recs, lambda r: r.get("config_hash"))


def grouped(recs: Iterable[dict[str, Any]], key: Callable[[dict[str, Any]], Any],
            order: Callable[[dict[str, Any]], Any]) -> dict[Any, list[dict[str, Any]]]:
    """The records under each ``key``, each list sorted by ``order``."""
    out: dict[Any, list[dict[str, Any]]] = {}
    for r in recs:
        out.setdefault(key(r), []).append(r)
    return {k: sorted(v, key=order) for k, v in out.items()}


def find_stored(recs: Iterable[dict[str, Any]], runs: str | os.PathLike, profile: str, experiment: str,
                where: Callable[[dict[str, Any]], bool] | None = None) -> list[dict[str, Any]]:
    """:func:`record.find` over records already read: the finished ones under ``runs/profile/experiment``."""
    base = Path(runs) / profile / experiment
    return sorted((r for r in recs if r.get("status") == "finished" and Path(r["run_dir"]).is_relative_to(base)
                   and (where is None or where(r))), key=lambda r: r["run_dir"])


def load(runs: str | os.PathLike, profile: str, experiment: str,
         where: Callable[[dict[str, Any]], bool] | None = None,
         stored: Iterable[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """Finished records of one experiment and profile, once per job (``stored``: among these), plan jobs only."""
    recs = (record.find(runs, profile, experiment, status="finished", where=where) if stored is None
            else find_stored(stored, runs, profile, experiment, where))
    sel = _SELECTION.get()
    if sel is not None:
        sel.others.update({r["run_dir"]: r for r in recs if record.identity(r) not in sel.ids})
        recs = [r for r in recs if record.identity(r) in sel.ids]
    return once_per_job(recs)


def committed_records(configs: Path, extras: Path, runs: str | os.PathLike) -> list[dict[str, Any]]:
    """Committed ``configs`` joined with ``extras`` on the run name ([] when either is missing)."""
    if not (configs.exists() and extras.exists()):
        return []
    more = {row["run"]: row for row in map(json.loads, extras.read_text(encoding="utf-8").splitlines())}
    recs = []
    for row in map(json.loads, configs.read_text(encoding="utf-8").splitlines()):
        if row["run"] not in more:
            raise ValueError(f"{extras}: no row for run {row['run']!r} of {configs.name}")
        rest = {k: v for k, v in more[row["run"]].items() if k != "run"}
        version = {"identity_version": row["identity_version"]} if "identity_version" in row else {}
        recs.append({**rest, "config": row["config"], "config_hash": row.get("config_hash"), **version,
                     "metrics": row.get("metrics"), "best": row.get("best"), "run_dir": str(Path(runs) / row["run"])})
    return recs


def keep_only(value: Any, spec: Any) -> Any:
    """The parts of a value that ``spec`` names: True keeps it; a dict keeps its keys (``"*"``: any other)."""
    if spec is True or not isinstance(value, (dict, list)):
        return value
    if isinstance(value, list):
        return [keep_only(v, spec) for v in value]
    return {k: keep_only(v, spec[k] if k in spec else spec["*"]) for k, v in value.items() if k in spec or "*" in spec}


def write_extras(path: Path, recs: Iterable[dict[str, Any]], runs: str | os.PathLike, keep: Iterable[str],
                 extra_of: Callable[[dict[str, Any]], dict[str, Any]] | None = None) -> Path:
    """The extras file :func:`committed_records` joins: rows, keys sorted, paths scrubbed (same records, same bytes)."""
    keep = tuple(keep)
    rows = []
    for r in sorted(recs, key=lambda r: r["run_dir"]):
        row = {"run": relative_run(r["run_dir"], runs), **{k: r[k] for k in keep if k in r}}
        if extra_of is not None:
            row["extra"] = extra_of(r)
        rows.append(scrub(json.dumps(row, sort_keys=True, ensure_ascii=False), runs))
    Path(path).write_text("".join(x + "\n" for x in rows), encoding="utf-8")
    return Path(path)


def relative_run(run_dir: str | os.PathLike, runs: str | os.PathLike) -> str:
    """A run directory named relative to the runs root (its last three parts if it lies elsewhere)."""
    p = Path(run_dir)
    try:
        return p.relative_to(Path(runs)).as_posix()
    except ValueError:
        return "/".join(p.parts[-3:]) if p.is_absolute() else p.as_posix()


def placeholders(runs: str | os.PathLike | None = None) -> list[tuple[str, str]]:
    """(absolute path, placeholder) pairs, longest path first, for :func:`scrub`."""
    from sparselab.locations import data_root

    pairs = [(str(PROJECT), "<project>"), (str(data_root()), "<data root>")]
    if runs is not None:
        pairs.append((str(Path(runs)), "<runs root>"))
    pairs.append((str(Path.home()), "~"))
    return sorted({(a, b) for a, b in pairs if len(a) > 1}, key=lambda ab: -len(ab[0]))


def scrub(text: str, runs: str | os.PathLike | None = None, html: bool = False) -> str:
    """Replace the machine's absolute paths by placeholders (``html``: escaped, so they stay text)."""
    from html import escape

    for path, name in placeholders(runs):
        text = text.replace(path, escape(name) if html else name)
    return text


def data_relative(text: str, root: str | os.PathLike) -> str:
    """A data-layer message with the data root named ``<data root>``."""
    root = str(root)
    text = re.sub(r"expected (.+?) under data root " + re.escape(root), r"expected <data root>/\1", text)
    return text.replace(root, "<data root>")
