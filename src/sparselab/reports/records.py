"""Where run records live and how reports name paths.

Reports never print absolute paths of the machine that ran them: a run directory is named
relative to the runs root, a dataset file relative to the data root (``<data root>/...``).
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Callable

from sparselab.engine import record

PROJECT = Path(__file__).resolve().parents[3]


def runs_root() -> Path:
    """``$SPARSELAB_RUNS``, else ``<project>/runs``."""
    return Path(os.environ.get("SPARSELAB_RUNS", PROJECT / "runs"))


def load(runs: str | os.PathLike, profile: str, experiment: str,
         where: Callable[[dict[str, Any]], bool] | None = None) -> list[dict[str, Any]]:
    """Finished run records of one experiment and profile, sorted by run directory."""
    return record.find(runs, profile, experiment, status="finished", where=where)


def relative_run(run_dir: str | os.PathLike, runs: str | os.PathLike) -> str:
    """A run directory named relative to the runs root (its last three parts if it lies elsewhere)."""
    p = Path(run_dir)
    try:
        return p.relative_to(Path(runs)).as_posix()
    except ValueError:
        return "/".join(p.parts[-3:]) if p.is_absolute() else p.as_posix()


def placeholders(runs: str | os.PathLike | None = None) -> list[tuple[str, str]]:
    """(absolute path, placeholder) pairs, longest path first, for :func:`scrub`."""
    from sparselab.data.root import data_root

    pairs = [(str(PROJECT), "<project>"), (str(data_root()), "<data root>")]
    if runs is not None:
        pairs.append((str(Path(runs)), "<runs root>"))
    pairs.append((str(Path.home()), "~"))
    return sorted({(a, b) for a, b in pairs if len(a) > 1}, key=lambda ab: -len(ab[0]))


def scrub(text: str, runs: str | os.PathLike | None = None, html: bool = False) -> str:
    """Replace the machine's absolute paths (runs root, data root, project, home) by placeholders
    (``html``: HTML-escaped, so ``<runs root>`` in a page is text, not a tag)."""
    from html import escape

    for path, name in placeholders(runs):
        text = text.replace(path, escape(name) if html else name)
    return text


def data_relative(text: str, root: str | os.PathLike) -> str:
    """A data-layer message with the data root named ``<data root>`` instead of its absolute path.

    ``expected X under data root /abs`` becomes ``expected <data root>/X``.
    """
    root = str(root)
    text = re.sub(r"expected (.+?) under data root " + re.escape(root), r"expected <data root>/\1", text)
    return text.replace(root, "<data root>")
