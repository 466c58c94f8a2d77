"""The data of an SNLI run (Martins & Astudillo 2016, §4.3): the three splits and the example pairs, the
out-of-vocabulary statistics, how the run's data differ from the paper's, and the loaders."""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Mapping

import torch

from sparselab.data import glove, snli
from sparselab.data.resumable import ResumableLoader
from sparselab.data.sharding import ShardedBatchSampler
from sparselab.locations import data_root

SPLITS = ("train", "dev", "test")
FULL_TRAIN = 550152          # SNLI 1.0 training pairs (the data's PROVENANCE.md), before dropping "-"


@dataclass(frozen=True)
class SNLISpec:
    """Which data an SNLI run reads (``data.*``, ``task.examples``): built once by the task
    (:mod:`sparselab.tasks.settings`)."""
    splits: Mapping[str, str]       # train / dev / test -> "<dataset>/<path under it>"
    root: str | None                # data.root (None: the default, sparselab.locations.data_root)
    lowercase: bool
    limits: Mapping[str, int]       # first N labelled pairs per split (0 = all)
    n_test_examples: int            # the first test pairs shown as examples
    dev_pair_ids: tuple[str, ...]   # and these dev pairs


def load_data(spec: SNLISpec) -> tuple[dict[str, snli.Split], list[snli.Pair]]:
    """The three splits and the example pairs (first test pairs + the listed dev pairs, in that order)."""
    root = data_root(spec.root)
    splits = snli.load_splits({s: spec.splits[s] for s in SPLITS}, root, spec.lowercase,
                              {s: spec.limits[s] for s in SPLITS})
    examples = list(splits["test"].pairs[: spec.n_test_examples])
    ids = list(spec.dev_pair_ids)
    if ids:
        dev_file = snli.split_file(spec.splits["dev"], root)
        found = {p.pair_id: p for p in snli.read_jsonl(dev_file, spec.lowercase, pair_ids=set(ids)).pairs}
        examples += [found[i] for i in ids if i in found]
    return splits, examples


def oov_stats(splits: dict[str, snli.Split], has_vector) -> dict[str, dict[str, float]]:
    """Per split: tokens, word types, and how many of each have no pretrained vector."""
    out = {}
    for name, split in splits.items():
        tokens = [w for p in split.pairs for w in (*p.premise, *p.hypothesis)]
        types = set(tokens)
        oov_tok = sum(1 for w in tokens if not has_vector(w))
        oov_types = sum(1 for w in types if not has_vector(w))
        out[name] = {"tokens": len(tokens), "oov_tokens": oov_tok, "oov_token_rate": oov_tok / max(1, len(tokens)),
                     "types": len(types), "oov_types": oov_types, "oov_type_rate": oov_types / max(1, len(types))}
    return out


def reductions(spec: SNLISpec, splits: dict[str, snli.Split], vectors: str) -> list[str]:
    """How this run differs from the paper's setting (stated in every report header)."""
    out = []
    n_train = splits["train"].lines
    if n_train < FULL_TRAIN:
        out.append(f"low-data: {len(splits['train'].pairs):,} training pairs ({n_train:,} lines read) instead of "
                   f"SNLI's {FULL_TRAIN:,}")
    if vectors != glove.GLOVE_840B:
        out.append(f"vectors {vectors} instead of GloVe 840B 300d")
    for s in ("dev", "test"):
        limit = spec.limits[s]
        if limit:
            out.append(f"{s}: first {limit} labelled pairs only")
    return out


def loader(pairs, vocab, batch_size: int, shuffle: bool = False, seed: int = 0, options: dict | None = None):
    """The training loader (shuffle) shards its batches by rank under DDP (data/sharding.py); with one
    process its batches are those of ``DataLoader(shuffle=True, generator=gen)``. ``options``: workers and
    pinned memory (sparselab.data.workers)."""
    options = options or {}
    ds = snli.PairDataset(pairs, vocab)
    collate = functools.partial(snli.collate, pad_id=vocab.pad_id)  # picklable, for DataLoader workers
    if not shuffle:
        return torch.utils.data.DataLoader(ds, batch_size=int(batch_size), collate_fn=collate, **options)
    gen = torch.Generator().manual_seed(int(seed))
    batches = torch.utils.data.BatchSampler(torch.utils.data.RandomSampler(ds, generator=gen), int(batch_size),
                                            drop_last=False)
    return ResumableLoader(ds, ShardedBatchSampler(batches), generator=gen, collate_fn=collate, **options)
