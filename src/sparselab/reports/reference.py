"""The papers' reported numbers, for labelled reference columns only (``SPARSELAB_REFERENCE``: another file).

A missing file or paper stops the report (:class:`ReferenceMissing`): it never blanks its paper columns silently."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import yaml

from sparselab.errors import ConfigError

PACKAGED = Path(__file__).resolve().parent / "data" / "papers.yaml"
REFERENCE = PACKAGED


class ReferenceMissing(ConfigError):
    """The papers' numbers cannot be read: the report stops rather than leave its paper columns blank."""


def reference(paper: str, path: str | os.PathLike | None = None) -> dict[str, Any]:
    """The paper's entry of ``papers.yaml``; raises :class:`ReferenceMissing` when it cannot be read."""
    p = Path(path or os.environ.get("SPARSELAB_REFERENCE") or REFERENCE)
    try:
        data = yaml.safe_load(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as err:
        why = getattr(err, "strerror", None) or " ".join(str(err).split())[:200]
        raise ReferenceMissing(f"the papers' numbers cannot be read from {p} ({why}): nothing written; "
                               "reinstall the package (pip install -e .) or set SPARSELAB_REFERENCE") from None
    entry = data.get(paper) if isinstance(data, dict) else None
    if not isinstance(entry, dict) or not entry:
        raise ReferenceMissing(f"{p} has no numbers for {paper}: nothing written; reinstall the package "
                               "(pip install -e .) or set SPARSELAB_REFERENCE")
    return entry


def table_cell(ref: dict[str, Any], table: str, row: str, column: str,
               columns: list[str] | None = None) -> float | None:
    """One value of a ``{columns, rows}`` reference table, or None; ``columns``: the order to assume."""
    t = ref.get(table, {})
    values = t.get("rows", {}).get(row)
    columns = t.get("columns", columns or [])
    if not values or column not in columns:
        return None
    v = values[columns.index(column)]
    return float(v) if v is not None else None
