"""SNLI 1.0 (Bowman et al. 2015): the JSONL reader and the word vocabulary of the NLI task.

Files are the official ``snli_1.0_{train,dev,test}.jsonl`` (``.gz`` read transparently), one JSON object a
line with ``gold_label``, ``sentence1_binary_parse`` (premise), ``sentence2_binary_parse`` (hypothesis) and
``pairID``. Tokens are the leaves of the binary parse (the parentheses dropped), i.e. the PTB tokenization
SNLI ships with; ``lowercase`` maps them to lower case (GloVe 6B is uncased, 840B is cased).

Pairs whose gold label is ``"-"`` (no annotator majority) are dropped, as in the standard protocol, and
counted (:attr:`Split.dropped`). A line that is not a JSON object, lacks a field, has an unknown label or an
empty sentence raises :class:`~sparselab.errors.DataFormatError` naming ``file:line``; a file that is not
under the data root raises :class:`~sparselab.errors.MissingDataError` naming the fetch command.

A split is named ``<dataset>/<path>`` relative to the data root (``snli_1.0/snli_1.0_dev.jsonl.gz`` here;
``snli_1.0_full/snli_1.0/snli_1.0_train.jsonl`` once ``python -m sparselab.data fetch snli_1.0_full`` ran).
"""
from __future__ import annotations

import gzip
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

import torch

from sparselab.errors import DataFormatError, MissingDataError
from sparselab.data.text import Vocab

LABELS = ("entailment", "neutral", "contradiction")
NO_GOLD = "-"
FIELDS = ("gold_label", "sentence1_binary_parse", "sentence2_binary_parse")
# pad 0, unk 1; the other ids follow by frequency (sparselab.data.text.Vocab.from_counts)
SPECIALS = {"pad": "<pad>", "unk": "<unk>"}


@dataclass(frozen=True)
class Pair:
    pair_id: str
    premise: tuple[str, ...]
    hypothesis: tuple[str, ...]
    label: int          # index into LABELS
    line: int           # 1-based line of the file


@dataclass
class Split:
    name: str
    pairs: list[Pair]
    dropped: int = 0    # pairs with gold label "-"
    lines: int = 0      # non-blank lines read
    label_counts: dict[str, int] = field(default_factory=dict)


def parse_tokens(binary_parse: str, lowercase: bool = False) -> tuple[str, ...]:
    """The leaves of an SNLI binary parse: ``"( ( A man ) sleeps )"`` -> ``("A", "man", "sleeps")``."""
    toks = [t for t in binary_parse.split() if t not in ("(", ")")]
    return tuple(t.lower() for t in toks) if lowercase else tuple(toks)


def _open(path: Path):
    return gzip.open(path, "rt", encoding="utf-8") if path.suffix == ".gz" else open(path, encoding="utf-8")


def read_jsonl(path: str | Path, lowercase: bool = False, limit: int = 0, name: str | None = None,
               pair_ids: set[str] | None = None) -> Split:
    """Read one SNLI JSONL file. ``limit`` > 0 keeps the first ``limit`` labelled pairs (``"-"`` pairs are
    dropped before counting); ``pair_ids`` keeps only those pairs."""
    path = Path(path)
    pairs, dropped, lines = [], 0, 0
    labels: Counter = Counter()
    with _open(path) as fh:
        lineno = 0
        while True:
            lineno += 1
            try:
                raw = fh.readline()
            except (UnicodeDecodeError, EOFError, OSError) as err:  # gzip or encoding damage
                raise DataFormatError(path, lineno, f"unreadable line ({type(err).__name__}: {err})") from None
            if not raw:
                break
            if not raw.strip():
                continue
            lines += 1
            rec = _record(raw, path, lineno)
            gold = rec["gold_label"]
            if gold == NO_GOLD:
                dropped += 1
                continue
            if gold not in LABELS:
                raise DataFormatError(path, lineno, f"gold_label {gold!r} is not one of "
                                      f"{', '.join(LABELS)} or {NO_GOLD!r}")
            pid = str(rec.get("pairID", f"{path.name}:{lineno}"))
            if pair_ids is not None and pid not in pair_ids:
                continue
            premise = parse_tokens(rec["sentence1_binary_parse"], lowercase)
            hypothesis = parse_tokens(rec["sentence2_binary_parse"], lowercase)
            if not premise or not hypothesis:
                raise DataFormatError(path, lineno, f"empty {'premise' if not premise else 'hypothesis'}")
            pairs.append(Pair(pid, premise, hypothesis, LABELS.index(gold), lineno))
            labels[gold] += 1
            if limit and len(pairs) >= limit:
                break
    return Split(name or path.name, pairs, dropped, lines, dict(sorted(labels.items())))


def _record(raw: str, path: Path, lineno: int) -> dict:
    try:
        rec = json.loads(raw)
    except json.JSONDecodeError as err:
        raise DataFormatError(path, lineno, f"not valid JSON ({err.msg} at column {err.colno}): {raw[:80]!r}") from None
    if not isinstance(rec, dict):
        raise DataFormatError(path, lineno, f"expected a JSON object, got {type(rec).__name__}")
    missing = [f for f in FIELDS if not isinstance(rec.get(f), str)]
    if missing:
        raise DataFormatError(path, lineno, f"missing or non-string field(s) {', '.join(missing)}")
    return rec


def split_file(spec: str, root: Path) -> Path:
    """``<dataset>/<path>`` under the data root; :class:`MissingDataError` (naming the fetch command) if absent."""
    dataset, _, rel = str(spec).partition("/")
    if not rel:
        raise ValueError(f"data split {spec!r}: expected '<dataset>/<path under it>'")
    path = Path(root) / dataset / rel
    if not path.is_file():
        raise MissingDataError(dataset, f"{dataset}/{rel}", root)
    return path


def load_splits(specs: dict[str, str], root: Path, lowercase: bool, limits: dict[str, int] | None = None
                ) -> dict[str, Split]:
    """Every split of ``specs`` ({split name: ``<dataset>/<path>``}); each file is read whole before training,
    so a malformed line fails at once."""
    limits = limits or {}
    files = {name: split_file(spec, root) for name, spec in specs.items()}   # all missing files fail first
    return {name: read_jsonl(path, lowercase, int(limits.get(name, 0) or 0), name) for name, path in files.items()}


# ---------------------------------------------------------------- vocabulary and batches
def build_vocab(splits: Iterable[Sequence[Pair]]) -> Vocab:
    """Every word of the given pairs (premises and hypotheses), most frequent first.

    The embeddings are fixed pretrained vectors, so a word of dev or test gets its published vector as
    well; no label is involved.
    """
    counts: Counter = Counter()
    for pairs in splits:
        for p in pairs:
            counts.update(p.premise)
            counts.update(p.hypothesis)
    return Vocab.from_counts(counts, specials=SPECIALS, joiner=" ")


class PairDataset(torch.utils.data.Dataset):
    """Encoded pairs: ``(premise ids, hypothesis ids, label)``."""

    def __init__(self, pairs: Sequence[Pair], vocab: Vocab):
        self.pairs = list(pairs)
        self.items = [(vocab.encode(p.premise), vocab.encode(p.hypothesis), p.label) for p in self.pairs]

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def collate(items, pad_id: int = 0) -> dict[str, torch.Tensor]:
    """A batch dict: ``premise`` (B,L), ``premise_len`` (B,), ``hypothesis`` (B,M), ``hypothesis_len`` (B,),
    ``label`` (B,); padded with ``pad_id``."""
    prem, hyp, labels = zip(*items)

    def pad(seqs):
        lens = torch.tensor([len(s) for s in seqs], dtype=torch.long)
        out = torch.full((len(seqs), int(lens.max())), pad_id, dtype=torch.long)
        for i, s in enumerate(seqs):
            out[i, : len(s)] = torch.tensor(s, dtype=torch.long)
        return out, lens

    p, pl = pad(prem)
    h, hl = pad(hyp)
    return {"premise": p, "premise_len": pl, "hypothesis": h, "hypothesis_len": hl,
            "label": torch.tensor(labels, dtype=torch.long)}
