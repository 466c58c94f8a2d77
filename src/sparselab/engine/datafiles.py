"""What a job read from the data root, so that a finished job is tied to the data it ran on.

A task opens its files through many libraries (gzip, pandas, scipy's ARFF reader, ``datasets``), so
the files are not listed by hand per task: a Python audit hook (``sys.addaudithook``, the interpreter's
own record of every ``open``) collects the files opened for reading under the data root while the job
runs. Each is stored in the record as its path relative to the data root, its size and its sha256.
Hashes are computed once per file version and cached in ``<runs>/.cache/data_sha256.json`` (keyed by
path, size and mtime), so a sweep hashes each data set once.

On resume, :func:`changed` compares a finished record with the files there now; the engine refuses
to reuse a result whose data changed (``sparselab.engine.execute``).
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from filelock import FileLock

from .record import write_text_atomically

_ACTIVE: list[tuple[str, set[str]]] = []  # (root prefix, paths opened under it) while a job runs
_HOOKED = False


def _hook(event: str, args: tuple) -> None:
    if event != "open" or not _ACTIVE or not args:
        return
    path, mode = args[0], (args[1] if len(args) > 1 else "r")
    if isinstance(path, int) or (isinstance(mode, str) and any(c in mode for c in "wax+")):
        return
    flags = args[2] if len(args) > 2 and isinstance(args[2], int) else 0  # os.open: (path, None, flags)
    if (isinstance(mode, int) and mode & (os.O_WRONLY | os.O_RDWR)) or flags & (os.O_WRONLY | os.O_RDWR):
        return
    try:
        p = os.path.abspath(os.fsdecode(path))
    except (TypeError, ValueError):
        return
    for prefix, seen in _ACTIVE:
        if p.startswith(prefix):
            seen.add(p)


@contextmanager
def track(root: str | os.PathLike) -> Iterator[set[str]]:
    """Collect the absolute paths of the files opened for reading under ``root`` inside the block."""
    global _HOOKED
    if not _HOOKED:
        sys.addaudithook(_hook)  # cannot be removed: it does nothing outside a `track` block
        _HOOKED = True
    seen: set[str] = set()
    entry = (os.path.abspath(root).rstrip(os.sep) + os.sep, seen)
    _ACTIVE.append(entry)
    try:
        yield seen
    finally:
        _ACTIVE.remove(entry)


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


class HashCache:
    """sha256 per (path, size, mtime), shared by the jobs of a runs folder (a file lock guards writes)."""

    def __init__(self, cache_file: str | os.PathLike):
        self.file = Path(cache_file)
        self.lock = FileLock(str(self.file) + ".lock")

    def _read(self) -> dict[str, Any]:
        try:
            return json.loads(self.file.read_text())
        except (OSError, json.JSONDecodeError):
            return {}

    def sha256(self, path: Path) -> str:
        st = path.stat()
        key, stamp = str(path), [st.st_size, st.st_mtime_ns]
        hit = self._read().get(key)
        if hit and hit.get("stamp") == stamp:
            return hit["sha256"]
        digest = _sha256(path)
        self.file.parent.mkdir(parents=True, exist_ok=True)
        with self.lock:
            data = self._read()
            data[key] = {"stamp": stamp, "sha256": digest}
            write_text_atomically(self.file, json.dumps(data, indent=0, sort_keys=True))
        return digest


def fingerprint(paths: set[str], root: str | os.PathLike, cache: HashCache) -> dict[str, dict[str, Any]]:
    """``{path relative to the data root: {size, sha256}}`` of the files that exist (sorted)."""
    root = Path(root).resolve()
    out = {}
    for p in sorted(paths):
        path = Path(p)
        if path.is_file():
            out[path.resolve().relative_to(root).as_posix()] = {"size": path.stat().st_size,
                                                                "sha256": cache.sha256(path)}
    return out


def changed(recorded: dict[str, dict[str, Any]], root: str | os.PathLike, cache: HashCache) -> str | None:
    """The first recorded data file that is missing or different now, as a message; None when all match."""
    for rel, want in sorted(recorded.items()):
        path = Path(root) / rel
        if not path.is_file():
            return f"<data root>/{rel} is gone"
        if path.stat().st_size != want.get("size"):
            return f"<data root>/{rel} changed (size {want.get('size')} -> {path.stat().st_size} bytes)"
        now = cache.sha256(path)
        if now != want.get("sha256"):
            return f"<data root>/{rel} changed (sha256 {str(want.get('sha256'))[:12]}… -> {now[:12]}…)"
    return None
