"""Machine-translation preprocessing: tokenization, BPE, detokenization, with an on-disk cache.

* **Tokenization** (:class:`Tokenizer`), per language and corpus:

  - ``moses``: Moses tokenizer of ``sacremoses`` (``escape=False``: no HTML entities, no aggressive dash
    splitting) for raw de / en / ro text; detokenized with the Moses detokenizer;
  - ``mecab``: MeCab (IPADIC, through ``sacrebleu[ja]``'s ``ja-mecab`` tokenizer) for raw Japanese (KFTT);
  - ``split``: the text is already tokenized (``small_parallel_enja``: English by the Stanford tokenizer,
    Japanese by KyTea, both lowercased): split on spaces only. English is detokenized with Moses, which also
    rejoins the Stanford ``n't`` / ``'s`` splits.

  Japanese detokenization deletes the spaces between tokens (Japanese is written without them), keeping one
  between two ASCII letters/digits (``ipad mini``).
* **BPE** (``subword-nmt``, the tool of the paper's era; separator ``@@``): merge operations learned on the
  *training split only* (tokenized), jointly on source + target text (``joint=True``; paper: 32k merges) or
  separately per language (paper ro–en: 25k each), ``min_frequency`` 2; applied to every split. The number of
  merges is exactly ``merges`` unless no pair occurs twice any more.
* **Cache**: tokenized text and BPE codes / segmented text are stored under ``cache_dir`` (the task passes
  ``<runs root>/.cache/mt``), keyed by a sha256 of their inputs (the sentences themselves) and every setting
  (language, tokenizer, merges, joint, min frequency, library versions, :data:`CACHE_VERSION`). A second run,
  another α or seed, reuses them; a change of any input or setting makes a new entry.
"""
from __future__ import annotations

import contextlib
import gzip
import hashlib
import io
import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

CACHE_VERSION = 1
SEPARATOR = "@@"
TOKENIZERS = ("moses", "mecab", "split")


def _versions() -> dict[str, str]:
    from importlib.metadata import version

    out = {}
    for pkg in ("sacremoses", "subword-nmt", "sacrebleu", "mecab-python3"):
        try:
            out[pkg] = version(pkg)
        except Exception:
            out[pkg] = "-"
    return out


# ------------------------------------------------------------------ tokenization

_ASCII_END = re.compile(r"[A-Za-z0-9]$")
_ASCII_START = re.compile(r"^[A-Za-z0-9]")


def detokenize_ja(tokens: Sequence[str]) -> str:
    """Join Japanese tokens without spaces, keeping one between two ASCII letters/digits."""
    out = ""
    for tok in tokens:
        if out and _ASCII_END.search(out) and _ASCII_START.search(tok):
            out += " "
        out += tok
    return out


class Tokenizer:
    """``tokenize(str) -> list[str]`` and ``detokenize(list[str]) -> str`` for one language.

    ``kind``: ``moses`` | ``mecab`` | ``split`` (see the module docstring)."""

    def __init__(self, lang: str, kind: str):
        if kind not in TOKENIZERS:
            raise ValueError(f"tokenizer kind {kind!r}: must be one of {', '.join(TOKENIZERS)}")
        self.lang, self.kind = str(lang), kind
        self._tok = self._detok = None

    def _moses(self):
        if self._tok is None:
            from sacremoses import MosesTokenizer

            self._tok = MosesTokenizer(lang=self.lang)
        return self._tok

    def _moses_detok(self):
        if self._detok is None:
            from sacremoses import MosesDetokenizer

            self._detok = MosesDetokenizer(lang=self.lang)
        return self._detok

    def tokenize(self, text: str) -> list[str]:
        if self.kind == "split":
            return text.split()
        if self.kind == "mecab":
            if self._tok is None:
                from sacrebleu.tokenizers.tokenizer_ja_mecab import TokenizerJaMecab

                self._tok = TokenizerJaMecab()
            return self._tok(text).split()
        return self._moses().tokenize(text, escape=False)

    def detokenize(self, tokens: Sequence[str]) -> str:
        if self.lang == "ja":
            return detokenize_ja(tokens)
        return self._moses_detok().detokenize(list(tokens))

    def describe(self) -> str:
        return {"moses": f"sacremoses MosesTokenizer(lang={self.lang!r}), escape=False",
                "mecab": "MeCab (sacrebleu ja-mecab tokenizer, IPADIC)",
                "split": "already tokenized: split on spaces"}[self.kind]


def tokenizer_kind(lang: str, pretokenized: bool) -> str:
    if pretokenized:
        return "split"
    return "mecab" if lang == "ja" else "moses"


# ------------------------------------------------------------------ BPE

def merge_bpe(pieces: Sequence[str]) -> list[str]:
    """Undo BPE: ``["Zwei@@", "tausend", "Leute"]`` -> ``["Zweitausend", "Leute"]`` (a trailing ``@@`` piece
    of an unfinished hypothesis is kept as a word)."""
    words: list[str] = []
    cur = ""
    for p in pieces:
        if p.endswith(SEPARATOR):
            cur += p[: -len(SEPARATOR)]
        else:
            words.append(cur + p)
            cur = ""
    if cur:
        words.append(cur)
    return words


def learn_bpe(lines: Iterable[str], merges: int, codes_path: Path, min_frequency: int = 2) -> None:
    """Learn ``merges`` BPE merge operations (subword-nmt) from tokenized ``lines`` into ``codes_path``."""
    from subword_nmt.learn_bpe import learn_bpe as _learn

    out = io.StringIO()
    with contextlib.redirect_stderr(io.StringIO()):  # subword-nmt draws a tqdm bar on stderr
        _learn(list(lines), out, int(merges), min_frequency=int(min_frequency))
    _atomic_write(codes_path, out.getvalue().encode("utf-8"))


class BPE:
    """Apply learned codes: ``segment(tokens) -> pieces`` (``@@`` marks a piece that continues)."""

    def __init__(self, codes_path: Path):
        from subword_nmt.apply_bpe import BPE as _BPE

        with open(codes_path, encoding="utf-8") as fh:
            self._bpe = _BPE(fh, separator=SEPARATOR)
        with open(codes_path, encoding="utf-8") as fh:
            self.n_merges = sum(1 for line in fh if not line.startswith("#version"))

    def segment(self, tokens: Sequence[str]) -> list[str]:
        return self._bpe.segment_tokens(list(tokens))


# ------------------------------------------------------------------ cache

def _atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _key(obj) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()[:24]


def text_hash(lines: Sequence[str]) -> str:
    h = hashlib.sha256()
    for line in lines:
        h.update(line.encode("utf-8"))
        h.update(b"\n")
    return h.hexdigest()


def _write_lines(path: Path, lines: Iterable[str]) -> None:
    _atomic_write(path, gzip.compress(("".join(f"{x}\n" for x in lines)).encode("utf-8"), mtime=0))


def _read_lines(path: Path) -> list[str]:
    return gzip.decompress(path.read_bytes()).decode("utf-8").split("\n")[:-1]


class Cache:
    """Content-addressed files under ``root`` (``tok/<key>.txt.gz``, ``bpe/<key>/codes.<side>``,
    ``bpe/<key>/<text key>.txt.gz``); ``hits`` / ``misses`` count look-ups (for the run record)."""

    def __init__(self, root: str | Path):
        self.root = Path(root).expanduser()
        self.hits = 0
        self.misses = 0

    def lines(self, rel: str, make) -> list[str]:
        path = self.root / rel
        if path.is_file():
            try:
                out = _read_lines(path)
                self.hits += 1
                return out
            except (OSError, EOFError, UnicodeDecodeError):
                path.unlink(missing_ok=True)  # a torn entry: rebuild it
        self.misses += 1
        out = list(make())
        _write_lines(path, out)
        return out


# ------------------------------------------------------------------ the whole pipeline

@dataclass
class Side:
    """One side of one split: raw text, tokens (joined by spaces) and BPE pieces (joined by spaces)."""

    raw: list[str]
    tok: list[str]
    bpe: list[str]


@dataclass
class Prepared:
    splits: dict[str, tuple[Side, Side]]            # role -> (source side, target side)
    src_tokenizer: Tokenizer
    tgt_tokenizer: Tokenizer
    info: dict = field(default_factory=dict)        # settings, cache keys, merges, for the run record


def prepare(splits: dict[str, tuple[list[str], list[str]]], src_lang: str, tgt_lang: str, pretokenized: bool,
            merges: int, joint: bool, cache_dir: str | Path, min_frequency: int = 2, train_role: str = "train",
            log=None) -> Prepared:
    """Tokenize every split, learn BPE on ``splits[train_role]`` only (joint or per language), segment every
    split. ``splits``: role -> (source sentences, target sentences), raw text. Everything is cached."""
    cache = Cache(cache_dir)
    versions = _versions()
    toks = {lang: Tokenizer(lang, tokenizer_kind(lang, pretokenized)) for lang in (src_lang, tgt_lang)}
    tok_keys: dict[tuple[str, int], str] = {}
    tokenized: dict[str, tuple[list[str], list[str]]] = {}
    for role, sides in splits.items():
        pair = []
        for i, (lang, lines) in enumerate(zip((src_lang, tgt_lang), sides)):
            tk = toks[lang]
            key = _key({"v": CACHE_VERSION, "text": text_hash(lines), "lang": lang, "kind": tk.kind,
                        "versions": versions})
            tok_keys[(role, i)] = key
            pair.append(cache.lines(f"tok/{key}.txt.gz", lambda tk=tk, lines=lines:
                                    (" ".join(tk.tokenize(x)) for x in lines)))
        tokenized[role] = (pair[0], pair[1])
    if train_role not in tokenized:
        raise ValueError(f"no {train_role!r} split to learn BPE on")
    train_src, train_tgt = tokenized[train_role]
    settings = {"merges": int(merges), "joint": bool(joint), "min_frequency": int(min_frequency),
                "separator": SEPARATOR, "learned_on": train_role}
    bpe_key = _key({"v": CACHE_VERSION, "src": tok_keys[(train_role, 0)], "tgt": tok_keys[(train_role, 1)],
                    "settings": settings, "versions": versions})
    bdir = cache.root / "bpe" / bpe_key
    if joint:
        sides = {"joint": train_src + train_tgt}
    else:
        sides = {"src": train_src, "tgt": train_tgt}
    codes = {}
    for name, lines in sides.items():
        path = bdir / f"codes.{name}"
        if not path.is_file():
            cache.misses += 1
            if log:
                log.info("learning %d BPE merges (%s) on %d training lines", merges, name, len(lines))
            learn_bpe(lines, merges, path, min_frequency)
        else:
            cache.hits += 1
        codes[name] = BPE(path)
    seg_src = codes["joint"] if joint else codes["src"]
    seg_tgt = codes["joint"] if joint else codes["tgt"]
    out = {}
    for role, (ts, tt) in tokenized.items():
        sides_out = []
        for i, (tok_lines, seg) in enumerate(((ts, seg_src), (tt, seg_tgt))):
            rel = f"bpe/{bpe_key}/{tok_keys[(role, i)]}.txt.gz"
            bpe_lines = cache.lines(rel, lambda tok_lines=tok_lines, seg=seg:
                                    (" ".join(seg.segment(x.split())) for x in tok_lines))
            sides_out.append(Side(list(splits[role][i]), tok_lines, bpe_lines))
        out[role] = (sides_out[0], sides_out[1])
    info = {"tokenizer": {src_lang: toks[src_lang].describe(), tgt_lang: toks[tgt_lang].describe()},
            "pretokenized": bool(pretokenized), "bpe": {**settings, "tool": "subword-nmt",
                                                         "merges_learned": {k: v.n_merges for k, v in codes.items()}},
            "cache_dir": str(cache.root), "bpe_cache_key": bpe_key, "cache_hits": cache.hits,
            "cache_misses": cache.misses, "versions": versions}
    return Prepared(out, toks[src_lang], toks[tgt_lang], info)
