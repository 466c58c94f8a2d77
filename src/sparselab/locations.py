"""Where things live: the project checkout, the data root (``SPARSELAB_DATA``, else the ``data.root`` key, else a
default) and the data excerpts shipped in the package.

A leaf module at the top of the package, so the engine (which records the data files a job opened, under its data
root) and the data layer both read the data root without importing each other.

The default data root is ``../shared/data`` beside the project checkout when it exists (the layout of CI and our
dev machines), else ``~/.cache/sparselab/data``.
"""
from __future__ import annotations

import os
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]
# the smoke profile's data root (sparselab.data.excerpt builds it)
EXCERPTS = Path(__file__).resolve().parent / "data" / "excerpts"


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
