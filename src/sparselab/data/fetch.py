"""Download a registered dataset into the data root, verifying every file's sha256.

Files are streamed (urllib only) into a temporary ``.part`` file beside the destination and atomically renamed
into place once their checksum matches; on a mismatch the temporary file is deleted and
:class:`ChecksumMismatchError` (with ``expected`` / ``actual``) is raised. Files already present with the right
checksum are skipped, so an interrupted fetch can simply be re-run.

**Lock-file mode** (trust on first download). A registry row whose ``sha256`` is ``lock`` (and an archive option
``archive_sha256=lock``) has no checksum that could be known when the registry was written (the paper's MT
training archives, which no copy reachable here holds). ``fetch`` then records the sha256 of each such file (and
archive) on its first download in ``<root>/<name>/sha256.lock.json`` (:data:`LOCK_NAME`) and verifies against
that lock from then on: a later download that differs raises :class:`ChecksumMismatchError`, and a present
file whose content no longer matches its lock entry is downloaded again. Delete the lock (or its entry) to
accept a new upstream version on purpose.

URL override: ``base_url=`` or the ``SPARSELAB_FETCH_BASE_URL`` environment variable points at a *mirror of a data
root*: file ``<root>/<name>/<path>`` is then fetched from ``<base>/<name>/<path>`` exactly as stored on disk (no
archive extraction, no local re-gzip). E.g. ``python -m http.server -d /work/shared/data`` serves such a mirror.
"""
from __future__ import annotations

import contextlib
import gzip
import hashlib
import os
import shutil
import sys
import tarfile
import tempfile
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Callable, Iterator

from .check import CHUNK, Dataset, FileSpec, get_dataset, sha256_file, verify_file

BASE_URL_ENV = "SPARSELAB_FETCH_BASE_URL"
LOCK = "lock"                      # the registry's sha256 value for "record on first download"
LOCK_NAME = "sha256.lock.json"
USER_AGENT = "sparselab-data-fetch/0.1 (+urllib)"


class FetchError(RuntimeError):
    """A download failed (network, HTTP error, unwritable root); the message names the URL."""


class ChecksumMismatchError(FetchError):
    def __init__(self, path: str | Path, url: str, expected: str, actual: str):
        self.path, self.url, self.expected, self.actual = str(path), url, expected, actual
        super().__init__(
            f"checksum mismatch for {path} (from {url}): expected sha256 {expected}, got {actual}; "
            f"the download was deleted"
        )


class NotObtainableError(FetchError):
    """The registry has no downloadable files for this dataset."""


@dataclass
class FetchResult:
    name: str
    root: Path
    downloaded: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


def _stderr(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _open_url(url: str, timeout: float):
    req = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    try:
        return urllib.request.urlopen(req, timeout=timeout)
    except urllib.error.HTTPError as e:
        raise FetchError(f"download failed: {url}: HTTP {e.code} {e.reason}") from e
    except (urllib.error.URLError, OSError) as e:
        reason = getattr(e, "reason", e)
        raise FetchError(
            f"download failed: {url}: {reason}. Are you offline? Set {BASE_URL_ENV} to a reachable mirror of the "
            f"data root, or copy the files in by hand and run `python -m sparselab.data check`."
        ) from e


def _stream(src: IO[bytes], dst: IO[bytes], url: str) -> str:
    h = hashlib.sha256()
    try:
        for block in iter(lambda: src.read(CHUNK), b""):
            h.update(block)
            dst.write(block)
    except (urllib.error.URLError, OSError) as e:
        raise FetchError(f"download failed: {url}: connection lost: {e}") from e
    return h.hexdigest()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _tempfile(dest: Path) -> tuple[IO[bytes], Path]:
    f = tempfile.NamedTemporaryFile(dir=dest.parent, prefix=f".{dest.name}.", suffix=".part", delete=False)
    os.chmod(f.name, 0o666 & ~_umask())  # mkstemp makes 0600; give the final file ordinary permissions
    return f, Path(f.name)


def _refuse_read_only(target: Path) -> None:
    """Refuse to write into a directory marked read-only (e.g. the shared data copy), even when running as root."""
    p = target
    while not p.exists() and p != p.parent:
        p = p.parent
    if p.is_dir() and not p.stat().st_mode & 0o222:
        raise FetchError(
            f"{p} is read-only (mode {oct(p.stat().st_mode & 0o777)}); fetch into a writable root with "
            f"--root DIR or SPARSELAB_DATA"
        )


def _download_to(url: str, dest: Path, timeout: float) -> tuple[Path, str]:
    """Stream ``url`` into a temp file beside ``dest``; return (temp path, sha256). Caller renames or deletes."""
    f, tmp = _tempfile(dest)
    try:
        with f, _open_url(url, timeout) as resp:
            digest = _stream(resp, f, url)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return tmp, digest


def _fetch_plain(url: str, dest: Path, expected: str, timeout: float, gzip_sha256: str | None = None) -> None:
    tmp, actual = _download_to(url, dest, timeout)
    if actual != expected and gzip_sha256 is not None:
        # a mirror may hold our own re-gzipped copy: accept it if the decompressed content matches
        try:
            if sha256_file(tmp, decompress=True) == gzip_sha256:
                actual = expected
        except (OSError, EOFError):
            pass
    if actual != expected:
        tmp.unlink(missing_ok=True)
        raise ChecksumMismatchError(dest, url, expected, actual)
    os.replace(tmp, dest)


def _fetch_regzip(url: str, dest: Path, spec: FileSpec, timeout: float) -> None:
    """Upstream serves the uncompressed file; verify it, then gzip -9 (no name, mtime 0) into ``dest``."""
    raw, actual = _download_to(url, dest, timeout)
    try:
        if actual != spec.gzip_sha256:
            raise ChecksumMismatchError(dest, url, str(spec.gzip_sha256), actual)
        f, tmp = _tempfile(dest)
        try:
            with f, open(raw, "rb") as src, gzip.GzipFile(filename="", mode="wb", fileobj=f, compresslevel=9, mtime=0) as gz:
                shutil.copyfileobj(src, gz, CHUNK)
            os.replace(tmp, dest)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    finally:
        raw.unlink(missing_ok=True)


@contextlib.contextmanager
def _open_member(archive: Path, member: str) -> Iterator[IO[bytes]]:
    if zipfile.is_zipfile(archive):
        with zipfile.ZipFile(archive) as zf:
            try:
                fobj = zf.open(member)
            except KeyError:
                raise FetchError(f"{member} not found in archive {archive.name}") from None
            with fobj:
                yield fobj
        return
    with tarfile.open(archive) as tf:
        try:
            fobj = tf.extractfile(member)
        except KeyError:
            fobj = None
        if fobj is None:
            raise FetchError(f"{member} not found (or not a regular file) in archive {archive.name}")
        with fobj:
            yield fobj


def _fetch_archive(url: str, specs: list[tuple[FileSpec, Path]], timeout: float, progress,
                   lock: Lock | None = None) -> list[str]:
    first_dest = specs[0][1]
    archive_sha = specs[0][0].archive_sha256
    progress(f"  downloading archive {url}")
    archive, actual = _download_to(url, first_dest, timeout)
    done = []
    new_lock = False
    try:
        if archive_sha == LOCK:
            archive_sha = lock.archives.get(url) if lock is not None else None
            if archive_sha is None and lock is not None:
                lock.archives[url] = actual
                new_lock = True
        if archive_sha and actual != archive_sha:
            raise ChecksumMismatchError(url.rsplit("/", 1)[-1], url, archive_sha, actual)
        for spec, dest in specs:
            f, tmp = _tempfile(dest)
            try:
                with f, _open_member(archive, str(spec.member)) as src:
                    digest = _stream(src, f, f"{url}#{spec.member}")
                expected = spec.sha256
                if locked(spec):
                    expected = lock.files.get(spec.path, digest) if lock is not None else digest
                if digest != expected:
                    raise ChecksumMismatchError(dest, f"{url}#{spec.member}", expected, digest)
                os.replace(tmp, dest)
                if locked(spec) and lock is not None and spec.path not in lock.files:
                    lock.files[spec.path] = digest
                    new_lock = True
                    progress(f"  recorded sha256 {digest} of {spec.path} in {lock.path.name} (first download)")
            except BaseException:
                tmp.unlink(missing_ok=True)
                raise
            done.append(spec.path)
    finally:
        archive.unlink(missing_ok=True)
        if new_lock and lock is not None:
            lock.save()
    return done


class Lock:
    """``<root>/<name>/sha256.lock.json``: ``{"files": {path: sha256}, "archives": {url: sha256}}``."""

    def __init__(self, path: Path):
        self.path = path
        self.files: dict[str, str] = {}
        self.archives: dict[str, str] = {}
        if path.is_file():
            import json

            data = json.loads(path.read_text())
            self.files, self.archives = dict(data.get("files", {})), dict(data.get("archives", {}))

    def save(self) -> None:
        import json

        data = {"note": "sha256 recorded by `python -m sparselab.data fetch` on first download (trust on first use); "
                        "later downloads are verified against it. Delete an entry to accept a new upstream version.",
                "files": dict(sorted(self.files.items())), "archives": dict(sorted(self.archives.items()))}
        tmp = self.path.with_name(f".{self.path.name}.part")
        tmp.write_text(json.dumps(data, indent=1) + "\n")
        os.replace(tmp, self.path)


def locked(spec: FileSpec) -> bool:
    return spec.sha256 == LOCK


def _present(dest: Path, spec: FileSpec, lock: Lock) -> bool:
    """True if ``dest`` is there and verified (against the registry, or for a lock-mode file its lock entry)."""
    if not locked(spec):
        return verify_file(dest, spec) is None
    want = lock.files.get(spec.path)
    return want is not None and dest.is_file() and sha256_file(dest) == want


def _fetch_locked(url: str, dest: Path, spec: FileSpec, lock: Lock, timeout: float, progress) -> None:
    tmp, actual = _download_to(url, dest, timeout)
    want = lock.files.get(spec.path)
    if want is not None and actual != want:
        tmp.unlink(missing_ok=True)
        raise ChecksumMismatchError(dest, url, want, actual)
    os.replace(tmp, dest)
    if want is None:
        lock.files[spec.path] = actual
        lock.save()
        progress(f"  recorded sha256 {actual} of {spec.path} in {lock.path.name} (first download)")


def _quote(path: str) -> str:
    return urllib.parse.quote(path, safe="/")


def fetch(name: str, root: str | os.PathLike | None = None, base_url: str | None = None, timeout: float = 60.0,
          progress: Callable[[str], None] | None = _stderr) -> FetchResult:
    """Download dataset ``name`` into ``<root>/<name>/`` (root default: :func:`sparselab.data.root.data_root`)."""
    from .root import data_root

    progress = progress or (lambda msg: None)
    ds: Dataset = get_dataset(name)
    if not ds.files:
        missing = "; ".join(ds.missing) or "everything"
        raise NotObtainableError(
            f"dataset '{name}' has no downloadable files (status: {ds.status}; missing: {missing}). {ds.note}"
        )
    root = Path(root) if root is not None else data_root()
    base_url = base_url if base_url is not None else os.environ.get(BASE_URL_ENV) or None
    result = FetchResult(name=name, root=root)
    archives: dict[str, list[tuple[FileSpec, Path]]] = {}
    todo = []
    lock = Lock(root / name / LOCK_NAME)
    for spec in ds.files:
        dest = root / name / spec.path
        if _present(dest, spec, lock):
            result.skipped.append(spec.path)
            continue
        _refuse_read_only(dest.parent)
        try:
            dest.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise FetchError(f"cannot create {dest.parent}: {e} (choose a writable root with --root / SPARSELAB_DATA)") from e
        todo.append((spec, dest))
    if result.skipped:
        progress(f"{name}: {len(result.skipped)} file(s) already present and verified, skipped")
    for spec, dest in todo:
        if base_url:
            url = f"{base_url.rstrip('/')}/{_quote(name)}/{_quote(spec.path)}"
            progress(f"  downloading {spec.path} <- {url}")
            if locked(spec):
                _fetch_locked(url, dest, spec, lock, timeout, progress)
            else:
                _fetch_plain(url, dest, spec.sha256, timeout, spec.gzip_sha256)
        elif spec.member:
            archives.setdefault(spec.url, []).append((spec, dest))
            continue
        elif spec.gzip_sha256:
            progress(f"  downloading {spec.path} <- {spec.url} (gzipped locally)")
            _fetch_regzip(spec.url, dest, spec, timeout)
        elif locked(spec):
            progress(f"  downloading {spec.path} <- {spec.url} (sha256 from {LOCK_NAME})")
            _fetch_locked(spec.url, dest, spec, lock, timeout, progress)
        else:
            progress(f"  downloading {spec.path} <- {spec.url}")
            _fetch_plain(spec.url, dest, spec.sha256, timeout)
        result.downloaded.append(spec.path)
    for url, specs in archives.items():
        result.downloaded += _fetch_archive(url, specs, timeout, progress, lock)
    progress(f"{name}: {len(result.downloaded)} downloaded, {len(result.skipped)} already present -> {root / name}")
    return result
