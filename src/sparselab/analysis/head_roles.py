"""Head roles of Correia, Niculae & Martins (2019), *Adaptively Sparse Transformers*, §5.2 ("identifying head
specializations"), over self-attention ``attn`` (B, H, L, L) with ``mask`` (B, L) True at real tokens (the
contract of :mod:`sparselab.analysis.heads`; right padding).

* **Positional heads** (after Voita et al. 2019): per head, the mean weight a query puts on the previous token
  (offset −1) and on the next one (+1). The paper measures "a positional head's confidence as the average
  attention weight assigned to the previous token" and reports the median over the models' previous-token
  heads (softmax 0.935, 1.5-entmax 0.944, α-entmax 0.959; ``shared/reference/papers.yaml``). Which heads count
  as positional is not spelled out there; :func:`positional_heads` uses Voita et al.'s rule: the head's largest
  weight falls on that offset for at least 90 % of the queries.
* **BPE-merging heads**: for every word made of several BPE pieces (or a hyphenated word), the largest mass
  that any one of its pieces gives to the *other* pieces of the word; a head's score is the mean over such
  words (paper: no softmax head above 0.80; 1.5-entmax 0.833 and 0.856; α-entmax 0.885 and 0.898).
* **Interrogation heads**: the mean weight that an interrogative word puts on the question mark(s) of its
  sentence, over the question words of sentences that contain "?". The interrogatives are
  :data:`QUESTION_WORDS` (English wh-words and German w-words, a word of one BPE piece, case-insensitive); the
  paper does not list its set.

Each statistic is a torchmetrics ``Metric`` summed over batches; the token-level inputs (word ids, question
masks) are built from the BPE pieces by :func:`word_id_tensor` and :func:`question_masks`.
"""
from __future__ import annotations

from typing import Sequence

import torch
from torchmetrics import Metric

from sparselab.analysis.head_summary import positional_heads  # noqa: F401 - still importable from here
from sparselab.data.mt_preprocess import SEPARATOR

# Moses's aggressive dash splitting writes "well-known" as "well @-@ known"; the paper merges such clusters too.
HYPHEN = "@-@"
QUESTION_MARK = "?"
QUESTION_WORDS: dict[str, frozenset[str]] = {
    "en": frozenset({"what", "who", "whom", "whose", "which", "when", "where", "why", "how"}),
    "de": frozenset({"was", "wer", "wen", "wem", "wessen", "welche", "welcher", "welches", "welchen", "welchem",
                     "wann", "wo", "woher", "wohin", "warum", "wieso", "weshalb", "weswegen", "wie", "wozu",
                     "wofür", "womit", "wovon", "worüber"}),
}


def _check(attn: torch.Tensor, mask: torch.Tensor) -> None:
    if attn.ndim != 4 or attn.shape[2] != attn.shape[3]:
        raise ValueError(f"attn: expected self-attention (B, H, L, L), got shape {tuple(attn.shape)}")
    if tuple(mask.shape) != (attn.shape[0], attn.shape[2]):
        raise ValueError(f"mask: expected shape {(attn.shape[0], attn.shape[2])}, got {tuple(mask.shape)}")


# ---------------------------------------------------------------- positional heads
class PositionalHeads(Metric):
    """Per head: mean weight on the previous / next token (``prev``, ``next``) and the share of queries whose
    largest weight is there (``prev_argmax``, ``next_argmax``), over query positions that have a real previous
    (next) token. In causal decoder self-attention the next token always gets 0."""

    full_state_update = False

    def __init__(self, num_heads: int, **kwargs):
        super().__init__(**kwargs)
        H = int(num_heads)
        for name in ("prev", "next"):
            self.add_state(f"{name}_weight", torch.zeros(H, dtype=torch.float64), dist_reduce_fx="sum")
            self.add_state(f"{name}_hits", torch.zeros(H, dtype=torch.long), dist_reduce_fx="sum")
        self.add_state("pairs", torch.tensor(0, dtype=torch.long), dist_reduce_fx="sum")

    def update(self, attn: torch.Tensor, mask: torch.Tensor) -> None:
        _check(attn, mask)
        mask = mask.to(attn.device)
        L = attn.shape[-1]
        pair = (mask[:, 1:] & mask[:, :-1])[:, None]               # (B, 1, L-1): both tokens of (i, i+1) real
        prev = attn.diagonal(offset=-1, dim1=2, dim2=3)              # query i+1 -> key i
        nxt = attn.diagonal(offset=1, dim1=2, dim2=3)                # query i -> key i+1
        top = attn.masked_fill(~mask[:, None, None, :], -1.0).argmax(-1)   # (B, H, L), padded keys never chosen
        steps = torch.arange(L - 1, device=attn.device)
        self.prev_weight += torch.where(pair, prev, 0).sum((0, 2)).double()
        self.next_weight += torch.where(pair, nxt, 0).sum((0, 2)).double()
        self.prev_hits += ((top[..., 1:] == steps) & pair).sum((0, 2))
        self.next_hits += ((top[..., :-1] == steps + 1) & pair).sum((0, 2))
        self.pairs += pair.sum()

    def compute(self) -> dict[str, torch.Tensor]:
        n = self.pairs.clamp(min=1)
        return {"prev": self.prev_weight / n, "next": self.next_weight / n,
                "prev_argmax": self.prev_hits.double() / n, "next_argmax": self.next_hits.double() / n}


# ---------------------------------------------------------------- BPE-merging heads
def word_ids(pieces: Sequence[str], separator: str = SEPARATOR, hyphen: str | None = HYPHEN) -> list[int]:
    """Word index of every BPE piece: a piece ending in ``separator`` continues into the next one, and
    ``a @-@ b`` is one word (``hyphen=None``: no hyphen joining). ``["Haus@@", "boot", "ist"]`` -> ``[0, 0, 1]``."""
    ids, w, joined = [], -1, False
    for p in pieces:
        if not (joined or (p == hyphen and w >= 0)):
            w += 1
        ids.append(w)
        joined = p.endswith(separator) or p == hyphen
    return ids


def word_id_tensor(batch_pieces: Sequence[Sequence[str]], length: int, **kwargs) -> torch.Tensor:
    """(B, length) long: :func:`word_ids` of each sentence's pieces, −1 after them (EOS, padding: no word)."""
    out = torch.full((len(batch_pieces), length), -1, dtype=torch.long)
    for b, pieces in enumerate(batch_pieces):
        if len(pieces) > length:
            raise ValueError(f"sentence {b}: {len(pieces)} pieces do not fit in length {length}")
        out[b, :len(pieces)] = torch.tensor(word_ids(pieces, **kwargs), dtype=torch.long)
    return out


class BPEMerging(Metric):
    """Per head, the mean over multi-piece words of max over the word's pieces i of Σ_{j in word, j != i}
    attn[i, j]. ``word_ids`` (B, L): word index per position, −1 where no word (padding, EOS)."""

    full_state_update = False

    def __init__(self, num_heads: int, **kwargs):
        super().__init__(**kwargs)
        self.add_state("score", torch.zeros(int(num_heads), dtype=torch.float64), dist_reduce_fx="sum")
        self.add_state("words", torch.tensor(0, dtype=torch.long), dist_reduce_fx="sum")

    def update(self, attn: torch.Tensor, word_ids: torch.Tensor) -> None:
        _check(attn, word_ids)
        B, H, L, _ = attn.shape
        w = word_ids.to(attn.device)
        eye = torch.eye(L, dtype=torch.bool, device=attn.device)
        others = (w[:, :, None] == w[:, None, :]) & (w >= 0)[:, :, None] & ~eye   # (B, L, L): rest of my word
        mass = torch.where(others[:, None], attn, 0).sum(-1)                   # (B, H, L)
        in_multi = others.any(-1)                                               # pieces of multi-piece words
        word = (torch.arange(B, device=attn.device)[:, None] * L + w)[in_multi]
        if word.numel() == 0:
            return
        uniq, inv = word.unique(return_inverse=True)
        best = torch.full((uniq.numel(), H), -1.0, dtype=torch.float64, device=attn.device)
        best = best.scatter_reduce(0, inv[:, None].expand(-1, H), mass.permute(0, 2, 1)[in_multi].double(), "amax")
        self.score += best.sum(0)
        self.words += uniq.numel()

    def compute(self) -> torch.Tensor:
        return self.score / self.words.clamp(min=1)


# ---------------------------------------------------------------- interrogation heads
def question_masks(batch_pieces: Sequence[Sequence[str]], length: int, words=QUESTION_WORDS["en"],
                   mark: str = QUESTION_MARK, separator: str = SEPARATOR) -> tuple[torch.Tensor, torch.Tensor]:
    """``(is_question_word, is_question_mark)``, each (B, length) bool: one-piece words whose lowercase is in
    ``words``, and pieces equal to ``mark``."""
    words = {w.lower() for w in words}
    qword = torch.zeros(len(batch_pieces), length, dtype=torch.bool)
    qmark = torch.zeros_like(qword)
    for b, pieces in enumerate(batch_pieces):
        if len(pieces) > length:
            raise ValueError(f"sentence {b}: {len(pieces)} pieces do not fit in length {length}")
        ids = word_ids(pieces, separator, hyphen=None)
        for i, p in enumerate(pieces):
            one_piece = ids.count(ids[i]) == 1
            qword[b, i] = one_piece and p.lower() in words
            qmark[b, i] = p == mark
    return qword, qmark


class Interrogation(Metric):
    """Per head, the mean attention weight that a question word puts on the question marks of its sentence,
    over the question words of sentences with a question mark (:func:`question_masks`)."""

    full_state_update = False

    def __init__(self, num_heads: int, **kwargs):
        super().__init__(**kwargs)
        self.add_state("weight", torch.zeros(int(num_heads), dtype=torch.float64), dist_reduce_fx="sum")
        self.add_state("queries", torch.tensor(0, dtype=torch.long), dist_reduce_fx="sum")

    def update(self, attn: torch.Tensor, is_question_word: torch.Tensor, is_question_mark: torch.Tensor) -> None:
        _check(attn, is_question_word)
        qword, qmark = is_question_word.to(attn.device), is_question_mark.to(attn.device)
        on_mark = torch.where(qmark[:, None, None, :], attn, 0).sum(-1)       # (B, H, L)
        queries = qword & qmark.any(-1, keepdim=True)
        self.weight += on_mark.permute(0, 2, 1)[queries].double().sum(0)
        self.queries += queries.sum()

    def compute(self) -> torch.Tensor:
        return self.weight / self.queries.clamp(min=1)
