"""Mulan multi-label benchmarks (ARFF + XML label header) as train/test arrays.

Files live under ``<data root>/mulan/<dir>/`` (see shared/data/mulan/PROVENANCE.md). Every set but
CAL500 has an official train/test split. **CAL500** has none: we use a fixed, seeded 5-fold
cross-validation over its 502 songs (each fold is a test split; the task averages over folds)
and the run record says so. **reuters_rcv1v2** (the paper's fifth set) is not available here:
loading it raises :class:`MissingDataError`.

**Examples without labels are removed** from every file as it is read, before any split or fold is made
("For all datasets, we removed examples without labels", Martins & Astudillo 2016): no loss has a
target for them and no test metric should score them. :attr:`MultiLabelData.removed` counts them per file.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from sparselab.data.arff import read_arff, read_mulan_labels, split_features_labels
from sparselab.errors import MissingDataError

# name -> (folder, xml, train arff, test arff or None when there is no official split)
REGISTRY: dict[str, tuple[str, str, str, str | None]] = {
    "scene": ("scene", "scene.xml", "scene-train.arff", "scene-test.arff"),
    "emotions": ("emotions", "emotions.xml", "emotions-train.arff", "emotions-test.arff"),
    "birds": ("birds", "birds.xml", "birds-train.arff", "birds-test.arff"),
    "cal500": ("cal500", "cal500.xml", "cal500.arff", None),
    "yeast": ("yeast", "yeast.xml", "yeast-train.arff", "yeast-test.arff"),
    "enron": ("enron", "enron.xml", "enron-train.arff", "enron-test.arff"),
    "medical": ("medical", "medical.xml", "medical-train.arff", "medical-test.arff"),
    "bibtex": ("bibtex", "bibtex.xml", "bibtex-train.arff", "bibtex-test.arff"),
    "tmc2007-500": ("tmc2007", "tmc2007-500.xml", "tmc2007-500-train.arff", "tmc2007-500-test.arff"),
}
# Used by the paper, not found in any public copy (PROVENANCE.md): always missing here.
UNAVAILABLE = {"reuters_rcv1v2": "mulan/rcv1v2/rcv1v2-{train,test}.arff (or LIBSVM rcv1_topics)"}
PAPER_DATASETS = ("scene", "emotions", "birds", "cal500", "reuters_rcv1v2")
EXTRA_DATASETS = ("yeast", "enron", "medical", "bibtex", "tmc2007-500")
CAL500_FOLDS = 5


@dataclass
class Split:
    X_train: np.ndarray | sp.csr_matrix
    Y_train: np.ndarray
    X_test: np.ndarray | sp.csr_matrix
    Y_test: np.ndarray
    name: str = "official"


@dataclass
class MultiLabelData:
    name: str
    splits: list[Split]
    label_names: list[str]
    n_features: int
    sparse: bool
    split_note: str
    # per file ("train", "test"; CAL500: "all"): examples without labels removed, and examples read
    removed: dict[str, int] = field(default_factory=dict)
    read: dict[str, int] = field(default_factory=dict)


def names() -> list[str]:
    return list(REGISTRY) + list(UNAVAILABLE)


def available(name: str, root: str | Path) -> bool:
    if name not in REGISTRY:
        return False
    folder, xml, train, test = REGISTRY[name]
    d = Path(root) / "mulan" / folder
    return all((d / f).is_file() or (d / f"{f}.gz").is_file() for f in (xml, train, test) if f)


def _require(path: Path, name: str, root: Path) -> Path:
    if not path.is_file() and path.with_name(path.name + ".gz").is_file():
        return path.with_name(path.name + ".gz")   # the shipped excerpts gzip scene (sparselab.data.excerpt)
    if not path.is_file():
        # the registry's data set is "mulan" (the fetch command's name), not the Mulan set ``name``
        where = path.relative_to(root) if path.is_relative_to(root) else path
        raise MissingDataError("mulan", f"{where} (Mulan set {name})", root)
    return path


def drop_unlabelled(X, Y: np.ndarray):
    """The rows of (X, Y) with at least one label."""
    keep = np.flatnonzero(np.asarray(Y).sum(axis=1) > 0)
    return X[keep], Y[keep]


def load(name: str, root: str | Path, seed: int = 0) -> MultiLabelData:
    root = Path(root)
    if name in UNAVAILABLE:
        raise MissingDataError(name, UNAVAILABLE[name], root)
    if name not in REGISTRY:
        raise ValueError(f"data.name={name!r} is not a Mulan dataset; known: {', '.join(names())}")
    folder, xml, train, test = REGISTRY[name]
    d = root / "mulan" / folder
    labels = read_mulan_labels(_require(d / xml, name, root))
    tr = read_arff(_require(d / train, name, root))
    Xtr, Ytr, feats, _ = split_features_labels(tr, labels)
    read, removed = {}, {}
    part = "train" if test is not None else "all"
    read[part] = Ytr.shape[0]
    Xtr, Ytr = drop_unlabelled(Xtr, Ytr)
    removed[part] = read[part] - Ytr.shape[0]
    if test is not None:
        te = read_arff(_require(d / test, name, root))
        Xte, Yte, _, _ = split_features_labels(te, labels)
        if Xte.shape[1] != Xtr.shape[1]:
            raise ValueError(f"{name}: train has {Xtr.shape[1]} features, test {Xte.shape[1]}")
        read["test"] = Yte.shape[0]
        Xte, Yte = drop_unlabelled(Xte, Yte)
        removed["test"] = read["test"] - Yte.shape[0]
        splits = [Split(Xtr, Ytr, Xte, Yte)]
        note = "official Mulan train/test split"
    else:
        folds = kfold_indices(Xtr.shape[0], CAL500_FOLDS, seed)
        splits = []
        for k, (a, b) in enumerate(folds):
            splits.append(Split(Xtr[a], Ytr[a], Xtr[b], Ytr[b], name=f"fold{k}"))
        note = (f"no official split: fixed {CAL500_FOLDS}-fold CV over all {Xtr.shape[0]} labelled instances "
                f"(numpy permutation, seed {seed}); test metrics are the mean over the {CAL500_FOLDS} test folds")
    return MultiLabelData(name, splits, labels, Xtr.shape[1], sp.issparse(Xtr), note, removed, read)


def kfold_indices(n: int, k: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Shuffled k-fold split: list of (train_idx, held_out_idx), deterministic in ``seed``."""
    perm = np.random.default_rng(seed).permutation(n)
    parts = np.array_split(perm, k)
    return [(np.sort(np.concatenate(parts[:i] + parts[i + 1:])), np.sort(parts[i])) for i in range(k)]
