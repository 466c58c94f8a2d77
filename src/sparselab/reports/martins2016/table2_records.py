"""Martins 2016 Table 2: the records' noise cells, and the records committed beside the report.

* :func:`cells` turns the records of one dataset into :class:`~.claims.Cell` objects (test F1 in points
  and the paired test-set bootstrap replicates, averaged over outer splits for CAL500);
* ``runs_table2.jsonl`` (run, config hash, config, metrics, best) and ``run_extras_table2.jsonl`` (the rest of each
  record, bootstrap replicates included) are written with the report, so that ``--report-only`` rebuilds Table 2 in a
  clone without run directories (:func:`committed`).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from sparselab.engine import record

from .claims import Cell
from ..index import write_configs
from ..records import committed_records, selection, write_extras

CONFIGS = "runs_table2.jsonl"
EXTRAS = "run_extras_table2.jsonl"
# record fields kept beside the configs (no host, pid or traceback)
KEEP = ("status", "experiment", "git_commit", "versions", "python", "device", "threads", "cpu_count", "started_at",
        "finished_at", "wall_time_s", "extra")
METRICS = ("micro_f1", "macro_f1")


def replicates(rec: Mapping[str, Any], metric: str) -> list[float] | None:
    """The record's bootstrap replicates of ``metric`` in points (mean over outer splits); None when not recorded."""
    boots = [p.get("bootstrap") for p in rec.get("extra", {}).get("per_split", [])]
    if not boots or any(b is None for b in boots):
        return None
    return list(100 * np.mean([b[metric] for b in boots], axis=0))


def cells(by: Mapping[tuple[str, str], dict], dataset: str, losses: Sequence[str]) -> list[Cell]:
    """One cell per metric for a dataset that has every loss (else [])."""
    if not all((dataset, l) in by for l in losses):
        return []
    out = []
    for metric in METRICS:
        reps = {l: replicates(by[(dataset, l)], metric) for l in losses}
        out.append(Cell(f"{dataset} {metric.replace('_f1', '')}", {l: 100 * by[(dataset, l)]["metrics"][metric]
                                                                     for l in losses},
                        None if any(v is None for v in reps.values()) else reps))
    return out


def write_committed(out: Path, recs: Sequence[dict], runs) -> None:
    """:data:`CONFIGS` and :data:`EXTRAS` (same order, machine paths scrubbed)."""
    write_configs(out, recs, runs, name=CONFIGS)
    write_extras(Path(out) / EXTRAS, recs, runs, KEEP)


def committed(out: Path, runs) -> list[dict]:
    """The Table 2 records committed in ``out`` (:func:`~..records.committed_records`), only the plan's jobs inside
    :func:`~..records.plan_only`."""
    recs = committed_records(Path(out) / CONFIGS, Path(out) / EXTRAS, runs)
    sel = selection()
    return [r for r in recs if sel is None or record.identity(r) in sel.ids]
