"""The data of an inflection run (Peters et al. 2019, CoNLL–SIGMORPHON 2018 task 1): the splits of the chosen
languages, the character vocabularies and the loaders, prepared once from the run's data settings."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import torch

from sparselab.data import sigmorphon as sg
from sparselab.data.resumable import ResumableLoader
from sparselab.data.text import BucketBatchSampler, PadCollate, PairDataset, Vocab, save_vocabs


@dataclass(frozen=True)
class InflectionSpec:
    """Which data an inflection run reads (``data.*``, ``task.eval_split``): built once by the task
    (:mod:`sparselab.tasks.settings`)."""
    setting: str                         # low | medium | high
    root: str | None                     # data.root (None: the default, sparselab.locations.data_root)
    languages: tuple[str, ...] | None    # None: every language of the setting
    max_languages: int
    train_per_language: int
    val_split: str
    val_per_language: int
    eval_per_language: int
    eval_split: str


def load_splits(spec: InflectionSpec):
    """(train, val, eval, languages): each split a {language: [Example]} of the setting's files."""
    train = sg.load_split(spec.setting, "train", spec.root, max_languages=spec.max_languages,
                          per_language=spec.train_per_language,
                          langs=list(spec.languages) if spec.languages is not None else None)
    langs = sorted(train)
    val, ev = load_eval_splits(spec, langs)
    return train, val, ev, langs


def load_eval_splits(spec: InflectionSpec, langs: list[str]):
    """(val, eval) of ``langs``: what a saved model (an ensemble's members) is evaluated on."""
    val = sg.load_split(spec.setting, spec.val_split, spec.root, langs=langs, per_language=spec.val_per_language)
    ev = sg.load_split(spec.setting, spec.eval_split, spec.root, langs=langs, per_language=spec.eval_per_language)
    return val, ev


def loader(data, src: Vocab, tgt: Vocab, batch_size, shuffle=False, seed=0, options: dict | None = None):
    """(dataset, loader). Evaluation loaders keep file order; the training loader (shuffle) batches by length.
    ``options``: workers and pinned memory (sparselab.data.workers); none for the one-word loaders of the examples."""
    ds = sg.dataset(data, src, tgt)
    collate = PadCollate.from_vocabs(src, tgt)
    options = options or {}
    if shuffle:
        sampler = BucketBatchSampler(ds, batch_size, seed=int(seed))
        return ds, ResumableLoader(ds, sampler, collate_fn=collate, **options)
    return ds, torch.utils.data.DataLoader(ds, batch_size=batch_size, shuffle=False, collate_fn=collate, **options)


def gold_files(spec: InflectionSpec, langs) -> dict[str, Path]:
    """The evaluation split's files, which the scorer reads the gold forms from."""
    pairs = dict(sg.languages(spec.setting, spec.root))
    return {lang: sg.split_file(pairs[lang], lang, spec.eval_split, spec.setting) for lang in langs}


@dataclass
class InflectionData:
    """Everything an inflection run trains and is evaluated on."""
    train: dict
    val: dict
    ev: dict
    langs: list[str]
    src: Vocab
    tgt: Vocab
    train_ds: PairDataset
    train_dl: ResumableLoader
    val_dl: torch.utils.data.DataLoader


def prepare(spec: InflectionSpec, vocab_file: Path, batch_size: int, eval_batch_size: int, seed: int,
            options: dict | None = None) -> InflectionData:
    """Read the splits, build the vocabularies from the training split (saved to ``vocab_file``), make the loaders
    (training batches of ``batch_size`` shuffled by ``seed``, validation batches of ``eval_batch_size``;
    ``options``: sparselab.data.workers)."""
    train, val, ev, langs = load_splits(spec)
    src, tgt = sg.build_vocabs(train)
    save_vocabs(vocab_file, src=src, tgt=tgt)
    train_ds, train_dl = loader(train, src, tgt, int(batch_size), shuffle=True, seed=int(seed), options=options)
    _, val_dl = loader(val, src, tgt, int(eval_batch_size), options=options)
    return InflectionData(train, val, ev, langs, src, tgt, train_ds, train_dl, val_dl)
