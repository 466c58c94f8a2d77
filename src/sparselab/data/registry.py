"""The registry: every dataset sparselab uses, and every file of it with its size, sha256 and upstream URL.

The data live beside this module (package data): ``registry_datasets.json`` (per dataset: ``status``, ``title``,
``source``, ``upstream``, ``missing``, ``note``) and ``registry_files.tsv`` (one file a line: ``dataset  path  size
sha256  url  options``). ``DATASETS[name]`` joins them, its ``files`` the dataset's TSV rows (tests register toy data
sets there). ``status``: upstream availability, ``complete``, ``partial`` (see ``missing``) or ``missing`` (no files:
``fetch`` refuses it). A row: ``path`` relative to ``<data root>/<name>/``; ``size`` in bytes (``-``: unknown);
``sha256`` of the file on disk; ``url`` the upstream download (raw.githubusercontent.com at the pinned commit for
GitHub sources); ``options`` (``-``: none), ``;``-separated:

- ``gzip=<sha256>``: upstream serves the *uncompressed* file, the registered copy is ``gzip -9n`` of it; ``fetch``
  checks the download against ``<sha256>`` and gzips it; ``check`` accepts either hash.
- ``archive_sha256=<sha256|None|lock>;member=<path>``: ``url`` is an archive (zip/wheel or tar), the file is
  ``member`` in it; ``None``: only the extracted file is checked.

``sha256`` (and ``archive_sha256``) ``lock``: not knowable when the registry was written; ``fetch`` records it on the
first download in ``<root>/<name>/sha256.lock.json`` and checks later downloads against it (the ``*_full`` training
sets of the papers and ``glove_840b_300d``).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
HEADER = "path\tsize\tsha256\turl\toptions"


def _load() -> dict[str, dict]:
    datasets = json.loads((HERE / "registry_datasets.json").read_text(encoding="utf-8"))
    rows: dict[str, list[str]] = {name: [] for name in datasets}
    for line in (HERE / "registry_files.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        name, _, row = line.partition("\t")
        rows[name].append(row)
    return {name: {**meta, "files": "\n".join(rows[name])} for name, meta in datasets.items()}


DATASETS: dict[str, dict] = _load()


class UnknownDatasetError(KeyError):
    """A name that is not in the registry; the message lists the valid names."""

    def __init__(self, name: str):
        self.name = name
        self.valid = dataset_names()
        super().__init__(name)

    def __str__(self) -> str:
        return f"unknown dataset '{self.name}'; valid names: {', '.join(self.valid)}"


@dataclass(frozen=True)
class FileSpec:
    path: str                      # relative to <root>/<dataset>/
    size: int | None
    sha256: str
    url: str
    gzip_sha256: str | None = None  # upstream is uncompressed: sha256 of the decompressed content
    archive_sha256: str | None = None
    member: str | None = None       # path inside the archive at ``url``

    @property
    def regzipped(self) -> bool:
        return self.gzip_sha256 is not None


@dataclass(frozen=True)
class Dataset:
    name: str
    status: str
    title: str
    source: str
    upstream: str
    missing: tuple[str, ...]
    note: str
    files: tuple[FileSpec, ...]

    @property
    def total_size(self) -> int | None:
        sizes = [f.size for f in self.files]
        return None if any(s is None for s in sizes) else sum(sizes)  # type: ignore[arg-type]


def parse_files(tsv: str) -> tuple[FileSpec, ...]:
    specs = []
    for lineno, line in enumerate(tsv.splitlines(), 1):
        if not line.strip() or line.startswith("#") or line == HEADER:
            continue
        cols = line.split("\t") + ([] if line.count("\t") != 3 else ["-"])
        if len(cols) != 5:
            raise ValueError(f"registry files line {lineno}: expected 5 tab-separated columns, got {len(cols)}: {line!r}")
        path, size, sha, url, opts = cols
        kw = dict(item.partition("=")[::2] for item in opts.split(";")) if opts != "-" else {}
        kw = {k: None if v in ("", "None") else v for k, v in kw.items()}
        specs.append(FileSpec(path=path, size=None if size == "-" else int(size), sha256=sha.lower(), url=url,
                              gzip_sha256=kw.get("gzip"), archive_sha256=kw.get("archive_sha256"),
                              member=kw.get("member")))
    return tuple(specs)


def dataset_names() -> list[str]:
    return list(DATASETS)


def get_dataset(name: str) -> Dataset:
    try:
        entry = DATASETS[name]
    except KeyError:
        raise UnknownDatasetError(name) from None
    return Dataset(name=name, status=entry["status"], title=entry.get("title", ""), source=entry.get("source", ""),
                   upstream=entry.get("upstream", ""), missing=tuple(entry.get("missing", ())),
                   note=entry.get("note", ""), files=parse_files(entry.get("files", "")))
