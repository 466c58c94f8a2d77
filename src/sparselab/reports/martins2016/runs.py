"""The Martins & Astudillo (2016) records: the experiments and their keys, and Table 2's committed records."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from sparselab.engine import record

from ..index import write_configs
from ..records import PROVENANCE, committed_records, load, once_per_job, selection, write_extras

PAPER = "martins2016"
LOSSES = ("logistic", "softmax", "sparsemax")
FIG_LOSSES = ("softmax", "sparsemax")
PAPER_SETS = ("scene", "emotions", "birds", "cal500", "reuters_rcv1v2")
EXTRA_SETS = ("yeast", "enron", "medical", "bibtex", "tmc2007-500")
UNAVAILABLE = "reuters_rcv1v2"
T2 = f"{PAPER}/table2_multilabel"
F3 = f"{PAPER}/figure3_label_proportions"
T3 = f"{PAPER}/table3_snli"
SNLI_RUNS = "runs_snli.jsonl"
CONFIGS = "runs_table2.jsonl"
EXTRAS = "run_extras_table2.jsonl"
KEEP = (*PROVENANCE, "extra")        # Table 2 record fields kept beside the configs
Point = tuple[int, str, float, str]      # (K, mixture, length L, loss)
Key = tuple[str, float, int]             # (variant, l2, seed)
COMMITS_PART = True     # committed() holds Table 2's records only: a clone's --report-only rebuilds that part


def load_table2(runs, profile: str, out: Path | None = None) -> tuple[list[dict], dict[tuple[str, str], dict]]:
    """The finished Table 2 records (none under ``runs``: those committed in ``out``), and by (dataset, loss)."""
    recs = load(runs, profile, T2)
    if not recs and out is not None:
        recs = once_per_job(committed(out, runs))
    return recs, {(r["config"]["data"]["name"], r["config"]["task"]["loss"]): r for r in recs}


def committed(out: Path, runs) -> list[dict]:
    """The Table 2 records committed in ``out``, only the plan's jobs inside :func:`~..records.plan_only`."""
    recs = committed_records(Path(out) / CONFIGS, Path(out) / EXTRAS, runs)
    sel = selection()
    return [r for r in recs if sel is None or record.identity(r) in sel.ids]


def write_committed(out: Path, recs: Sequence[dict], runs) -> None:
    """:data:`CONFIGS` and :data:`EXTRAS` (same order, machine paths scrubbed)."""
    write_configs(out, recs, runs, name=CONFIGS)
    write_extras(Path(out) / EXTRAS, recs, runs, KEEP)


def replicates(rec: Mapping[str, Any], metric: str) -> list[float] | None:
    """The record's bootstrap replicates of ``metric`` in points (mean over outer splits); None when not recorded."""
    boots = [p.get("bootstrap") for p in rec.get("extra", {}).get("per_split", [])]
    if not boots or any(b is None for b in boots):
        return None
    return list(100 * np.mean([b[metric] for b in boots], axis=0))


def point_of(rec: Mapping[str, Any]) -> Point:
    d = rec["config"]["data"]
    return int(d["num_labels"]), str(d["mixture"]), float(d["length"]), rec["config"]["task"]["loss"]


def snli_key(rec: Mapping[str, Any]) -> Key:
    return rec["config"]["task"]["attention"], float(rec["config"]["task"]["l2"]), int(rec["config"]["seed"])


def load_figure3(runs, profile: str) -> tuple[list[dict], dict[Point, dict]]:
    recs = load(runs, profile, F3)
    return recs, {point_of(r): r for r in recs}


def load_table3(runs, profile: str) -> tuple[list[dict], dict[Key, dict]]:
    recs = load(runs, profile, T3)
    return recs, {snli_key(r): r for r in recs}


def stored_rows(out: Path, experiment: str) -> list[dict]:
    """The committed ``runs.jsonl`` rows of one experiment (the parts a Table 2 rebuild leaves alone)."""
    path = Path(out) / "runs.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()] if path.exists() else []
    return [r for r in rows if r["config"].get("experiment_name") == experiment]
