"""The CoNLL–SIGMORPHON 2017/2018 task 1 non-neural baseline: prefix/suffix edit rules per tag bundle.

Reimplemented from the organisers' description and source: ``task1/baseline/README.md`` and
``task1/baseline/baseline.py`` (Mans Hulden) of github.com/sigmorphon/conll2018 (the 2017 repository
sigmorphon/conll2017 ``baseline/`` holds the same algorithm), described in Cotterell et al. (2018),
"The CoNLL–SIGMORPHON 2018 Shared Task: Universal Morphological Reinflection". No code is copied; the
behaviour below follows that script, including its tie-breaking where it is defined.

One model per language and data setting.

**Direction.** Each training pair (lemma, form) without a space or hyphen in either string is aligned
by sliding the lemma along the form and keeping the offset with the fewest mismatching columns
(a character facing nothing counts as a mismatch; offsets are tried from "lemma entirely left of the
form" to "entirely right", the first minimum wins). The columns where the lemma has not started yet,
or the form has not, count as prefixing; those after either has ended count as suffixing. If the
prefixing total is larger, the language is "prefixing" and every string is reversed, in training and
at prediction time (the output is reversed back).

**Alignment.** Each pair is aligned by Levenshtein distance with insertion and deletion cost 1 and
substitution cost 1.1 (so that an insertion or deletion is preferred over a substitution of equal
count); among optimal alignments, scanning left to right, a match/substitution is preferred over an
insertion (a form character facing a gap), which is preferred over a deletion; like the original, costs
are summed in floating point along the path, so some equal-cost alternatives are decided by rounding
(see :func:`levenshtein_align`). The alignment is cut
into prefix | stem | suffix: the prefix is as many leading columns as the longer run of leading gaps on
either side, the suffix likewise with trailing gaps.

**Rules, per complete tag bundle (MSD string), counted once per training pair:**

* suffix rules: for every column ``i`` of stem+suffix, (lemma characters from ``i`` to the end) ->
  (form characters from ``i`` to the end), anchored at the word end; ``i`` = end gives the empty,
  identity rule ``$ > $``. (README example: schielen -> geschielt gives ``n$ > $``, ``en$ > t$``, ... ,
  ``schielen$ > schielt$``.)
* prefix rules: for every ``i`` < number of stem columns, (lemma prefix + the form's first ``i`` stem
  characters) -> (form prefix + the same characters), anchored at the word start (e.g. ``^ > ^ge``,
  ``^s > ^ges``, ...). A pair whose stem is empty yields no prefix rule.

**Prediction** for (lemma, MSD):

* MSD never seen in training: the lemma is returned unchanged.
* Suffix: among the MSD's suffix rules whose left side is a suffix of the lemma, the one with the
  longest left side; ties by higher count, then by longer right side. (The empty rule always applies.)
* Prefix, applied to the result of the suffix step: among the MSD's applicable prefix rules, the most
  frequent one.
* Remaining ties (equal keys, different outputs): the original leaves them to Python 2 dict iteration
  order, which is arbitrary; here the rule seen first in training order wins (deterministic).

Known, intended differences from the script (see the tests and the task report):
the script uses ``_`` both as its gap symbol and as an ordinary character, so a real underscore in a
word is treated as a gap; here gaps are a separate symbol. Ties as above.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Optional, Sequence

# one alignment column: (lemma character, form character), None facing a gap
Column = tuple[Optional[str], Optional[str]]

# Levenshtein costs of the organisers' alignment: insertion and deletion 1, substitution 1.1.
_INS, _DEL, _SUB = 1.0, 1.0, 1.1


# ------------------------------------------------------------------ alignment
def levenshtein_align(a: str, b: str, float_ties: bool = True) -> list[Column]:
    """Optimal alignment of ``a`` (lemma) and ``b`` (form) as a list of columns ``(x, y)``; a gap is None.

    Costs: insertion/deletion 1, substitution 1.1, match 0. Among alignments of equal cost the one
    chosen prefers, at the first column where they differ, match/substitution, then insertion
    ``(None, y)``, then deletion ``(x, None)``.

    ``float_ties=True`` (default) reproduces the organisers' arithmetic: their memoised recursion adds
    the costs in floating point along the path from the left, stores each cell's remaining cost as
    (path total - cost so far) at its first visit and compares path totals, so alignments whose costs
    are equal on paper (e.g. 1.1 + 1.1 + 1 + 1 vs 1.1 + 1 + 1 + 1.1) are compared after rounding, and
    the rounding decides some ties. ``float_ties=False`` compares exact costs (integers 10/10/11),
    which resolves every such tie by the preference order above. On the medium dev sets the two
    differ by 0.06 points of mean accuracy; only the default matches the organisers' outputs."""
    if not float_ties:
        return _align_exact(a, b)
    n, m = len(a), len(b)
    memo: dict[tuple[int, int], tuple[int, float]] = {}  # (i, j) -> (move, remaining cost)

    def visit(i: int, j: int, cost: float) -> float:
        hit = memo.get((i, j))
        if hit is None:
            if i == n:
                move, total = 1, cost + (m - j)
            elif j == m:
                move, total = 2, cost + (n - i)
            else:
                t0 = visit(i + 1, j + 1, cost + (0 if a[i] == b[j] else _SUB))
                t1 = visit(i, j + 1, cost + _INS)
                t2 = visit(i + 1, j, cost + _DEL)
                move, total = (0, t0) if t0 <= t1 and t0 <= t2 else ((1, t1) if t1 <= t2 else (2, t2))
            hit = memo[(i, j)] = (move, total - cost)
        return cost + hit[1]

    visit(0, 0, 0)
    return _trace(a, b, lambda i, j: memo[(i, j)][0])


def _align_exact(a: str, b: str) -> list[Column]:
    ins, dele, sub = 10, 10, 11
    n, m = len(a), len(b)
    cost = [[0] * (m + 1) for _ in range(n + 1)]  # cost[i][j]: cheapest alignment of a[i:] with b[j:]
    for i in range(n, -1, -1):
        for j in range(m, -1, -1):
            if i == n:
                cost[i][j] = ins * (m - j)
            elif j == m:
                cost[i][j] = dele * (n - i)
            else:
                cost[i][j] = min(cost[i + 1][j + 1] + (0 if a[i] == b[j] else sub), cost[i][j + 1] + ins,
                                 cost[i + 1][j] + dele)

    def move(i: int, j: int) -> int:
        if i == n:
            return 1
        if j == m:
            return 2
        if cost[i][j] == cost[i + 1][j + 1] + (0 if a[i] == b[j] else sub):
            return 0
        return 1 if cost[i][j] == cost[i][j + 1] + ins else 2

    return _trace(a, b, move)


def _trace(a: str, b: str, move) -> list[Column]:
    """Follow moves (0 diagonal, 1 insertion, 2 deletion) from (0, 0) to the end."""
    cols: list[Column] = []
    i = j = 0
    while i < len(a) or j < len(b):
        k = 1 if i == len(a) else 2 if j == len(b) else move(i, j)
        if k == 0:
            cols.append((a[i], b[j]))
            i, j = i + 1, j + 1
        elif k == 1:
            cols.append((None, b[j]))
            j += 1
        else:
            cols.append((a[i], None))
            i += 1
    return cols


def _run(cols: Sequence[Column], side: int) -> int:
    """Number of leading gap columns on one side (0 lemma, 1 form)."""
    k = 0
    while k < len(cols) and cols[k][side] is None:
        k += 1
    return k


def split_affixes(lemma: str, form: str, float_ties: bool = True) -> tuple[list[Column], list[Column], list[Column]]:
    """Aligned (prefix, stem, suffix) columns of a lemma/form pair."""
    cols = levenshtein_align(lemma, form, float_ties)
    rev = cols[::-1]
    lead = max(_run(cols, 0), _run(cols, 1))
    trail = max(_run(rev, 0), _run(rev, 1))
    end = len(cols) - trail
    return cols[:lead], cols[lead:end], cols[end:]


def _chars(cols: Iterable[Column], side: int) -> str:
    return "".join(c[side] for c in cols if c[side] is not None)


def extract_rules(lemma: str, form: str, float_ties: bool = True) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(prefix rules, suffix rules) of one pair, each a list of distinct (lhs, rhs) in generation order.

    A suffix rule rewrites the word-final ``lhs`` as ``rhs``; a prefix rule the word-initial ``lhs``."""
    pre, stem, suf = split_affixes(lemma, form, float_ties)
    tail = stem + suf
    suffix_rules = _unique((_chars(tail[i:], 0), _chars(tail[i:], 1)) for i in range(len(tail) + 1))
    lp, fp = _chars(pre, 0), _chars(pre, 1)
    prefix_rules = _unique((lp + _chars(stem[:i], 1), fp + _chars(stem[:i], 1)) for i in range(len(stem)))
    return prefix_rules, suffix_rules


def _unique(items: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    return list(dict.fromkeys(items))


# ------------------------------------------------------------------ direction heuristic
def slide_align_gaps(lemma: str, form: str) -> tuple[int, int]:
    """(prefix gaps, suffix gaps) of the best ungapped (Hamming) placement of ``lemma`` against ``form``.

    The lemma starts at offset ``d`` (relative to the form) for d = -len(lemma) .. len(form); the
    score is mismatching overlapping characters plus characters facing nothing; first minimum wins.
    Prefix gaps = leading columns where only one string has begun, suffix gaps likewise at the end."""
    n, m = len(lemma), len(form)
    best, best_d = None, 0
    for d in range(-n, m + 1):
        lo, hi = max(0, d), min(m, d + n)
        overlap = max(0, hi - lo)
        mism = sum(1 for k in range(lo, hi) if lemma[k - d] != form[k])
        score = mism + (n + m - 2 * overlap)
        if best is None or score < best:
            best, best_d = score, d
    d = best_d
    return abs(d), abs(d + n - m)


def is_prefixing(pairs: Iterable[tuple[str, str]]) -> bool:
    pre = suf = 0
    for lemma, form in pairs:
        if " " in lemma or " " in form or "-" in lemma or "-" in form:
            continue
        p, s = slide_align_gaps(lemma, form)
        pre += p
        suf += s
    return pre > suf


# ------------------------------------------------------------------ model
@dataclass
class _RuleTable:
    """Counts of (lhs, rhs) rules with the order they were first seen."""
    counts: dict = field(default_factory=dict)   # (lhs, rhs) -> count
    first: dict = field(default_factory=dict)    # (lhs, rhs) -> first-seen index

    def add(self, rule: tuple[str, str]) -> None:
        if rule not in self.counts:
            self.counts[rule] = 0
            self.first[rule] = len(self.first)
        self.counts[rule] += 1


@dataclass
class AffixRuleModel:
    prefixing: bool
    prefix_rules: dict[str, _RuleTable]
    suffix_rules: dict[str, _RuleTable]

    def predict(self, lemma: str, tags: str | Sequence[str]) -> str:
        msd = tags if isinstance(tags, str) else ";".join(tags)
        if msd not in self.prefix_rules and msd not in self.suffix_rules:
            return lemma
        word = lemma[::-1] if self.prefixing else lemma
        table = self.suffix_rules.get(msd)
        if table is not None:
            applicable = [r for r in table.counts if word.endswith(r[0])]
            if applicable:
                lhs, rhs = max(applicable, key=lambda r: (len(r[0]), table.counts[r], len(r[1]), -table.first[r]))
                word = word[: len(word) - len(lhs)] + rhs
        table = self.prefix_rules.get(msd)
        if table is not None:
            applicable = [r for r in table.counts if word.startswith(r[0])]
            if applicable:
                lhs, rhs = max(applicable, key=lambda r: (table.counts[r], -table.first[r]))
                word = rhs + word[len(lhs):]
        return word[::-1] if self.prefixing else word

    def predict_all(self, examples: Iterable) -> list[str]:
        return [self.predict(e.lemma, e.tags) for e in examples]


def fit(examples: Iterable, float_ties: bool = True) -> AffixRuleModel:
    """Learn the rules of one language from training examples (objects with ``lemma``, ``form`` and
    ``tags``: a tuple of tags or the ``;``-joined MSD string, e.g. :class:`sparselab.data.sigmorphon.Example`).
    ``float_ties``: see :func:`levenshtein_align`."""
    examples = list(examples)
    prefixing = is_prefixing((e.lemma, e.form) for e in examples)
    prefix_rules: dict[str, _RuleTable] = {}
    suffix_rules: dict[str, _RuleTable] = {}
    for e in examples:
        msd = e.tags if isinstance(e.tags, str) else ";".join(e.tags)
        lemma, form = (e.lemma[::-1], e.form[::-1]) if prefixing else (e.lemma, e.form)
        prules, srules = extract_rules(lemma, form, float_ties)
        if prules:
            table = prefix_rules.setdefault(msd, _RuleTable())
            for r in prules:
                table.add(r)
        table = suffix_rules.setdefault(msd, _RuleTable())
        for r in srules:
            table.add(r)
    return AffixRuleModel(prefixing, prefix_rules, suffix_rules)
