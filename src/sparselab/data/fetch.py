"""Download a registered dataset into ``<root>/<name>/`` through pooch, checking every file's sha256.

pooch does the downloading: one ``pooch.Pooch`` per data set holds the registry's files and hashes, downloads each
missing file to a temporary file beside its destination, checks the hash, renames it into place or deletes it, and
retries (``retries``); ``pooch.Untar`` / ``pooch.Unzip`` take members out of archives. ``base_url=`` (or
``SPARSELAB_FETCH_BASE_URL``) is pooch's base URL: a *mirror of a data root*, file ``<name>/<path>`` fetched from
``<base>/<name>/<path>`` as stored on disk. What is ours, because pooch does not do it:

* resuming a dropped download (:class:`~sparselab.data.download.ResumingDownloader`, pooch always starts over);
* **lock mode** (trust on first download): a registry row whose ``sha256`` (or ``archive_sha256``) is ``lock`` has
  no checksum that could be known when the registry was written; the first download records it in
  ``<root>/<name>/sha256.lock.json`` and later downloads must match it (pooch knows a hash or none);
* ``gzip=`` rows: upstream serves the uncompressed file, we keep ``gzip -9n`` of it (pooch only decompresses);
* a member's own sha256 after extraction, moving it to its registered path, and removing the archive;
* refusing a read-only root, and a file lock so that two processes never write one data set at once.
"""
from __future__ import annotations

import contextlib
import gzip
import json
import os
import re
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .check import Dataset, FileSpec, get_dataset, sha256_file, verify_file
from .download import ResumingDownloader

BASE_URL_ENV = "SPARSELAB_FETCH_BASE_URL"
LOCK = "lock"                      # the registry's sha256 value for "record on first download"
LOCK_NAME = "sha256.lock.json"
STAGING = ".download"              # <root>/<name>/.download/: archives and uncompressed upstream files, removed after


class FetchError(RuntimeError):
    """A download failed (network, HTTP error, unwritable root); the message names the URL."""


class ChecksumMismatchError(FetchError):
    def __init__(self, path: str | Path, url: str, expected: str, actual: str):
        self.path, self.url, self.expected, self.actual = str(path), url, expected, actual
        super().__init__(f"checksum mismatch for {path} (from {url}): expected sha256 {expected}, got {actual}; "
                         f"the download was deleted")


class NotObtainableError(FetchError):
    """The registry has no downloadable files for this dataset."""


@dataclass
class FetchResult:
    name: str
    root: Path
    downloaded: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


class Lock:
    """``<root>/<name>/sha256.lock.json``: ``{"files": {path: sha256}, "archives": {url: sha256}}``."""

    def __init__(self, path: Path):
        self.path = path
        data = json.loads(path.read_text()) if path.is_file() else {}
        self.files: dict[str, str] = dict(data.get("files", {}))
        self.archives: dict[str, str] = dict(data.get("archives", {}))

    def save(self) -> None:
        data = {"note": "sha256 recorded by `python -m sparselab.data fetch` on first download (trust on first use); "
                        "later downloads are verified against it. Delete an entry to accept a new upstream version.",
                "files": dict(sorted(self.files.items())), "archives": dict(sorted(self.archives.items()))}
        tmp = self.path.with_name(f".{self.path.name}.part")
        tmp.write_text(json.dumps(data, indent=1) + "\n")
        os.replace(tmp, self.path)


def locked(spec: FileSpec) -> bool:
    return spec.sha256 == LOCK


def _stderr(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _known(sha: str | None) -> str | None:
    return f"sha256:{sha}" if sha and sha not in (LOCK, "none") else None


def _present(dest: Path, spec: FileSpec, lock: Lock) -> bool:
    """True if ``dest`` is there and verified (against the registry, or for a lock-mode file its lock entry)."""
    if not locked(spec):
        return verify_file(dest, spec) is None
    want = lock.files.get(spec.path)
    return want is not None and dest.is_file() and sha256_file(dest) == want


def _refuse_read_only(target: Path) -> None:
    """Refuse to write into a folder marked read-only (the shared data copy), even as root (who could)."""
    p = target
    while not p.exists() and p != p.parent:
        p = p.parent
    if p.is_dir() and not p.stat().st_mode & 0o222:
        raise FetchError(f"{p} is read-only (mode {oct(p.stat().st_mode & 0o777)}); fetch into a writable root with "
                         f"--root DIR or SPARSELAB_DATA")


class _Fetcher:
    """One data set's downloads: a pooch registry built on the fly, one entry per file, archive or raw upstream file."""

    def __init__(self, name: str, root: Path, base_url: str | None, timeout: float, retries: int, progress,
                 progressbar: bool):
        import pooch

        self.name, self.dir, self.base_url, self.timeout = name, root / name, base_url, timeout
        self.progress, self.progressbar = progress, progressbar
        self.lock = Lock(self.dir / LOCK_NAME)
        mirror = f"{base_url.rstrip('/')}/{name}/" if base_url else "about:blank/"  # upstream rows name their urls
        self.pup = pooch.Pooch(path=self.dir, base_url=mirror, registry={}, urls={}, retry_if_failed=retries)

    def get(self, fname: str, url: str | None, sha: str | None, processor=None):
        """pooch fetches ``fname`` (under the data set's folder) from ``url`` (None: the mirror) with hash ``sha``."""
        import requests

        self.pup.registry[fname] = _known(sha)
        if url:
            self.pup.urls[fname] = url
        where = self.pup.get_url(fname)
        self.progress(f"  downloading {fname} <- {where}")
        dest = self.dir / fname
        downloader = ResumingDownloader(dest.with_name(f".{dest.name}.part"), self.timeout, self.progressbar)
        try:
            return self.pup.fetch(fname, processor=processor, downloader=downloader)
        except ValueError as e:                    # pooch's hash mismatch (it deleted the download)
            m = re.search(r"expected (?:sha256:)?(\w+) but got (\w+)", str(e))
            if not m:
                raise
            raise ChecksumMismatchError(dest, where, m.group(1), m.group(2)) from None
        except requests.exceptions.HTTPError as e:
            raise FetchError(f"download failed: {where}: HTTP {e.response.status_code} {e.response.reason}") from None
        except requests.exceptions.RequestException as e:
            raise FetchError(f"download failed: {where}: {type(e).__name__}. Are you offline? Set {BASE_URL_ENV} to a "
                             f"reachable mirror of the data root, or copy the files in by hand and run "
                             f"`python -m sparselab.data check {self.name}`.") from None

    def plain(self, spec: FileSpec) -> None:
        if locked(spec):
            self.get(spec.path, None if self.base_url else spec.url, self.lock.files.get(spec.path))
            self._record(spec.path, sha256_file(self.dir / spec.path))
        elif spec.regzipped and self.base_url:    # a mirror's gzip may come from another tool: check the content
            url = f"{self.base_url.rstrip('/')}/{self.name}/{spec.path}"
            staged = Path(self.get(f"{STAGING}/{spec.path}", url, None))
            try:
                inner = sha256_file(staged, decompress=True) if sha256_file(staged) != spec.sha256 else spec.gzip_sha256
            except (OSError, EOFError):            # not gzip at all
                inner = sha256_file(staged)
            self._install(staged, spec, str(spec.gzip_sha256), str(inner), url)
        elif spec.regzipped:                       # upstream serves it uncompressed: pooch checks that, we gzip it
            raw = Path(self.get(f"{STAGING}/{spec.path.removesuffix('.gz')}", spec.url, spec.gzip_sha256))
            tmp = raw.with_name(raw.name + ".gz")
            with open(tmp, "wb") as out:
                with gzip.GzipFile(filename="", mode="wb", fileobj=out, mtime=0) as gz, open(raw, "rb") as src:
                    shutil.copyfileobj(src, gz)
            self._install(tmp, spec)
        else:
            self.get(spec.path, None if self.base_url else spec.url, spec.sha256)

    def archive(self, url: str, specs: list[FileSpec]) -> None:
        """pooch fetches the archive (hash: the registry's, the lock's or none) and extracts the members."""
        import pooch

        kind = pooch.Unzip if url.endswith((".zip", ".whl")) else pooch.Untar
        fname = f"{STAGING}/{url.rsplit('/', 1)[-1]}"
        want = self.lock.archives.get(url) if specs[0].archive_sha256 == LOCK else specs[0].archive_sha256
        files = self.get(fname, url, want, kind(members=[str(s.member) for s in specs]))
        archive = self.dir / fname
        if specs[0].archive_sha256 == LOCK and url not in self.lock.archives:
            self.lock.archives[url] = sha256_file(archive)
            self.lock.save()
        try:
            for spec in specs:
                member = next((Path(f) for f in files if Path(f).as_posix().endswith("/" + str(spec.member))), None)
                if member is None:
                    raise FetchError(f"{spec.member} not found in archive {url}")
                expected = self.lock.files.get(spec.path) if locked(spec) else spec.sha256
                actual = sha256_file(member)
                self._install(member, spec, expected, actual, f"{url}#{spec.member}")
                if locked(spec):
                    self._record(spec.path, actual)
        finally:
            archive.unlink(missing_ok=True)
            shutil.rmtree(f"{archive}{kind().suffix}", ignore_errors=True)

    def _install(self, src: Path, spec: FileSpec, expected: str | None = None, actual: str | None = None,
                 url: str = "") -> None:
        """Move a checked file to its registered path, or delete it and raise when ``actual`` is not ``expected``."""
        if expected is not None and actual != expected:
            src.unlink(missing_ok=True)
            raise ChecksumMismatchError(self.dir / spec.path, url or spec.url, expected, str(actual))
        dest = self.dir / spec.path
        dest.parent.mkdir(parents=True, exist_ok=True)
        os.replace(src, dest)

    def _record(self, path: str, digest: str) -> None:
        if path not in self.lock.files:
            self.lock.files[path] = digest
            self.lock.save()
            self.progress(f"  recorded sha256 {digest} of {path} in {LOCK_NAME} (first download)")


def _fetch_files(ds: Dataset, root: Path, base_url, timeout, retries, progress, progressbar, result) -> None:
    name = ds.name
    f = _Fetcher(name, root, base_url, timeout, retries, progress,
                 sys.stderr.isatty() if progressbar is None else progressbar)
    todo = [spec for spec in ds.files if not _present(root / name / spec.path, spec, f.lock)]
    result.skipped = [spec.path for spec in ds.files if spec not in todo]
    if result.skipped:
        progress(f"{name}: {len(result.skipped)} file(s) already present and verified, skipped")
    archives: dict[str, list[FileSpec]] = {}
    for spec in todo:
        if spec.member and not base_url:
            archives.setdefault(spec.url, []).append(spec)
        else:
            f.plain(spec)
            result.downloaded.append(spec.path)
    for url, specs in archives.items():
        f.archive(url, specs)
        result.downloaded += [s.path for s in specs]
    shutil.rmtree(root / name / STAGING, ignore_errors=True)


def fetch(name: str, root: str | os.PathLike | None = None, base_url: str | None = None, timeout: float = 60.0,
          progress: Callable[[str], None] | None = _stderr, retries: int = 2,
          progressbar: bool | None = None) -> FetchResult:
    """Download dataset ``name`` into ``<root>/<name>/`` (root default: :func:`sparselab.locations.data_root`).
    Files already there and verified are skipped; ``progressbar`` (default: stderr is a terminal) draws tqdm bars."""
    import pooch
    from filelock import FileLock

    from sparselab.locations import data_root

    progress = progress or (lambda msg: None)
    pooch.get_logger().setLevel("WARNING")          # we print our own progress lines
    ds: Dataset = get_dataset(name)
    if not ds.files:
        raise NotObtainableError(f"dataset '{name}' has no downloadable files (status: {ds.status}; missing: "
                                 f"{'; '.join(ds.missing) or 'everything'}). {ds.note}")
    root = Path(root) if root is not None else data_root()
    base_url = base_url if base_url is not None else os.environ.get(BASE_URL_ENV) or None
    result = FetchResult(name=name, root=root)
    _refuse_read_only(root / name)
    made = [p for p in (root, root / name) if not p.exists()]
    try:
        (root / name).mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise FetchError(f"cannot create {root / name}: {e} (choose a writable root with --root / SPARSELAB_DATA)") from e
    lockfile = root / f".{name}.fetch.lock"
    try:
        with FileLock(str(lockfile)):   # a second process waits, then finds the files there
            _fetch_files(ds, root, base_url, timeout, retries, progress, progressbar, result)
    except BaseException:
        # a failed first fetch leaves no empty folders behind; a part of a dropped download stays, to be resumed
        empty = [Path(d) for d, _, _ in os.walk(root / name, topdown=False)][:-1]   # pooch made these folders
        for p in [*empty, *[lockfile] * bool(made), *made[::-1]]:
            with contextlib.suppress(OSError):
                p.rmdir() if p.is_dir() else p.unlink()
        raise
    progress(f"{name}: {len(result.downloaded)} downloaded, {len(result.skipped)} already present -> {root / name}")
    return result
