"""The data of an inflection run (Peters et al. 2019, CoNLL–SIGMORPHON 2018 task 1): the splits of the chosen
languages, the character vocabularies and the loaders, prepared once from the run's config."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import torch
from omegaconf import DictConfig

from sparselab.data import sigmorphon as sg
from sparselab.data.resumable import ResumableLoader
from sparselab.data.text import BucketBatchSampler, PadCollate, PairDataset, Vocab, save_vocabs
from sparselab.data.workers import loader_options


def _languages(d) -> list[str] | None:
    langs = d.get("languages")
    if langs is None:
        return None
    return [str(langs)] if isinstance(langs, str) else [str(x) for x in langs]


def load_splits(cfg: DictConfig):
    """(train, val, eval, languages): each split a {language: [Example]} of the setting's files."""
    d = cfg.data
    root = d.get("root")
    train = sg.load_split(d.setting, "train", root, max_languages=int(d.max_languages),
                          per_language=int(d.train_per_language), langs=_languages(d))
    langs = sorted(train)
    val, ev = load_eval_splits(cfg, langs)
    return train, val, ev, langs


def load_eval_splits(cfg: DictConfig, langs: list[str]):
    """(val, eval) of ``langs``: what a saved model (an ensemble's members) is evaluated on."""
    d = cfg.data
    root = d.get("root")
    val = sg.load_split(d.setting, d.get("val_split", "dev"), root, langs=langs, per_language=int(d.val_per_language))
    ev = sg.load_split(d.setting, cfg.task.eval_split, root, langs=langs, per_language=int(d.eval_per_language))
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


def gold_files(cfg: DictConfig, langs) -> dict[str, Path]:
    """The evaluation split's files, which the scorer reads the gold forms from."""
    pairs = dict(sg.languages(cfg.data.setting, cfg.data.get("root")))
    return {lang: sg.split_file(pairs[lang], lang, cfg.task.eval_split, cfg.data.setting) for lang in langs}


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


def prepare(cfg: DictConfig, vocab_file: Path) -> InflectionData:
    """Read the splits, build the vocabularies from the training split (saved to ``vocab_file``), make the loaders."""
    train, val, ev, langs = load_splits(cfg)
    src, tgt = sg.build_vocabs(train)
    save_vocabs(vocab_file, src=src, tgt=tgt)
    options = loader_options(cfg)
    train_ds, train_dl = loader(train, src, tgt, int(cfg.task.batch_size), shuffle=True, seed=int(cfg.seed),
                                options=options)
    _, val_dl = loader(val, src, tgt, int(cfg.task.decode_batch_size), options=options)
    return InflectionData(train, val, ev, langs, src, tgt, train_ds, train_dl, val_dl)
