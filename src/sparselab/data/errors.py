"""Errors the data layer raises: each names the file (and line) or the fix."""
from __future__ import annotations

from pathlib import Path


class DataFormatError(ValueError):
    """A malformed line in a data file; the message starts with ``file:line``."""

    def __init__(self, path: str | Path, lineno: int, problem: str):
        self.path, self.lineno, self.problem = str(path), lineno, problem
        super().__init__(f"{path}:{lineno}: {problem}")


class MissingDataError(FileNotFoundError):
    """A dataset is not under the data root; the message names the fetch command."""

    def __init__(self, name: str, expected: str | Path, root: str | Path):
        self.name = name
        super().__init__(
            f"dataset '{name}' not found: expected {expected} under data root {root}. "
            f"Fetch it with `python -m sparselab.data fetch {name}` "
            f"(or point SPARSELAB_DATA / data.root at a copy)."
        )


class DataUnavailableError(MissingDataError):
    """A data set a run needs is not under the data root and could not be fetched (e.g. no network)."""

    def __init__(self, name: str, root: str | Path, profile: str, reason: str):
        self.name = name
        FileNotFoundError.__init__(
            self, f"data set '{name}' is not under {root} and could not be downloaded ({reason}); with network run "
                  f"`python -m sparselab.data fetch {name} --root {root}` (or `make data PROFILE={profile}`), or point "
                  f"SPARSELAB_DATA at a copy")
