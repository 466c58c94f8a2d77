"""Where datasets live: ``SPARSELAB_DATA``, else the ``data.root`` key, else a default.

The default is ``../shared/data`` beside the project checkout when it exists
(the layout of CI and our dev machines), else ``~/.cache/sparselab/data``.
"""
from __future__ import annotations

import os
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[3]


def default_root() -> Path:
    shared = PROJECT_ROOT.parent / "shared" / "data"
    if shared.is_dir():
        return shared
    return Path.home() / ".cache" / "sparselab" / "data"


def data_root(configured: str | os.PathLike | None = None) -> Path:
    """Resolve the data root. The env var wins so one export redirects every run."""
    env = os.environ.get("SPARSELAB_DATA")
    if env:
        return Path(env).expanduser()
    if configured:
        return Path(configured).expanduser()
    return default_root()
