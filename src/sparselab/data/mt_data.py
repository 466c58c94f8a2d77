"""The data of a translation run: every split read and checked, tokenized + BPE, vocabularies, datasets, loaders.

:func:`prepare_data` reads and checks every split the run uses (train, validation, test, the extra test sets;
misaligned or malformed files raise ``file:line``, missing data names the fetch command) before anything is
trained, tokenizes (Moses / MeCab / none) and learns BPE on the training split only
(:mod:`sparselab.data.mt_preprocess`, cached), and builds the vocabularies and the training / validation
datasets (training pairs longer than ``data.max_len`` BPE tokens dropped). :func:`train_loader` gives the
training batches: length-bucketed sentence batches (``task.batch_size``, the LSTM) or token-budget batches
(``task.batch_tokens``, the Transformer), resumable (:class:`sparselab.data.resumable.ResumableLoader`).
"""
from __future__ import annotations

import logging
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import torch
from omegaconf import DictConfig

from sparselab.data import parallel as par
from sparselab.data.mt_preprocess import Prepared, prepare
from sparselab.data.resumable import ResumableLoader
from sparselab.data.workers import loader_options
from sparselab.data.text import BucketBatchSampler, PadCollate, PairDataset, TokenBucketBatchSampler, Vocab, save_vocabs
from sparselab.errors import ConfigError

log = logging.getLogger("sparselab")


def pair_settings(cfg: DictConfig) -> tuple[str, str, DictConfig]:
    src_lang, tgt_lang = par.parse_pair(cfg.data.pair)
    pairs = cfg.data.pairs
    if str(cfg.data.pair) not in pairs:
        raise ConfigError(f"data.pair={cfg.data.pair!r}: not configured; pairs: {', '.join(pairs)}")
    return src_lang, tgt_lang, pairs[str(cfg.data.pair)]


def load_data(cfg: DictConfig) -> tuple[dict[str, par.ParallelSplit], par.Corpus, DictConfig]:
    """Read (and so check) every split the run uses; train/val/test/``extra:<name>`` -> split."""
    src_lang, tgt_lang, ps = pair_settings(cfg)
    d = cfg.data
    if not ps.get("train"):
        raise ConfigError(f"data.pairs.{cfg.data.pair}.train: no training corpus for {cfg.data.pair} in profile "
                          f"{cfg.profile.name} ({ps.get('note', '')})")
    specs = {"train": str(ps.train), "val": str(ps.val), "test": str(ps.test)}
    for name, spec in (ps.get("extra_test") or {}).items():
        if spec is not None:
            specs[f"extra:{name}"] = str(spec)
    corpus = par.corpus_of(specs["train"])
    for role, spec in specs.items():
        if par.corpus_of(spec).pretokenized != corpus.pretokenized:
            raise ConfigError(f"data.pairs.{cfg.data.pair}: {spec} and the training corpus {specs['train']} differ "
                              f"in tokenization (one is already tokenized)")
    splits = par.read_splits(specs, src_lang, tgt_lang, d.get("root"), empty={"train": str(d.get("train_empty", "drop"))})
    limits = {"train": int(d.max_train), "val": int(d.max_val), "test": int(d.max_test)}
    for role in splits:
        splits[role] = splits[role].head(limits.get(role, int(d.max_extra_test)))
    return splits, corpus, ps


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


def train_loader(cfg: DictConfig, data: "MTData"):
    """The run's training loader: token-budget batches when the task sets ``batch_tokens`` (the Transformer),
    else sentence batches of ``batch_size`` (the LSTM)."""
    tc, options = cfg.task, loader_options(cfg)
    if tc.get("batch_tokens") is not None:
        return token_loader(data.train_ds, data.src, data.tgt, int(tc.batch_tokens), int(cfg.seed), options)
    return loader(data.train_ds, data.src, data.tgt, int(tc.batch_size), shuffle=True, seed=int(cfg.seed),
                  options=options)


@dataclass
class MTData:
    """Everything a translation run trains and tests on: checked splits, tokenized + BPE text, vocabularies
    and the training / validation datasets (training pairs longer than ``data.max_len`` dropped)."""
    src_lang: str
    tgt_lang: str
    splits: dict
    corpus: par.Corpus
    pair_cfg: DictConfig
    prep: Prepared
    src: Vocab
    tgt: Vocab
    train_ds: PairDataset
    val_ds: PairDataset
    n_dropped_long: int
    prep_time: float


def prepare_data(cfg: DictConfig, vocab_file: Path) -> MTData:
    """Read and check every split (before anything is trained), tokenize + BPE (cached), build and save the
    vocabularies (to ``vocab_file``) and the datasets."""
    src_lang, tgt_lang = par.parse_pair(cfg.data.pair)
    t_data = time.time()
    splits, corpus, ps = load_data(cfg)
    cache_dir = Path(str(cfg.data.cache_dir)).expanduser()
    prep = prepare({role: (sp.src, sp.tgt) for role, sp in splits.items()}, src_lang, tgt_lang, corpus.pretokenized,
                   int(ps.bpe_merges), bool(ps.bpe_joint), cache_dir, int(cfg.data.get("bpe_min_frequency", 2)),
                   log=log)
    prep_time = time.time() - t_data
    tr_src, tr_tgt = prep.splits["train"]
    src = Vocab.from_counts(Counter(p for line in tr_src.bpe for p in line.split()), joiner=" ")
    tgt = Vocab.from_counts(Counter(p for line in tr_tgt.bpe for p in line.split()), joiner=" ")
    save_vocabs(vocab_file, src=src, tgt=tgt)
    max_len = int(cfg.data.max_len)
    keep = [i for i, (s, t) in enumerate(zip(tr_src.bpe, tr_tgt.bpe))
            if 0 < len(s.split()) <= max_len and 0 < len(t.split()) <= max_len]
    train_ds = dataset([tr_src.bpe[i] for i in keep], [tr_tgt.bpe[i] for i in keep], src, tgt)
    va_src, va_tgt = prep.splits["val"]
    val_ds = dataset(va_src.bpe, va_tgt.bpe, src, tgt)
    log.info("translation %s (%s): %d train pairs (%d longer than %d BPE tokens dropped, %d empty dropped), "
             "%d val, %d test; BPE %s %d merges; vocab src %d tgt %d; preprocessing %.1fs",
             cfg.data.pair, corpus.name, len(train_ds), len(tr_src.bpe) - len(keep), max_len,
             splits["train"].dropped_empty, len(val_ds), len(splits["test"]), "joint" if ps.bpe_joint else "separate",
             int(ps.bpe_merges), len(src), len(tgt), prep_time)
    return MTData(src_lang, tgt_lang, splits, corpus, ps, prep, src, tgt, train_ds, val_ds,
                  len(tr_src.bpe) - len(keep), prep_time)
