"""Synthetic label-proportion documents (Martins & Astudillo 2016, Sec. 5.1 / Figure 3).

For K labels and a vocabulary of V = K words:

- each label k has a word distribution phi_k ~ Dirichlet(word_concentration * 1_V) (drawn once per seed);
- each document draws its number of labels from Poisson(1) by rejection sampling (redrawn while it is 0
  or more than K, i.e. Poisson(1) truncated to {1, ..., K}, as in the paper) and that many distinct labels
  uniformly at random;
- its mixture proportions pi over those labels are uniform (``mixture="uniform"``: 1/|S| each) or
  random (``mixture="random"``: Dirichlet(1) over its labels, i.e. uniform on that simplex);
- its length is Poisson(L), at least 1 word; its words are drawn i.i.d. from sum_k pi_k phi_k;
- features are the word counts (the task normalises them to relative frequencies); the target is pi.

Everything is a function of ``seed``: the same seed gives the same word distributions and documents.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

MIXTURES = ("uniform", "random")
LABEL_COUNT_MEAN = 1.0   # the paper's Poisson rate for the number of labels per document


@dataclass
class ProportionData:
    counts: np.ndarray  # n x V word counts (int64)
    proportions: np.ndarray  # n x K label proportions (rows sum to 1)
    lengths: np.ndarray  # n document lengths (= counts.sum(1))
    n_labels: np.ndarray  # n labels per document (>= 1)


def word_distributions(K: int, rng: np.random.Generator, concentration: float = 1.0) -> np.ndarray:
    """K x V (V = K) matrix of per-label word distributions, each row ~ Dirichlet(concentration)."""
    return rng.dirichlet(np.full(K, float(concentration)), size=K)


def label_counts(n: int, K: int, rng: np.random.Generator, rate: float = LABEL_COUNT_MEAN) -> np.ndarray:
    """``n`` labels-per-document counts from Poisson(rate) by rejection sampling: every count that is 0 or
    larger than K is redrawn until none is, so the counts follow Poisson(rate) truncated to {1, ..., K}."""
    if K < 1:
        raise ValueError(f"K={K}: a document needs at least one label")
    counts = rng.poisson(rate, size=n)
    bad = (counts == 0) | (counts > K)
    while bad.any():
        counts[bad] = rng.poisson(rate, size=int(bad.sum()))
        bad = (counts == 0) | (counts > K)
    return counts


def sample_documents(n: int, phi: np.ndarray, length: float, mixture: str,
                     rng: np.random.Generator) -> ProportionData:
    if mixture not in MIXTURES:
        raise ValueError(f"mixture={mixture!r} is unknown; valid: {', '.join(MIXTURES)}")
    K, V = phi.shape
    counts = np.zeros((n, V), dtype=np.int64)
    props = np.zeros((n, K))
    n_labels = label_counts(n, K, rng)
    lengths = np.maximum(1, rng.poisson(float(length), size=n))
    for i in range(n):
        labels = rng.choice(K, size=n_labels[i], replace=False)
        if mixture == "uniform":
            w = np.full(n_labels[i], 1.0 / n_labels[i])
        else:
            w = rng.dirichlet(np.ones(n_labels[i]))
        props[i, labels] = w
        word_p = props[i] @ phi
        counts[i] = rng.multinomial(lengths[i], word_p / word_p.sum())
    return ProportionData(counts, props, lengths, n_labels)


def make_dataset(K: int, length: float, mixture: str, seed: int, n_train: int = 1200, n_test: int = 1000,
                 word_concentration: float = 1.0) -> tuple[ProportionData, ProportionData, np.ndarray]:
    """(train, test, phi) for one seed; train and test share the label word distributions phi."""
    rng = np.random.default_rng(seed)
    phi = word_distributions(K, rng, word_concentration)
    train = sample_documents(n_train, phi, length, mixture, rng)
    test = sample_documents(n_test, phi, length, mixture, rng)
    return train, test, phi


def frequencies(counts: np.ndarray) -> np.ndarray:
    """Word counts normalised to relative frequencies per document."""
    c = counts.astype(np.float64)
    return c / np.maximum(c.sum(axis=1, keepdims=True), 1.0)
