"""The data of a translation run: every split read and checked, tokenized + BPE, vocabularies, datasets, loaders.

:func:`prepare_data` reads and checks every split the run uses (train, validation, test, the extra test sets;
misaligned or malformed files raise ``file:line``, missing data names the fetch command) before anything is
trained, tokenizes (Moses / MeCab / none) and learns BPE on the training split only
(:mod:`sparselab.data.mt_preprocess`, cached), and builds the vocabularies and the training / validation
datasets (training pairs longer than ``data.max_len`` BPE tokens dropped). :func:`train_loader` gives the
training batches: length-bucketed sentence batches (``batch_size``, the LSTM) or token-budget batches
(``batch_tokens``, the Transformer), resumable (:class:`sparselab.data.resumable.ResumableLoader`).
"""
from __future__ import annotations

import logging
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

import torch

from sparselab.data import parallel as par
from sparselab.data.mt_preprocess import Prepared, prepare
from sparselab.data.resumable import ResumableLoader
from sparselab.data.text import BucketBatchSampler, PadCollate, PairDataset, TokenBucketBatchSampler, Vocab, save_vocabs
from sparselab.errors import ConfigError

log = logging.getLogger("sparselab")


@dataclass(frozen=True)
class PairSettings:
    """One language pair's corpora and BPE (``data.pairs.<pair>``)."""
    train: str                      # "<corpus>/<split>"
    val: str
    test: str
    extra_test: Mapping[str, str]   # name -> "<corpus>/<split>" (the sets set to null left out)
    bpe_merges: int
    bpe_joint: bool


@dataclass(frozen=True)
class MTSpec:
    """Which data a translation run reads and how it is cut (``data.*``): built once by the task
    (:mod:`sparselab.tasks.settings`, which also refuses a pair that is not configured or has no training corpus)."""
    pair: str                       # "<source>-<target>"
    pair_settings: PairSettings
    root: str | None                # data.root (None: the default, sparselab.locations.data_root)
    train_empty: str                # drop | error
    max_train: int                  # first N pairs of a split (0 = all)
    max_val: int
    max_test: int
    max_extra_test: int
    max_len: int                    # longer training pairs (BPE tokens) are dropped
    cache_dir: str
    bpe_min_frequency: int


def load_data(spec: MTSpec) -> tuple[dict[str, par.ParallelSplit], par.Corpus]:
    """Read (and so check) every split the run uses; train/val/test/``extra:<name>`` -> split."""
    src_lang, tgt_lang = par.parse_pair(spec.pair)
    ps = spec.pair_settings
    specs = {"train": ps.train, "val": ps.val, "test": ps.test}
    for name, split in ps.extra_test.items():
        specs[f"extra:{name}"] = split
    corpus = par.corpus_of(specs["train"])
    for role, split in specs.items():
        if par.corpus_of(split).pretokenized != corpus.pretokenized:
            raise ConfigError(f"data.pairs.{spec.pair}: {split} and the training corpus {specs['train']} differ "
                              f"in tokenization (one is already tokenized)")
    splits = par.read_splits(specs, src_lang, tgt_lang, spec.root, empty={"train": spec.train_empty})
    limits = {"train": spec.max_train, "val": spec.max_val, "test": spec.max_test}
    for role in splits:
        splits[role] = splits[role].head(limits.get(role, spec.max_extra_test))
    return splits, corpus


def dataset(src_lines: list[str], tgt_lines: list[str], src: Vocab, tgt: Vocab) -> PairDataset:
    return PairDataset.from_symbols(((s.split(), t.split()) for s, t in zip(src_lines, tgt_lines)), src, tgt)


def loader(ds: PairDataset, src: Vocab, tgt: Vocab, batch_size: int, shuffle: bool = False, seed: int = 0,
           options: dict | None = None):
    """In order (evaluation); ``shuffle``: the LSTM's training batches (length-bucketed, resumable).
    ``options``: workers and pinned memory (sparselab.data.workers)."""
    collate = PadCollate.from_vocabs(src, tgt)
    options = options or {}
    if shuffle:
        return ResumableLoader(ds, BucketBatchSampler(ds, batch_size, seed=seed), collate_fn=collate, **options)
    return torch.utils.data.DataLoader(ds, batch_size=batch_size, shuffle=False, collate_fn=collate, **options)


def token_loader(ds: PairDataset, src: Vocab, tgt: Vocab, max_tokens: int, seed: int, options: dict | None = None):
    """The Transformer's training batches: at most ``max_tokens`` padded tokens each (resumable)."""
    return ResumableLoader(ds, TokenBucketBatchSampler(ds, max_tokens, seed=seed),
                           collate_fn=PadCollate.from_vocabs(src, tgt), **(options or {}))


def train_loader(data: "MTData", batch_size: int | None, batch_tokens: int | None, seed: int,
                 options: dict | None = None):
    """The run's training loader: token-budget batches when the task sets ``batch_tokens`` (the Transformer),
    else sentence batches of ``batch_size`` (the LSTM)."""
    if batch_tokens is not None:
        return token_loader(data.train_ds, data.src, data.tgt, int(batch_tokens), int(seed), options)
    return loader(data.train_ds, data.src, data.tgt, int(batch_size), shuffle=True, seed=int(seed), options=options)


@dataclass
class MTData:
    """Everything a translation run trains and tests on: checked splits, tokenized + BPE text, vocabularies
    and the training / validation datasets (training pairs longer than ``data.max_len`` dropped)."""
    src_lang: str
    tgt_lang: str
    splits: dict
    corpus: par.Corpus
    pair_settings: PairSettings
    prep: Prepared
    src: Vocab
    tgt: Vocab
    train_ds: PairDataset
    val_ds: PairDataset
    n_dropped_long: int
    prep_time: float


def prepare_data(spec: MTSpec, vocab_file: Path) -> MTData:
    """Read and check every split (before anything is trained), tokenize + BPE (cached), build and save the
    vocabularies (to ``vocab_file``) and the datasets."""
    src_lang, tgt_lang = par.parse_pair(spec.pair)
    t_data = time.time()
    splits, corpus = load_data(spec)
    ps = spec.pair_settings
    cache_dir = Path(spec.cache_dir).expanduser()
    prep = prepare({role: (sp.src, sp.tgt) for role, sp in splits.items()}, src_lang, tgt_lang, corpus.pretokenized,
                   ps.bpe_merges, ps.bpe_joint, cache_dir, spec.bpe_min_frequency, log=log)
    prep_time = time.time() - t_data
    tr_src, tr_tgt = prep.splits["train"]
    src = Vocab.from_counts(Counter(p for line in tr_src.bpe for p in line.split()), joiner=" ")
    tgt = Vocab.from_counts(Counter(p for line in tr_tgt.bpe for p in line.split()), joiner=" ")
    save_vocabs(vocab_file, src=src, tgt=tgt)
    max_len = spec.max_len
    keep = [i for i, (s, t) in enumerate(zip(tr_src.bpe, tr_tgt.bpe))
            if 0 < len(s.split()) <= max_len and 0 < len(t.split()) <= max_len]
    train_ds = dataset([tr_src.bpe[i] for i in keep], [tr_tgt.bpe[i] for i in keep], src, tgt)
    va_src, va_tgt = prep.splits["val"]
    val_ds = dataset(va_src.bpe, va_tgt.bpe, src, tgt)
    log.info("translation %s (%s): %d train pairs (%d longer than %d BPE tokens dropped, %d empty dropped), "
             "%d val, %d test; BPE %s %d merges; vocab src %d tgt %d; preprocessing %.1fs",
             spec.pair, corpus.name, len(train_ds), len(tr_src.bpe) - len(keep), max_len,
             splits["train"].dropped_empty, len(val_ds), len(splits["test"]), "joint" if ps.bpe_joint else "separate",
             int(ps.bpe_merges), len(src), len(tgt), prep_time)
    return MTData(src_lang, tgt_lang, splits, corpus, ps, prep, src, tgt, train_ds, val_ds,
                  len(tr_src.bpe) - len(keep), prep_time)
