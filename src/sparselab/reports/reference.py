"""The papers' reported numbers, for labelled reference columns only (never mixed with ours)."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import yaml

from .records import PROJECT

REFERENCE = PROJECT.parent / "shared" / "reference" / "papers.yaml"


def reference(paper: str, path: str | os.PathLike | None = None) -> dict[str, Any]:
    """The paper's entry of ``papers.yaml`` ({} when the file is absent)."""
    p = Path(path) if path else REFERENCE
    if not p.exists():
        return {}
    return yaml.safe_load(p.read_text()).get(paper, {}) or {}


def table_cell(ref: dict[str, Any], table: str, row: str, column: str,
               columns: list[str] | None = None) -> float | None:
    """One value of a reference table stored as ``{columns: [...], rows: {row: [...]}}`` (None if absent).

    ``columns`` is the column order to assume when the table does not state it.
    """
    t = ref.get(table, {})
    values = t.get("rows", {}).get(row)
    columns = t.get("columns", columns or [])
    if not values or column not in columns:
        return None
    v = values[columns.index(column)]
    return float(v) if v is not None else None
