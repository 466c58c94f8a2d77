"""Parallel corpora for machine translation (Peters, Niculae & Martins 2019, Table 2): readers and layout.

A **corpus** (:data:`CORPORA`) names a dataset of the registry, its two languages, and where each split's two
sides live and in which format. A split is read as ``(source, target)`` sentence pairs in the requested
direction. Every reader checks alignment while it reads: two plain-text sides with different line counts, an
undecodable line, an empty sentence (unless ``empty="drop"``), a JSON record without both languages or an XML
file whose segment ids differ raise :class:`~sparselab.errors.DataFormatError` naming ``file:line``;
a file that is not under the data root raises :class:`~sparselab.errors.MissingDataError` naming the
fetch command. The translation task reads every split it will use before it trains, so these surface at once.

Formats (``Source.fmt``):

- ``text``: one sentence per line, the two languages in two files (``.gz`` read transparently);
- ``json``: the Hugging Face ``iwslt2017`` dump, a JSON list of ``{"translation": {l1: …, l2: …}}`` (``.gz`` ok);
  the "line" of an error is the record number (1-based);
- ``tags``: IWSLT/WIT3 ``train.tags.<pair>.<lang>``: metadata lines (``<url>``, ``<talkid>``, …, starting with
  ``<``) are skipped, the remaining lines are aligned 1:1;
- ``xml``: IWSLT/WMT ``<seg id="N"> … </seg>`` lines (``.xml`` / ``.sgm``); both sides must list the same ids.

Several files per side (``paths`` with more than one pattern) are concatenated (WMT16 ro–en: Europarl v8 +
SETIMES2; WMT14 en–de: Europarl v7 + Common Crawl + News Commentary v9). Offline corpora here (``../shared/data``): ``multi30k`` (de–en, raw, cased), ``small_parallel_enja``
(ja–en, **already tokenized and lowercased**: English by the Stanford tokenizer, Japanese by KyTea, so no
tokenizer runs on it), and the dev/test-only ``iwslt2017`` (JSON), ``kftt`` (raw; Japanese needs MeCab),
``wmt16`` and ``wmt14`` (raw). The papers' training sets (``iwslt2017_de_en_full``, ``kftt_full``,
``wmt16_ro_en_full``; ``wmt14_en_de_full`` for Correia et al. 2019's en-de) are in the registry with their
official upstream URLs and fetched by users with internet.
"""
from __future__ import annotations

import gzip
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from sparselab.errors import DataFormatError, MissingDataError
from sparselab.locations import data_root
from sparselab.errors import ConfigError

FORMATS = ("text", "json", "tags", "xml")


@dataclass(frozen=True)
class Source:
    """One split: ``dataset`` (registry name, a folder of the data root), ``paths`` (patterns with ``{lang}``,
    concatenated in order), ``fmt`` (one of :data:`FORMATS`)."""

    dataset: str
    paths: tuple[str, ...]
    fmt: str = "text"

    def files(self, lang: str, root: Path) -> list[Path]:
        return [root / self.dataset / p.format(lang=lang) for p in self.paths]


@dataclass(frozen=True)
class Corpus:
    """``langs``: the corpus's two languages; ``pretokenized``: the text is already tokenized (and
    ``lowercased``), so preprocessing only splits on spaces."""

    name: str
    langs: tuple[str, str]
    splits: dict[str, Source]
    pretokenized: bool = False
    lowercased: bool = False
    note: str = ""


def _src(dataset: str, *paths: str, fmt: str = "text") -> Source:
    return Source(dataset, tuple(paths), fmt)


_M30K = "task1/raw/{split}.{{lang}}.gz"
CORPORA: dict[str, Corpus] = {
    "multi30k": Corpus("multi30k", ("de", "en"), {
        "train": _src("multi30k", _M30K.format(split="train")),
        "val": _src("multi30k", _M30K.format(split="val")),
        "test2016": _src("multi30k", _M30K.format(split="test_2016_flickr")),
        "test2017": _src("multi30k", _M30K.format(split="test_2017_flickr")),
        "mscoco2017": _src("multi30k", _M30K.format(split="test_2017_mscoco")),
        "test2018": _src("multi30k", _M30K.format(split="test_2018_flickr")),
    }, note="Multi30K task 1, raw (untokenized, cased) image descriptions; 29k training pairs"),
    "small_parallel_enja": Corpus("small_parallel_enja", ("ja", "en"), {
        "train": _src("small_parallel_enja", "train.{lang}.gz"),
        "dev": _src("small_parallel_enja", "dev.{lang}"),
        "test": _src("small_parallel_enja", "test.{lang}"),
    }, pretokenized=True, lowercased=True,
        note="Tanaka corpus, 50k pairs; already tokenized (en: Stanford tokenizer, ja: KyTea) and lowercased"),
    "iwslt2017": Corpus("iwslt2017", ("de", "en"), {
        # the paper's training set (official WIT3 archive, fetched by users with internet)
        "train": _src("iwslt2017_de_en_full", "de-en/train.tags.de-en.{lang}", fmt="tags"),
        "dev": _src("iwslt2017_de_en", "validation.json", fmt="json"),          # dev2010 (888)
        "test": _src("iwslt2017_de_en", "test.json.gz", fmt="json"),            # tst2010-2015 (8,079)
    }, note="IWSLT 2017 TED talks, raw; dev/test offline from the HF dump, train from the official archive"),
    "kftt": Corpus("kftt", ("ja", "en"), {
        "train": _src("kftt_full", "kftt-data-1.0/data/orig/kyoto-train.{lang}"),
        "dev": _src("kftt", "kyoto-dev.{lang}"),
        "test": _src("kftt", "kyoto-test.{lang}"),
    }, note="KFTT 1.0 (Wikipedia Kyoto articles), original untokenized text; Japanese is tokenized with MeCab"),
    "wmt16": Corpus("wmt16", ("ro", "en"), {
        "train": _src("wmt16_ro_en_full", "training/europarl-v8.ro-en.{lang}", "SETIMES2.en-ro.{lang}"),
        "dev": _src("wmt16_ro_en", "newsdev2016.{lang}"),
        "test": _src("wmt16_ro_en", "newstest2016.{lang}"),
    }, note="WMT16 ro-en: Europarl v8 + SETIMES2 for training, newsdev2016 / newstest2016, raw"),
    "wmt14": Corpus("wmt14", ("en", "de"), {
        # Correia et al. 2019's en-de: the WMT14 training data (official statmt.org archives, fetched by users)
        "train": _src("wmt14_en_de_full", "training/europarl-v7.de-en.{lang}", "commoncrawl.de-en.{lang}",
                      "training/news-commentary-v9.de-en.{lang}"),
        "dev": _src("wmt14_en_de", "newstest2013.{lang}"),                     # 3,000
        "test": _src("wmt14_en_de", "newstest2014.{lang}"),                    # full version, 3,003
    }, note="WMT14 en-de: Europarl v7 + Common Crawl + News Commentary v9 for training, newstest2013 / "
            "newstest2014 (full, 3,003), raw"),
}


@dataclass
class ParallelSplit:
    """Aligned sentences of one split in one direction; ``files`` the (source, target) files read."""

    name: str
    src_lang: str
    tgt_lang: str
    src: list[str]
    tgt: list[str]
    files: tuple[list[str], list[str]] = field(default_factory=lambda: ([], []))
    dropped_empty: int = 0

    def __len__(self) -> int:
        return len(self.src)

    def head(self, n: int) -> "ParallelSplit":
        """The first ``n`` pairs (``n`` ≤ 0: all)."""
        if n <= 0 or n >= len(self):
            return self
        return ParallelSplit(self.name, self.src_lang, self.tgt_lang, self.src[:n], self.tgt[:n], self.files,
                             self.dropped_empty)


# ------------------------------------------------------------------ low-level readers

def _open_text(path: Path):
    return gzip.open(path, "rb") if path.suffix == ".gz" else open(path, "rb")


def read_lines(path: str | Path) -> list[str]:
    """Lines of a UTF-8 text file (``.gz`` transparently), without their line ends. An undecodable line
    raises :class:`DataFormatError` with its line number; a missing file :class:`FileNotFoundError`."""
    path = Path(path)
    out = []
    with _open_text(path) as fh:
        for lineno, raw in enumerate(fh, 1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as err:
                raise DataFormatError(path, lineno, f"not valid UTF-8 ({err.reason} at byte {err.start})") from None
            out.append(line.rstrip("\n").rstrip("\r"))
    return out


def _check_aligned(a: Path, na: int, b: Path, nb: int, unit: str = "lines") -> None:
    if na == nb:
        return
    longer, n_long, shorter, n_short = (a, na, b, nb) if na > nb else (b, nb, a, na)
    raise DataFormatError(longer, n_short + 1, f"misaligned parallel files: this {unit[:-1]} has no counterpart in "
                          f"{shorter} ({shorter} has {n_short} {unit}, {longer.name} has {n_long})")


def read_text_pair(a: str | Path, b: str | Path) -> tuple[list[str], list[str]]:
    """Both sides of a plain-text parallel pair; different line counts raise :class:`DataFormatError`
    at the first line without a counterpart, in the longer file."""
    a, b = Path(a), Path(b)
    la, lb = read_lines(a), read_lines(b)
    _check_aligned(a, len(la), b, len(lb))
    return la, lb


def read_tags_pair(a: str | Path, b: str | Path) -> tuple[list[str], list[str]]:
    """IWSLT ``train.tags`` files: lines starting with ``<`` are talk metadata and skipped on both sides."""
    a, b = Path(a), Path(b)

    def body(path):
        return [(i, s) for i, s in enumerate(read_lines(path), 1) if not s.lstrip().startswith("<")]

    ba, bb = body(a), body(b)
    if len(ba) != len(bb):
        longer, shorter, n = (a, b, len(bb)) if len(ba) > len(bb) else (b, a, len(ba))
        lineno = (ba if longer == a else bb)[n][0]
        raise DataFormatError(longer, lineno, f"misaligned parallel files: this sentence has no counterpart in "
                              f"{shorter} ({len(ba)} sentences in {a.name}, {len(bb)} in {b.name})")
    return [s for _, s in ba], [s for _, s in bb]


_SEG = re.compile(r'<seg\s+id\s*=\s*"?([^">\s]+)"?\s*>(.*?)</seg>', re.IGNORECASE)


def _read_segs(path: Path) -> list[tuple[int, str, str]]:
    out = []
    for lineno, line in enumerate(read_lines(path), 1):
        if "<seg" not in line.lower():
            continue
        m = _SEG.search(line)
        if m is None:
            raise DataFormatError(path, lineno, f"malformed <seg> line: {line.strip()[:80]!r}")
        out.append((lineno, m.group(1), m.group(2).strip()))
    return out


def read_xml_pair(a: str | Path, b: str | Path) -> tuple[list[str], list[str]]:
    """IWSLT ``.xml`` / WMT ``.sgm`` files: ``<seg id="N">`` lines, matched by position; the ids must agree."""
    a, b = Path(a), Path(b)
    sa, sb = _read_segs(a), _read_segs(b)
    for (la, ia, _), (lb, ib, _) in zip(sa, sb):
        if ia != ib:
            raise DataFormatError(b, lb, f"misaligned parallel files: segment id {ib!r} here, {ia!r} at {a}:{la}")
    if len(sa) != len(sb):
        longer, n = (a, len(sb)) if len(sa) > len(sb) else (b, len(sa))
        lineno = (sa if longer == a else sb)[n][0]
        raise DataFormatError(longer, lineno, f"misaligned parallel files: this segment has no counterpart "
                              f"({len(sa)} segments in {a.name}, {len(sb)} in {b.name})")
    return [s for *_, s in sa], [s for *_, s in sb]


def read_json_pairs(path: str | Path, la: str, lb: str) -> tuple[list[str], list[str]]:
    """HF ``translation`` JSON list; a record without both languages raises at its record number."""
    path = Path(path)
    with _open_text(path) as fh:
        raw = fh.read()
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as err:
        raise DataFormatError(path, raw.count(b"\n", 0, err.start) + 1, f"not valid UTF-8 ({err.reason})") from None
    except json.JSONDecodeError as err:
        raise DataFormatError(path, err.lineno, f"invalid JSON: {err.msg} (column {err.colno})") from None
    if not isinstance(data, list):
        raise DataFormatError(path, 1, "expected a JSON list of {\"translation\": {...}} records")
    xa, xb = [], []
    for i, rec in enumerate(data, 1):
        tr = rec.get("translation") if isinstance(rec, dict) else None
        if not isinstance(tr, dict) or not isinstance(tr.get(la), str) or not isinstance(tr.get(lb), str):
            raise DataFormatError(path, i, f"record {i}: expected {{\"translation\": {{\"{la}\": str, \"{lb}\": str}}}}, "
                                  f"got {str(rec)[:80]!r}")
        xa.append(tr[la])
        xb.append(tr[lb])
    return xa, xb


# ------------------------------------------------------------------ corpus level

def parse_pair(pair: str) -> tuple[str, str]:
    """``"de-en"`` -> ``("de", "en")``."""
    parts = str(pair).split("-")
    if len(parts) != 2 or not all(parts) or parts[0] == parts[1]:
        raise ConfigError(f"data.pair={pair!r}: expected <source>-<target>, e.g. de-en")
    return parts[0], parts[1]


def get_corpus(name: str) -> Corpus:
    try:
        return CORPORA[name]
    except KeyError:
        raise ConfigError(f"unknown corpus {name!r}; corpora: {', '.join(CORPORA)}") from None


def read_split(spec: str, src_lang: str, tgt_lang: str, root: str | Path | None = None,
               empty: str = "error") -> ParallelSplit:
    """Read ``"<corpus>/<split>"`` (e.g. ``"multi30k/test2016"``) as (source, target) pairs.

    ``empty``: ``"error"`` (an empty sentence on either side raises :class:`DataFormatError`) or ``"drop"``
    (pairs with an empty side are left out and counted in ``dropped_empty``; large crawled training corpora
    have a few)."""
    corpus_name, _, split = str(spec).partition("/")
    corpus = get_corpus(corpus_name)
    if split not in corpus.splits:
        raise ConfigError(f"corpus {corpus_name!r} has no split {split!r}; splits: {', '.join(corpus.splits)}")
    if {src_lang, tgt_lang} != set(corpus.langs):
        raise ConfigError(f"corpus {corpus_name!r} is {'-'.join(corpus.langs)}, not {src_lang}-{tgt_lang}")
    if empty not in ("error", "drop"):
        raise ValueError(f"empty={empty!r}: must be 'error' or 'drop'")
    source = corpus.splits[split]
    root = data_root(root)
    la, lb = corpus.langs
    fa, fb = source.files(la, root), source.files(lb, root)
    for f in fa + fb:
        if not f.is_file():
            raise MissingDataError(source.dataset, f.relative_to(root), root)
    xa: list[str] = []
    xb: list[str] = []
    starts = []  # (file a, file b, offset) per concatenated part, to name files in errors
    for pa, pb in zip(fa, fb):
        starts.append((pa, pb, len(xa)))
        if source.fmt == "text":
            a, b = read_text_pair(pa, pb)
        elif source.fmt == "tags":
            a, b = read_tags_pair(pa, pb)
        elif source.fmt == "xml":
            a, b = read_xml_pair(pa, pb)
        elif source.fmt == "json":
            a, b = read_json_pairs(pa, la, lb)
        else:
            raise ValueError(f"unknown format {source.fmt!r}; formats: {', '.join(FORMATS)}")
        xa += a
        xb += b
    keep_a, keep_b, dropped = [], [], 0
    for i, (a, b) in enumerate(zip(xa, xb)):
        if a.strip() and b.strip():
            keep_a.append(a.strip())
            keep_b.append(b.strip())
            continue
        if empty == "drop":
            dropped += 1
            continue
        pa, pb, off = next(s for s in reversed(starts) if s[2] <= i)
        bad = pa if not a.strip() else pb
        where = "record" if source.fmt == "json" else "sentence"
        raise DataFormatError(bad, i - off + 1, f"empty {where} in a parallel corpus (its counterpart in "
                              f"{pb if bad == pa else pa} is {(b if bad == pa else a)[:60]!r})")
    src, tgt = (keep_a, keep_b) if src_lang == la else (keep_b, keep_a)
    files = ([str(p) for p in fa], [str(p) for p in fb])
    if src_lang != la:
        files = (files[1], files[0])
    return ParallelSplit(spec, src_lang, tgt_lang, src, tgt, files, dropped)


def corpus_of(spec: str) -> Corpus:
    return get_corpus(str(spec).partition("/")[0])


def read_splits(specs: dict[str, str], src_lang: str, tgt_lang: str, root=None,
                empty: dict[str, str] | None = None) -> dict[str, ParallelSplit]:
    """Read several splits (``{role: "<corpus>/<split>"}``) up front; the first problem raises."""
    empty = empty or {}
    return {role: read_split(spec, src_lang, tgt_lang, root, empty.get(role, "error")) for role, spec in specs.items()}


def describe_corpora(names: Iterable[str] | None = None) -> dict[str, dict]:
    """Plain-container summary of corpora (for run records)."""
    out = {}
    for n in names or CORPORA:
        c = get_corpus(n)
        out[n] = {"langs": list(c.langs), "splits": {k: {"dataset": s.dataset, "paths": list(s.paths), "format": s.fmt}
                                                     for k, s in c.splits.items()},
                  "pretokenized": c.pretokenized, "lowercased": c.lowercased, "note": c.note}
    return out
