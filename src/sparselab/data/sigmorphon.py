"""CoNLL–SIGMORPHON 2018 task 1 (type-level inflection): parser, vocabularies, multilingual dataset.

Files live under ``<data root>/sigmorphon2018_task1/{all,surprise}/<language>-{train-<setting>,dev,test}``,
one example per line: ``lemma<TAB>form<TAB>tags`` (tags joined by ``;``).

Multilingual encoding (Peters et al. 2019, following Kann & Schütze): the source is the language
token, then the tags (one symbol each), then the lemma's characters; the target is the form's
characters.  Spaces are ordinary characters (kept as the symbol ``" "``).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

import torch

from sparselab.data.errors import DataFormatError, MissingDataError
from sparselab.data.root import data_root

DATASET = "sigmorphon2018_task1"
FOLDERS = ("all", "surprise")
SETTINGS = ("low", "medium", "high")
PAD, BOS, EOS, UNK = "<pad>", "<s>", "</s>", "<unk>"
SPECIALS = (PAD, BOS, EOS, UNK)
PAD_ID, BOS_ID, EOS_ID, UNK_ID = 0, 1, 2, 3


@dataclass(frozen=True)
class Example:
    lang: str
    lemma: str
    form: str
    tags: tuple[str, ...]

    def source_symbols(self) -> list[str]:
        return [lang_symbol(self.lang)] + [tag_symbol(t) for t in self.tags] + list(self.lemma)


def lang_symbol(lang: str) -> str:
    return f"<L:{lang}>"


def tag_symbol(tag: str) -> str:
    return f"<T:{tag}>"


# ---------------------------------------------------------------- parsing

def read_file(path: str | Path, lang: str | None = None, covered: bool = False,
              allow_empty_form: bool = False) -> list[Example]:
    """Parse one shared-task file. Blank lines are skipped; anything else malformed raises
    :class:`DataFormatError` naming ``file:line``."""
    path = Path(path)
    lang = lang or language_of(path)
    want = 2 if covered else 3
    out: list[Example] = []
    with open(path, encoding="utf-8") as fh:
        for lineno, raw in enumerate(fh, 1):
            line = raw.rstrip("\n").rstrip("\r")
            if not line.strip():
                continue
            fields = line.split("\t")
            if len(fields) != want:
                raise DataFormatError(path, lineno, f"expected {want} tab-separated fields "
                                      f"(lemma, {'' if covered else 'form, '}tags), got {len(fields)}: {line[:80]!r}")
            if covered:
                lemma, tags = fields
                form = ""
            else:
                lemma, form, tags = fields
                if not form and not allow_empty_form:
                    raise DataFormatError(path, lineno, "empty inflected form")
            if not lemma:
                raise DataFormatError(path, lineno, "empty lemma")
            tag_list = tuple(t for t in tags.split(";"))
            if not tags or any(not t for t in tag_list):
                raise DataFormatError(path, lineno, f"malformed tag bundle {tags!r}")
            out.append(Example(lang, lemma, form, tag_list))
    return out


def language_of(path: Path) -> str:
    name = Path(path).name
    for suffix in ("-covered-test", "-test", "-dev", "-train-high", "-train-medium", "-train-low"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def dataset_dir(root: str | Path | None = None) -> Path:
    base = data_root(root) / DATASET
    if not base.is_dir():
        raise MissingDataError(DATASET, f"{DATASET}/all/<language>-train-medium", data_root(root))
    return base


def languages(setting: str, root: str | Path | None = None) -> list[tuple[str, Path]]:
    """Sorted (language, folder) pairs that have a ``train-<setting>`` file."""
    if setting not in SETTINGS:
        raise ValueError(f"data.setting={setting!r}: must be one of {', '.join(SETTINGS)}")
    base = dataset_dir(root)
    found = {}
    for folder in FOLDERS:
        d = base / folder
        if not d.is_dir():
            continue
        for p in d.glob(f"*-train-{setting}"):
            found[language_of(p)] = d
    if not found:
        raise MissingDataError(DATASET, f"{DATASET}/all/*-train-{setting}", data_root(root))
    return sorted(found.items())


def split_file(folder: Path, lang: str, split: str, setting: str) -> Path:
    name = f"{lang}-train-{setting}" if split == "train" else f"{lang}-{split}"
    p = folder / name
    if not p.exists():
        raise MissingDataError(DATASET, p, folder.parent.parent)
    return p


def load_split(setting: str, split: str, root=None, max_languages: int = 0, per_language: int = 0,
               langs: Sequence[str] | None = None) -> dict[str, list[Example]]:
    """{language: examples} for one split (train/dev/test) of a setting; ``per_language`` > 0 keeps the
    first that many lines of each file (deterministic subsample)."""
    pairs = languages(setting, root)
    if langs:
        pairs = [p for p in pairs if p[0] in set(langs)]
    if max_languages and max_languages > 0:
        pairs = pairs[:max_languages]
    out = {}
    for lang, folder in pairs:
        exs = read_file(split_file(folder, lang, split, setting), lang)
        out[lang] = exs[:per_language] if per_language and per_language > 0 else exs
    return out


# ---------------------------------------------------------------- vocabularies

class Vocab:
    def __init__(self, symbols: Iterable[str]):
        self.itos: list[str] = list(SPECIALS) + sorted(set(symbols) - set(SPECIALS))
        self.stoi = {s: i for i, s in enumerate(self.itos)}

    def __len__(self) -> int:
        return len(self.itos)

    def encode(self, symbols: Iterable[str]) -> list[int]:
        return [self.stoi.get(s, UNK_ID) for s in symbols]

    def decode(self, ids: Iterable[int]) -> str:
        out = []
        for i in ids:
            i = int(i)
            if i == EOS_ID:
                break
            if i in (PAD_ID, BOS_ID):
                continue
            out.append(self.itos[i] if i != UNK_ID else "?")
        return "".join(out)

    def to_list(self) -> list[str]:
        return list(self.itos)

    @classmethod
    def from_list(cls, itos: list[str]) -> "Vocab":
        v = cls([])
        v.itos = list(itos)
        v.stoi = {s: i for i, s in enumerate(v.itos)}
        return v


def build_vocabs(train: dict[str, list[Example]]) -> tuple[Vocab, Vocab]:
    src, tgt = set(), set()
    for lang, exs in train.items():
        src.add(lang_symbol(lang))
        for e in exs:
            src.update(e.source_symbols())
            tgt.update(e.form)
    return Vocab(src), Vocab(tgt)


def save_vocabs(path: Path, src: Vocab, tgt: Vocab) -> None:
    Path(path).write_text(json.dumps({"src": src.to_list(), "tgt": tgt.to_list()}, ensure_ascii=False))


def load_vocabs(path: Path) -> tuple[Vocab, Vocab]:
    d = json.loads(Path(path).read_text())
    return Vocab.from_list(d["src"]), Vocab.from_list(d["tgt"])


# ---------------------------------------------------------------- dataset

class InflectionDataset(torch.utils.data.Dataset):
    """Examples of several languages, encoded; items are (src ids, tgt ids with EOS, index)."""

    def __init__(self, data: dict[str, list[Example]], src: Vocab, tgt: Vocab):
        self.examples: list[Example] = [e for lang in sorted(data) for e in data[lang]]
        self.src_ids = [src.encode(e.source_symbols()) for e in self.examples]
        self.tgt_ids = [tgt.encode(e.form) + [EOS_ID] for e in self.examples]

    def __len__(self) -> int:
        return len(self.examples)

    def __getitem__(self, i):
        return self.src_ids[i], self.tgt_ids[i], i


class BucketBatchSampler(torch.utils.data.Sampler):
    """Shuffled batches of similar target length (OpenNMT-style pools), so a batch pads to few steps.

    Each epoch: shuffle all indices, cut them into pools of ``pool`` batches, sort each pool by
    (target, source) length, cut it into batches, shuffle the batch order. The decoder runs one step
    per target position of the longest item, so unsorted batches waste most steps on padding.
    """

    def __init__(self, dataset: InflectionDataset, batch_size: int, seed: int = 0, pool: int = 50):
        self.lengths = [(len(t), len(s)) for s, t in zip(dataset.src_ids, dataset.tgt_ids)]
        self.batch_size, self.pool, self.seed, self.epoch = int(batch_size), int(pool), int(seed), 0

    def __len__(self) -> int:
        return -(-len(self.lengths) // self.batch_size)

    def __iter__(self):
        g = torch.Generator().manual_seed(self.seed * 100003 + self.epoch)
        self.epoch += 1
        order = torch.randperm(len(self.lengths), generator=g).tolist()
        span = self.batch_size * self.pool
        batches = []
        for i in range(0, len(order), span):
            chunk = sorted(order[i: i + span], key=self.lengths.__getitem__)
            batches += [chunk[j: j + self.batch_size] for j in range(0, len(chunk), self.batch_size)]
        for k in torch.randperm(len(batches), generator=g).tolist():
            yield batches[k]


def collate(batch):
    """Pad a batch: src (B,S), src_len (B,), tgt_in (B,T) starting with BOS, tgt_out (B,T) ending in EOS, idx."""
    srcs, tgts, idx = zip(*batch)
    B = len(batch)
    S = max(len(s) for s in srcs)
    T = max(len(t) for t in tgts)
    src = torch.full((B, S), PAD_ID, dtype=torch.long)
    tgt_in = torch.full((B, T), PAD_ID, dtype=torch.long)
    tgt_out = torch.full((B, T), PAD_ID, dtype=torch.long)
    for b, (s, t) in enumerate(zip(srcs, tgts)):
        src[b, : len(s)] = torch.tensor(s)
        tgt_out[b, : len(t)] = torch.tensor(t)
        tgt_in[b, 0] = BOS_ID
        tgt_in[b, 1: len(t)] = torch.tensor(t[:-1])
    lens = torch.tensor([len(s) for s in srcs])
    return {"src": src, "src_len": lens, "tgt_in": tgt_in, "tgt_out": tgt_out, "idx": torch.tensor(idx)}


# ---------------------------------------------------------------- shared-task prediction files

def write_predictions(path: Path, examples: Sequence[Example], predictions: Sequence[str]) -> None:
    """Shared-task format: ``lemma<TAB>predicted form<TAB>tags`` per line."""
    with open(path, "w", encoding="utf-8") as fh:
        for e, p in zip(examples, predictions):
            fh.write(f"{e.lemma}\t{p}\t{';'.join(e.tags)}\n")


def edit_distance(a: str, b: str) -> int:
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def score_files(pred_path: Path, gold_path: Path, allow_prefix: bool = False) -> dict[str, float]:
    """Accuracy (%) and mean Levenshtein distance of a prediction file against a gold file, both in
    shared-task format (``lemma<TAB>form<TAB>tags``), line by line as the official evaluation does.
    ``allow_prefix``: the predictions may cover only the first lines of the gold file (a subsample);
    lemma and tags must agree line by line either way."""
    pred = read_file(pred_path, covered=False, allow_empty_form=True)
    gold = read_file(gold_path, covered=False)
    if allow_prefix and len(pred) <= len(gold):
        gold = gold[: len(pred)]
    if len(pred) != len(gold):
        raise ValueError(f"{pred_path}: {len(pred)} predictions for {len(gold)} gold lines in {gold_path}")
    for i, (p, g) in enumerate(zip(pred, gold), 1):
        if p.lemma != g.lemma or p.tags != g.tags:
            raise ValueError(f"{pred_path}:{i}: lemma/tags {p.lemma!r} {';'.join(p.tags)} do not match "
                             f"{gold_path}:{i} ({g.lemma!r} {';'.join(g.tags)})")
    if not gold:
        return {"accuracy": 0.0, "edit_distance": 0.0, "n": 0}
    correct = sum(p.form == g.form for p, g in zip(pred, gold))
    dist = sum(edit_distance(p.form, g.form) for p, g in zip(pred, gold))
    return {"accuracy": 100.0 * correct / len(gold), "edit_distance": dist / len(gold), "n": len(gold)}
