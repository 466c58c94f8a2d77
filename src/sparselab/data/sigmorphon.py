"""CoNLL–SIGMORPHON 2018 task 1 (type-level inflection): the format -- parser, symbols, prediction files, scoring.

Files live under ``<data root>/sigmorphon2018_task1/{all,surprise}/<language>-{train-<setting>,dev,test}``
(or the same name + ``.gz``: the shipped excerpts, :mod:`sparselab.data.excerpt`), one example per line: ``lemma<TAB>form<TAB>tags`` (tags joined by ``;``).

Multilingual encoding (Peters et al. 2019, following Kann & Schütze): the source is the language
token, then the tags (one symbol each), then the lemma's characters; the target is the form's
characters.  Spaces are ordinary characters (kept as the symbol ``" "``).
Vocabularies, batching and padding are the generic ones of :mod:`sparselab.data.text`.
"""
from __future__ import annotations

import gzip
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from sparselab.errors import DataFormatError, MissingDataError
from sparselab.locations import data_root
from sparselab.data.text import PairDataset, Vocab
from sparselab.errors import ConfigError

DATASET = "sigmorphon2018_task1"
FOLDERS = ("all", "surprise")
SETTINGS = ("low", "medium", "high")
SPECIALS = {"pad": "<pad>", "bos": "<s>", "eos": "</s>", "unk": "<unk>"}


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
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as fh:
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
    name = Path(path).name.removesuffix(".gz")
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
        raise ValueError(f"data.resource={setting!r}: must be one of {', '.join(SETTINGS)}")
    base = dataset_dir(root)
    found = {}
    for folder in FOLDERS:
        d = base / folder
        if not d.is_dir():
            continue
        for p in [*d.glob(f"*-train-{setting}"), *d.glob(f"*-train-{setting}.gz")]:
            found[language_of(p)] = d
    if not found:
        raise MissingDataError(DATASET, f"{DATASET}/all/*-train-{setting}", data_root(root))
    return sorted(found.items())


def split_file(folder: Path, lang: str, split: str, setting: str) -> Path:
    name = f"{lang}-train-{setting}" if split == "train" else f"{lang}-{split}"
    p = folder / name
    if not p.exists() and p.with_name(name + ".gz").exists():
        return p.with_name(name + ".gz")
    if not p.exists():
        raise MissingDataError(DATASET, p, folder.parent.parent)
    return p


def load_split(setting: str, split: str, root=None, max_languages: int = 0, per_language: int = 0,
               langs: Sequence[str] | None = None) -> dict[str, list[Example]]:
    """{language: examples} for one split (train/dev/test) of a setting; ``per_language`` > 0 keeps the
    first that many lines of each file (deterministic subsample). ``langs`` (``data.languages``): only
    these languages (null/empty = all of the setting); a name the setting lacks is an error.
    ``max_languages`` > 0 then keeps the first N (sorted)."""
    pairs = languages(setting, root)
    if langs:
        wanted = set(langs)
        unknown = sorted(wanted - {lang for lang, _ in pairs})
        if unknown:
            raise ConfigError(f"data.languages: {', '.join(map(repr, unknown))} not in the {setting} setting; "
                             f"valid: {', '.join(lang for lang, _ in pairs)}")
        pairs = [p for p in pairs if p[0] in wanted]
    if max_languages and max_languages > 0:
        pairs = pairs[:max_languages]
    out = {}
    for lang, folder in pairs:
        exs = read_file(split_file(folder, lang, split, setting), lang)
        out[lang] = exs[:per_language] if per_language and per_language > 0 else exs
    return out


# ---------------------------------------------------------------- symbols -> vocabularies, dataset
# The generic pieces (Vocab, PairDataset, BucketBatchSampler, collate) live in sparselab.data.text;
# this format only decides which symbols there are.

def make_vocab(symbols: Iterable[str] = ()) -> Vocab:
    """Character vocabulary: specials <pad> <s> </s> <unk> (ids 0-3), joined with "", unk printed as "?"."""
    return Vocab(symbols, specials=SPECIALS, joiner="", unk_text="?")


def build_vocabs(train: dict[str, list[Example]]) -> tuple[Vocab, Vocab]:
    src, tgt = set(), set()
    for lang, exs in train.items():
        src.add(lang_symbol(lang))
        for e in exs:
            src.update(e.source_symbols())
            tgt.update(e.form)
    return make_vocab(src), make_vocab(tgt)


def all_examples(data: dict[str, list[Example]]) -> list[Example]:
    """All examples, languages sorted, each language's file order kept (the dataset's item order)."""
    return [e for lang in sorted(data) for e in data[lang]]


def dataset(data: dict[str, list[Example]], src: Vocab, tgt: Vocab) -> PairDataset:
    """Items ``(source ids, form ids + EOS, index)`` in :func:`all_examples` order."""
    return PairDataset.from_symbols(((e.source_symbols(), e.form) for e in all_examples(data)), src, tgt)


# ---------------------------------------------------------------- shared-task prediction files

def write_predictions(path: Path, examples: Sequence[Example], predictions: Sequence[str]) -> None:
    """Shared-task format: ``lemma<TAB>predicted form<TAB>tags`` per line."""
    with open(path, "w", encoding="utf-8") as fh:
        for e, p in zip(examples, predictions):
            fh.write(f"{e.lemma}\t{p}\t{';'.join(e.tags)}\n")


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance (unit costs), as the shared task's evalm.py computes it."""
    if a == b:                  # most predictions: skips the quadratic table (rescoring a report was ~20 CPU-s)
        return 0
    if len(b) > len(a):         # symmetric: the shorter string along the inner loop
        a, b = b, a
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
