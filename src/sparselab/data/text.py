"""Sequence data shared by every sequence task: vocabularies, (source, target) datasets,
length-bucketed batches and padding.

A task turns its format into symbol sequences (characters for inflection, words or subwords for
translation) and uses these pieces unchanged::

    src, tgt = Vocab(src_symbols), Vocab(tgt_symbols, joiner=" ")
    ds = PairDataset.from_symbols(pairs, src, tgt)               # targets end in EOS
    dl = DataLoader(ds, batch_sampler=BucketBatchSampler(ds, 64, seed=0), collate_fn=PadCollate.from_vocabs(src, tgt))

A batch is a dict: ``src`` (B,S), ``src_len`` (B,), ``tgt_in`` (B,T) starting with BOS, ``tgt_out`` (B,T)
ending in EOS, ``idx`` (B,) the dataset indices.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import torch

from sparselab.data.sharding import rank_world, shard, shard_count

# Role -> symbol of the default specials; their order is their id order (pad 0, bos 1, eos 2, unk 3).
DEFAULT_SPECIALS: dict[str, str] = {"pad": "<pad>", "bos": "<s>", "eos": "</s>", "unk": "<unk>"}
ROLES = ("pad", "bos", "eos", "unk")


class Vocab:
    """Symbol <-> id table with configurable special symbols and joiner.

    ``specials`` maps roles (``pad``, ``bos``, ``eos``, ``unk``; any subset, in id order) to their
    symbols; they take ids 0.. in that order, then the other symbols follow sorted (deterministic,
    independent of the order the symbols were seen in). ``pad_id``, ``bos_id``, ``eos_id``, ``unk_id``
    are the ids of the roles (``None`` for a role the vocabulary has not got).

    ``joiner`` glues decoded symbols into text (``""`` for characters, ``" "`` for words); ``split``
    is its inverse. ``unk_text`` is what :meth:`decode` writes for the unknown symbol (default: the
    unk symbol itself).
    """

    def __init__(self, symbols: Iterable[str] = (), specials: Mapping[str, str] | None = None,
                 joiner: str = "", unk_text: str | None = None):
        specials = dict(DEFAULT_SPECIALS if specials is None else specials)
        bad = sorted(set(specials) - set(ROLES))
        if bad:
            raise ValueError(f"specials: unknown role(s) {bad}; roles are {', '.join(ROLES)}")
        if len(set(specials.values())) != len(specials):
            raise ValueError(f"specials: two roles share a symbol: {specials}")
        self.specials = specials
        self.joiner = str(joiner)
        self.unk_text = unk_text
        spec = list(specials.values())
        self._set_itos(spec + sorted(set(symbols) - set(spec)))

    def _set_itos(self, itos: list[str]) -> None:
        self.itos: list[str] = list(itos)
        self.stoi: dict[str, int] = {s: i for i, s in enumerate(self.itos)}
        for role in ROLES:
            sym = self.specials.get(role)
            setattr(self, f"{role}_id", self.stoi[sym] if sym is not None else None)
        self._skip = {i for i in (self.pad_id, self.bos_id) if i is not None}

    # ------------------------------------------------------------ construction
    @classmethod
    def from_counts(cls, counts: Mapping[str, int] | Counter, min_freq: int = 1, max_size: int | None = None,
                    **kwargs) -> "Vocab":
        """The most frequent symbols (ties by symbol), at least ``min_freq`` times, at most ``max_size``
        of them besides the specials; ids in frequency order (word-level vocabularies)."""
        ranked = sorted(((s, c) for s, c in counts.items() if c >= min_freq), key=lambda sc: (-sc[1], sc[0]))
        v = cls((), **kwargs)
        spec = set(v.specials.values())
        kept = [s for s, _ in ranked if s not in spec]
        if max_size is not None:
            kept = kept[: int(max_size)]
        v._set_itos(list(v.specials.values()) + kept)
        return v

    # ------------------------------------------------------------ use
    def __len__(self) -> int:
        return len(self.itos)

    def __contains__(self, symbol: str) -> bool:
        return symbol in self.stoi

    def split(self, text: str) -> list[str]:
        """Text -> symbols: characters for joiner ``""``, else ``text.split(joiner)``."""
        return list(text) if self.joiner == "" else text.split(self.joiner)

    def encode(self, symbols: Iterable[str], bos: bool = False, eos: bool = False) -> list[int]:
        symbols = list(symbols)
        if self.unk_id is None:
            missing = [s for s in symbols if s not in self.stoi]
            if missing:
                raise KeyError(f"symbols not in a vocabulary without unk: {missing[:5]}")
        ids = [self.stoi.get(s, self.unk_id) for s in symbols]
        return ([self.bos_id] if bos else []) + ids + ([self.eos_id] if eos else [])

    def symbols(self, ids: Iterable[int]) -> list[str]:
        """Ids -> symbols, up to the first EOS; pad and BOS are dropped, unk becomes ``unk_text``."""
        out = []
        for i in ids:
            i = int(i)
            if i == self.eos_id:
                break
            if i in self._skip:
                continue
            if i == self.unk_id and self.unk_text is not None:
                out.append(self.unk_text)
            else:
                out.append(self.itos[i])
        return out

    def decode(self, ids: Iterable[int]) -> str:
        return self.joiner.join(self.symbols(ids))

    # ------------------------------------------------------------ (de)serialisation: plain containers only
    def to_dict(self) -> dict[str, Any]:
        return {"itos": list(self.itos), "specials": dict(self.specials), "joiner": self.joiner,
                "unk_text": self.unk_text}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Vocab":
        v = cls((), specials=d.get("specials"), joiner=d.get("joiner", ""), unk_text=d.get("unk_text"))
        itos = list(d["itos"])
        if itos[: len(v.specials)] != list(v.specials.values()):
            raise ValueError("vocabulary: the specials must come first, in their id order")
        v._set_itos(itos)
        return v

    def __eq__(self, other) -> bool:
        return isinstance(other, Vocab) and self.to_dict() == other.to_dict()

    def __repr__(self) -> str:
        return f"Vocab({len(self)} symbols, specials={list(self.specials.values())}, joiner={self.joiner!r})"


def save_vocabs(path: str | Path, **vocabs: Vocab) -> None:
    """One JSON file, ``{name: vocab.to_dict()}`` (e.g. ``save_vocabs(p, src=src, tgt=tgt)``)."""
    Path(path).write_text(json.dumps({k: v.to_dict() for k, v in vocabs.items()}, ensure_ascii=False))


def load_vocabs(path: str | Path) -> dict[str, Vocab]:
    return {k: Vocab.from_dict(d) for k, d in json.loads(Path(path).read_text()).items()}


# ---------------------------------------------------------------- dataset

class PairDataset(torch.utils.data.Dataset):
    """Encoded (source, target) pairs; items are ``(src ids, tgt ids ending in EOS, index)``."""

    def __init__(self, src_ids: Sequence[Sequence[int]], tgt_ids: Sequence[Sequence[int]]):
        if len(src_ids) != len(tgt_ids):
            raise ValueError(f"{len(src_ids)} sources for {len(tgt_ids)} targets")
        self.src_ids = [list(s) for s in src_ids]
        self.tgt_ids = [list(t) for t in tgt_ids]

    @classmethod
    def from_symbols(cls, pairs: Iterable[tuple[Sequence[str], Sequence[str]]], src: Vocab, tgt: Vocab
                     ) -> "PairDataset":
        src_ids, tgt_ids = [], []
        for s, t in pairs:
            src_ids.append(src.encode(s))
            tgt_ids.append(tgt.encode(t, eos=True))
        return cls(src_ids, tgt_ids)

    @property
    def lengths(self) -> list[tuple[int, int]]:
        """(target length, source length) per item: the bucketing key."""
        return [(len(t), len(s)) for s, t in zip(self.src_ids, self.tgt_ids)]

    def __len__(self) -> int:
        return len(self.src_ids)

    def __getitem__(self, i):
        return self.src_ids[i], self.tgt_ids[i], i


class BucketBatchSampler(torch.utils.data.Sampler):
    """Shuffled batches of similar target length (OpenNMT-style pools), so a batch pads to few steps.

    Each epoch: shuffle all indices, cut them into pools of ``pool`` batches, sort each pool by
    the items' keys ((target, source) length for a :class:`PairDataset`), cut it into batches,
    shuffle the batch order. The decoder runs one step per target position of the longest item,
    so unsorted batches waste most steps on padding.

    ``lengths``: a dataset with a ``lengths`` attribute, or a sequence of sort keys, one per item.

    Under DDP each rank yields its share of the epoch's batches (:mod:`sparselab.data.sharding`; the
    trainer needs ``use_distributed_sampler=False``); ``num_replicas`` / ``rank`` override the process
    group's. Each pass counts one epoch; ``set_epoch`` sets it (Lightning calls ``set_epoch`` only on
    ``loader.sampler`` and ``loader.batch_sampler.sampler``, not on a batch sampler, so a resumed run calls
    it itself, e.g. with ``trainer.current_epoch`` at the start of each epoch).
    """

    def __init__(self, lengths, batch_size: int, seed: int = 0, pool: int = 50,
                 num_replicas: int | None = None, rank: int | None = None):
        self.lengths = list(getattr(lengths, "lengths", lengths))
        self.batch_size, self.pool, self.seed, self.epoch = int(batch_size), int(pool), int(seed), 0
        self.num_replicas, self.rank = num_replicas, rank
        if self.batch_size < 1 or self.pool < 1:
            raise ValueError(f"batch_size={batch_size} and pool={pool} must be ≥ 1")

    def set_epoch(self, epoch: int) -> None:
        self.epoch = int(epoch)

    def __len__(self) -> int:
        n = -(-len(self.lengths) // self.batch_size)
        return shard_count(n, rank_world(self.rank, self.num_replicas)[1])

    def __iter__(self):
        rank, world = rank_world(self.rank, self.num_replicas)
        g = torch.Generator().manual_seed(self.seed * 100003 + self.epoch)
        self.epoch += 1
        order = torch.randperm(len(self.lengths), generator=g).tolist()
        span = self.batch_size * self.pool
        batches = []
        for i in range(0, len(order), span):
            chunk = sorted(order[i: i + span], key=self.lengths.__getitem__)
            batches += [chunk[j: j + self.batch_size] for j in range(0, len(chunk), self.batch_size)]
        yield from shard([batches[k] for k in torch.randperm(len(batches), generator=g).tolist()], rank, world)


class TokenBucketBatchSampler(torch.utils.data.Sampler):
    """Shuffled batches of similar length holding at most ``max_tokens`` padded tokens each (the Transformer's
    "8192-token batches", OpenNMT-py ``batch_type: tokens``): a batch of n items whose longest side is m
    tokens counts n·m. An item longer than ``max_tokens`` forms a batch of its own.

    Each epoch: shuffle all indices, cut them into pools of ``pool`` items, sort each pool by length, cut it
    greedily into batches, shuffle the batch order (seeded by ``seed`` and the epoch). ``lengths``: a dataset
    with a ``lengths`` attribute of (target, source) lengths, or one length per item.

    Under DDP each rank yields its share of the epoch's batches, the same number on every rank
    (:mod:`sparselab.data.sharding`; the trainer needs ``use_distributed_sampler=False``);
    ``num_replicas`` / ``rank`` override the process group's. ``set_epoch`` as in :class:`BucketBatchSampler`.
    """

    def __init__(self, lengths, max_tokens: int, seed: int = 0, pool: int = 4096,
                 num_replicas: int | None = None, rank: int | None = None):
        raw = list(getattr(lengths, "lengths", lengths))
        self.sizes = [max(x) + 1 if isinstance(x, (tuple, list)) else int(x) + 1 for x in raw]  # + BOS/EOS
        self.max_tokens, self.pool, self.seed, self.epoch = int(max_tokens), int(pool), int(seed), 0
        self.num_replicas, self.rank = num_replicas, rank
        if self.max_tokens < 1 or self.pool < 1:
            raise ValueError(f"max_tokens={max_tokens} and pool={pool} must be ≥ 1")
        self._batches: tuple[int, list[list[int]]] | None = None

    def _epoch_batches(self) -> list[list[int]]:
        if self._batches is not None and self._batches[0] == self.epoch:
            return self._batches[1]
        g = torch.Generator().manual_seed(self.seed * 100003 + self.epoch)
        order = torch.randperm(len(self.sizes), generator=g).tolist()
        batches: list[list[int]] = []
        for i in range(0, len(order), self.pool):
            chunk = sorted(order[i: i + self.pool], key=self.sizes.__getitem__)
            batch, longest = [], 0
            for j in chunk:
                m = max(longest, self.sizes[j])
                if batch and m * (len(batch) + 1) > self.max_tokens:
                    batches.append(batch)
                    batch, m = [], self.sizes[j]
                batch.append(j)
                longest = m
            if batch:
                batches.append(batch)
        batches = [batches[k] for k in torch.randperm(len(batches), generator=g).tolist()]
        self._batches = (self.epoch, batches)
        return batches

    def set_epoch(self, epoch: int) -> None:
        self.epoch = int(epoch)

    def __len__(self) -> int:
        return shard_count(len(self._epoch_batches()), rank_world(self.rank, self.num_replicas)[1])

    def __iter__(self):
        rank, world = rank_world(self.rank, self.num_replicas)
        batches = self._epoch_batches()
        self.epoch += 1
        yield from shard(batches, rank, world)


def collate(batch, src_pad_id: int, tgt_pad_id: int, bos_id: int) -> dict[str, torch.Tensor]:
    """Pad a batch of ``(src ids, tgt ids ending in EOS, index)``: src (B,S), src_len (B,),
    tgt_in (B,T) = BOS + target without its last symbol, tgt_out (B,T) = target, idx (B,)."""
    srcs, tgts, idx = zip(*batch)
    B = len(batch)
    S = max(len(s) for s in srcs)
    T = max(len(t) for t in tgts)
    src = torch.full((B, S), src_pad_id, dtype=torch.long)
    tgt_in = torch.full((B, T), tgt_pad_id, dtype=torch.long)
    tgt_out = torch.full((B, T), tgt_pad_id, dtype=torch.long)
    for b, (s, t) in enumerate(zip(srcs, tgts)):
        src[b, : len(s)] = torch.tensor(s)
        tgt_out[b, : len(t)] = torch.tensor(t)
        tgt_in[b, 0] = bos_id
        tgt_in[b, 1: len(t)] = torch.tensor(t[:-1])
    lens = torch.tensor([len(s) for s in srcs])
    return {"src": src, "src_len": lens, "tgt_in": tgt_in, "tgt_out": tgt_out, "idx": torch.tensor(idx)}


class PadCollate:
    """:func:`collate` with the vocabularies' special ids bound (picklable, for DataLoader workers)."""

    def __init__(self, src_pad_id: int, tgt_pad_id: int, bos_id: int):
        self.src_pad_id, self.tgt_pad_id, self.bos_id = int(src_pad_id), int(tgt_pad_id), int(bos_id)

    @classmethod
    def from_vocabs(cls, src: Vocab, tgt: Vocab) -> "PadCollate":
        if src.pad_id is None or tgt.pad_id is None or tgt.bos_id is None:
            raise ValueError("collate needs a pad symbol in both vocabularies and a BOS symbol in the target one")
        return cls(src.pad_id, tgt.pad_id, tgt.bos_id)

    def __call__(self, batch):
        return collate(batch, self.src_pad_id, self.tgt_pad_id, self.bos_id)


def to_device(batch: dict[str, torch.Tensor], device) -> dict[str, torch.Tensor]:
    return {k: v.to(device) if isinstance(v, torch.Tensor) else v for k, v in batch.items()}
