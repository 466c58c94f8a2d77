"""The data of an SNLI run (Martins & Astudillo 2016, §4.3): the three splits and the example pairs, the
out-of-vocabulary statistics, how the run's data differ from the paper's, and the loaders."""
from __future__ import annotations

import functools

import torch
from omegaconf import DictConfig

from sparselab.data import glove, snli
from sparselab.data.resumable import ResumableLoader
from sparselab.locations import data_root
from sparselab.data.sharding import ShardedBatchSampler

SPLITS = ("train", "dev", "test")
FULL_TRAIN = 550152          # SNLI 1.0 training pairs (the data's PROVENANCE.md), before dropping "-"


def load_data(cfg: DictConfig) -> tuple[dict[str, snli.Split], list[snli.Pair]]:
    """The three splits and the example pairs (first test pairs + the listed dev pairs, in that order)."""
    d = cfg.data
    root = data_root(d.get("root"))
    splits = snli.load_splits({s: d.splits[s] for s in SPLITS}, root, bool(d.lowercase),
                              {s: int(d.get(f"max_{s}", 0) or 0) for s in SPLITS})
    ex = cfg.task.examples
    examples = list(splits["test"].pairs[: int(ex.n_test)])
    ids = [str(i) for i in (ex.get("dev_pair_ids") or [])]
    if ids:
        dev_file = snli.split_file(d.splits.dev, root)
        found = {p.pair_id: p for p in snli.read_jsonl(dev_file, bool(d.lowercase), pair_ids=set(ids)).pairs}
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


def reductions(cfg: DictConfig, splits: dict[str, snli.Split], vectors: str) -> list[str]:
    """How this run differs from the paper's setting (stated in every report header)."""
    out = []
    n_train = splits["train"].lines
    if n_train < FULL_TRAIN:
        out.append(f"low-data: {len(splits['train'].pairs):,} training pairs ({n_train:,} lines read) instead of "
                   f"SNLI's {FULL_TRAIN:,}")
    if vectors != glove.GLOVE_840B:
        out.append(f"vectors {vectors} instead of GloVe 840B 300d")
    for s in ("dev", "test"):
        limit = int(cfg.data.get(f"max_{s}", 0) or 0)
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
