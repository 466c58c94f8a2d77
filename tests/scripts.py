"""Load a repository script (a pipeline or a benchmark: files outside the package) as a module, for tests."""
from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

PROJECT = Path(__file__).resolve().parents[1]


def load_script(relpath: str, name: str | None = None) -> ModuleType:
    """Execute ``PROJECT/relpath`` as a fresh module named ``name`` (default: its file name)."""
    path = PROJECT / relpath
    spec = importlib.util.spec_from_file_location(name or path.stem, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod
