"""The two installs of sparselab: the library (``sparselab.mappings``, ``sparselab.kernels``; torch alone) and the
experiment pipeline (everything else; ``pip install "sparselab[experiments]"``).

``install()`` (run by ``sparselab/__init__.py``) puts a finder in front of ``sys.meta_path`` that, when a pipeline
module is imported while the extra's core packages are missing, raises a one-line ``ModuleNotFoundError`` naming
the extra, instead of a traceback ending in ``No module named 'omegaconf'`` several imports deep. With the extra
installed the finder only compares a module name and steps aside.
"""
from __future__ import annotations

import functools
import importlib.util
import sys

EXTRA = "experiments"
# importable without the extra: the library, and leaf modules that need the standard library only
LIBRARY = ("sparselab.mappings", "sparselab.kernels", "sparselab.errors", "sparselab._extras")
# the pipeline's core: every pipeline module imports at least one of these (directly or through sparselab.engine)
CORE = ("omegaconf", "hydra", "lightning", "wandb")


def message(module: str, missing: str) -> str:
    return (f"{module} is part of sparselab's experiment pipeline, which needs the '{EXTRA}' extra "
            f"(no module named {missing!r}): pip install \"sparselab[{EXTRA}]\"")


@functools.lru_cache(maxsize=None)
def missing_core() -> str | None:
    """The first of the pipeline's core packages that is not installed, or None."""
    for name in CORE:
        if importlib.util.find_spec(name) is None:
            return name
    return None


class _PipelineFinder:
    """A meta-path finder that finds nothing; it raises for a pipeline module when the extra is missing."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if not name.startswith("sparselab.") or name.startswith(LIBRARY):
            return None
        if name.split(".")[1] in ("mappings", "kernels"):
            return None
        missing = missing_core()
        if missing is not None:
            raise ModuleNotFoundError(message(name, missing), name=missing)
        return None


def install() -> None:
    if not any(isinstance(f, _PipelineFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _PipelineFinder())
