"""The claims of Martins & Astudillo (2016), each checked on the run records by a stated rule.

Every report of the paper ends with a table of the claims its records can test; a row says ``holds``,
``does not hold`` or ``untested (why)``, the rule, and the numbers the verdict rests on. The rules are fixed here
(not tuned to the results) and quoted in the table:

* multi-label (Table 2), as the paper states it: the three losses are all very similar, and sparsemax has a slight
  advantage, highest in the most (dataset, metric) cells; "best" and "similar" are judged against a paired test-set
  bootstrap (:class:`Cell`), and a verdict the noise decides is ``inconclusive``; our earlier, weaker rule stays as a
  second row, labelled as ours;
* label proportions (Figure 3): the sparsemax loss is better beyond an average length of about 400 words;
* SNLI (Table 3): soft ≈ sparse attention > no attention and logistic attention (paired per seed);
* SNLI (Tables 3, 4): sparse attention selects few words.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations
from statistics import mean, stdev
from typing import Mapping, Sequence

from ..tables import md_table

HOLDS, FAILS, INCONCLUSIVE = "holds", "does not hold", "inconclusive"
COMPARABLE_POINTS = 3.0      # Table 2, our weaker rule: each loss's mean gap to the best loss, in F1 points
NO_NOISE = "no test-set bootstrap in these records: the noise is unknown"
SMALL_GAP = 1.0              # Table 2, "very similar": a gap to the cell's best of at most 1 F1 point (fixed before the runs)
ABOUT_400 = 600.0            # Figure 3: the crossover must be at or before this length (one grid step past 400)
SE_FACTOR = 2.0              # SNLI: a paired difference counts when |mean| > 2 standard errors
FEW_WORDS = 0.5              # SNLI: sparse attention keeps at most this share of the premise words on average


@dataclass(frozen=True)
class Claim:
    claim: str
    rule: str
    verdict: str                 # HOLDS, FAILS or "untested (why)"
    evidence: str = ""


def untested(why: str) -> str:
    return f"untested ({why})"


def claims_section(claims: Sequence[Claim]) -> list[str]:
    """The closing section of a report: one row per claim."""
    rows = [[c.claim, c.rule, f"**{c.verdict}**", c.evidence or "–"] for c in claims]
    return ["## The paper's claims, checked on these runs", "",
            "Each verdict follows its rule, computed from the run records above.", "",
            md_table(["claim (paper)", "rule", "verdict", "evidence"], rows)]


# ---------------------------------------------------------------- Table 2
@dataclass(frozen=True)
class Cell:
    """One (dataset, metric) cell: each loss's test score (F1 points) and its bootstrap replicates (points; the
    same resamples for every loss, so differences pair replicate by replicate). No replicates: noise unknown (0)."""

    name: str
    scores: Mapping[str, float]
    reps: Mapping[str, Sequence[float]] | None = None

    def se(self, a: str, b: str) -> float:
        """The bootstrap standard error of score a − score b (0 without replicates)."""
        if not self.reps or a not in self.reps or b not in self.reps:
            return 0.0
        d = [x - y for x, y in zip(self.reps[a], self.reps[b])]
        return stdev(d) if len(d) > 1 else 0.0

    def better(self, a: str, b: str) -> bool:
        """a beats b: by more than the noise, SE_FACTOR paired bootstrap standard errors."""
        return self.scores[a] - self.scores[b] > SE_FACTOR * self.se(a, b)

    @property
    def winners(self) -> frozenset[str]:
        """The losses no other loss beats (a tie shares the cell)."""
        return frozenset(l for l in self.scores if not any(self.better(m, l) for m in self.scores if m != l))

    @property
    def top(self) -> str:
        return max(self.scores, key=lambda l: self.scores[l])


def gap_status(cell: Cell, loss: str) -> str:
    """``similar`` (gap to the cell's top ≤ SMALL_GAP or within the noise), ``apart`` (the gap exceeds SMALL_GAP by
    more than the noise) or ``undecided`` (the noise decides)."""
    gap, se = cell.scores[cell.top] - cell.scores[loss], cell.se(cell.top, loss)
    if gap <= SMALL_GAP or gap <= SE_FACTOR * se:
        return "similar"
    return "apart" if gap - SE_FACTOR * se > SMALL_GAP else "undecided"


def similar_claim(cells: Sequence[Cell], scope: str) -> Claim:
    claim = "The performances of the three losses are all very similar (paper)"
    rule = (f"in every (dataset, metric) cell, every loss's gap to the cell's best is at most {SMALL_GAP:g} F1 point or "
            f"within the noise ({SE_FACTOR:g} paired bootstrap standard errors of the test set); does not hold when a "
            f"gap exceeds {SMALL_GAP:g} point by more than the noise; inconclusive when the noise decides")
    if not cells:
        return Claim(claim, rule, untested("no paper dataset with all three losses in these runs"))
    if any(c.reps is None for c in cells):
        return Claim(claim, rule, untested(NO_NOISE))
    status = {(c.name, l): gap_status(c, l) for c in cells for l in c.scores if l != c.top}
    apart = [k for k, v in status.items() if v == "apart"]
    undecided = [k for k, v in status.items() if v == "undecided"]
    verdict = FAILS if apart else INCONCLUSIVE if undecided else HOLDS
    gaps = "; ".join(f"{c.name}: " + ", ".join(f"{l} −{c.scores[c.top] - c.scores[l]:.2f} ± {c.se(c.top, l):.2f}"
                                                for l in c.scores if l != c.top) for c in cells)
    ev = (f"{len(status) - len(apart) - len(undecided)} of {len(status)} (cell, loss) gaps similar, {len(apart)} apart, "
          f"{len(undecided)} undecided ({scope}); gap to the cell's best ± paired SE (points): {gaps}")
    return Claim(claim, rule, verdict, ev)


def win_counts(cells: Sequence[Cell]) -> dict[str, int]:
    """Cells each loss is best in, ties shared."""
    losses = sorted({l for c in cells for l in c.scores})
    return {l: sum(l in c.winners for c in cells) for l in losses}


def advantage_outcomes(cells: Sequence[Cell], loss: str = "sparsemax") -> tuple[bool, bool]:
    """(can hold, can fail): whether "``loss`` best in at least as many cells as each other loss" holds for some / fails
    for some way of giving each tied cell to one of its tied losses."""
    others = sorted({l for c in cells for l in c.scores} - {loss})
    sole = {l: sum(c.winners == {l} for c in cells) for l in others + [loss]}
    with_loss = sum(loss in c.winners for c in cells)
    # fails for some resolution: one other loss takes every tie it is in, ``loss`` keeps only the cells it wins alone
    can_fail = any(sum(l in c.winners for c in cells) > sole[loss] for l in others)
    # holds for some resolution: ``loss`` takes every tie it is in; the ties among the others must fit under its count
    # (Hall's condition over the subsets of the other losses)
    spare = {l: with_loss - sole[l] for l in others}
    rest = [c.winners for c in cells if len(c.winners) > 1 and loss not in c.winners]
    subsets = [set(s) for k in range(1, len(others) + 1) for s in combinations(others, k)]
    can_hold = all(v >= 0 for v in spare.values()) and all(
        sum(w <= s for w in rest) <= sum(spare[l] for l in s) for s in subsets)
    return can_hold, can_fail


def advantage_claim(cells: Sequence[Cell], scope: str, all_cells: Sequence[Cell] = ()) -> Claim:
    claim = "A slight advantage of sparsemax: it attains the highest result in the most (dataset, metric) cells (paper)"
    rule = (f"a loss is best in a cell when no other loss beats it by more than {SE_FACTOR:g} paired bootstrap standard "
            "errors (ties shared); holds when sparsemax is best in at least as many cells as each other loss, however "
            "each tie is resolved; does not hold when it falls short however they are resolved; inconclusive "
            "otherwise (the noise decides)")
    if not cells:
        return Claim(claim, rule, untested("no paper dataset with all three losses in these runs"))
    if any(c.reps is None for c in cells):
        return Claim(claim, rule, untested(NO_NOISE))
    can_hold, can_fail = advantage_outcomes(cells)
    verdict = INCONCLUSIVE if can_hold and can_fail else HOLDS if can_hold else FAILS
    fmt = lambda w: ", ".join(f"{l} {n}" for l, n in w.items())  # noqa: E731
    ties = sum(len(c.winners) > 1 for c in cells)
    ev = f"best (ties shared) in {len(cells)} cells ({scope}): {fmt(win_counts(cells))}; {ties} tied cells"
    if all_cells:
        ev += f"; on all datasets ({len(all_cells)} cells): {fmt(win_counts(all_cells))}"
    return Claim(claim, rule, verdict, ev)


def multilabel_claim(cells: Sequence[Mapping[str, float]], n_datasets: int) -> Claim:
    """Our earlier, weaker rule. ``cells``: per (paper dataset, metric) with all three losses, the test F1 (%) of each
    loss."""
    claim = ("Ours, weaker (the rule before issue 37): the three losses perform comparably; sparsemax is best in some "
             "cells")
    rule = (f"comparable: every loss's mean gap to the best loss over the paper's (dataset, metric) cells is at most "
            f"{COMPARABLE_POINTS:g} F1 points; some cells: sparsemax's point estimate the highest in at least one cell")
    if not cells:
        return Claim(claim, rule, untested("no paper dataset with all three losses in these runs"))
    losses = sorted(cells[0])
    gaps = {l: mean(max(c.values()) - c[l] for c in cells) for l in losses}
    wins = sum(c["sparsemax"] == max(c.values()) for c in cells)
    ok = max(gaps.values()) <= COMPARABLE_POINTS and wins >= 1
    gap_txt = ", ".join(f"{l} {g:.2f}" for l, g in gaps.items())
    return Claim(claim, rule, HOLDS if ok else FAILS,
                 f"mean gap to the best (points): {gap_txt}; sparsemax best in {wins} of {len(cells)} cells "
                 f"({n_datasets} paper datasets; Reuters missing)")


# ---------------------------------------------------------------- Figure 3
def proportions_claim(panels: Mapping[str, list[tuple[float, float]]]) -> Claim:
    """``panels``: per (K, mixture, metric) panel, ``(L, sparsemax − softmax)`` in ascending L."""
    claim = "The sparsemax loss is better for label proportions beyond an average document length of about 400 words"
    rule = (f"in every (K, mixture, MSE/JS) panel, sparsemax's mean over seeds is lower than softmax's at every "
            f"L ≥ {ABOUT_400:g} in the grid (about 400: one grid step of slack)")
    lengths = sorted({L for diffs in panels.values() for L, _ in diffs})
    if not panels:
        return Claim(claim, rule, untested("no length with both losses in these runs"))
    if ABOUT_400 not in lengths or not any(L <= 400 for L in lengths):
        return Claim(claim, rule, untested(f"the L grid {', '.join(f'{L:g}' for L in lengths)} does not hold the "
                                           f"lengths around 400 (≤ 400 and {ABOUT_400:g})"))
    bad = [(name, L) for name, diffs in panels.items() for L, d in diffs if L >= ABOUT_400 and not d < 0]
    n = sum(1 for diffs in panels.values() for L, _ in diffs if L >= ABOUT_400)
    ev = f"sparsemax lower at {n - len(bad)} of {n} (panel, L ≥ {ABOUT_400:g}) points"
    if bad:
        ev += "; not at " + ", ".join(f"{name} L={L:g}" for name, L in bad[:6]) + (" …" if len(bad) > 6 else "")
    return Claim(claim, rule, FAILS if bad else HOLDS, ev)


# ---------------------------------------------------------------- SNLI
@dataclass(frozen=True)
class Paired:
    """Paired per-seed difference a − b of test accuracy (points) over the seeds both variants ran."""

    a: str
    b: str
    n: int
    diff: float
    se: float | None             # sd of the per-seed differences / sqrt(n); None below 2 seeds

    @property
    def decided(self) -> bool:
        return self.se is not None

    @property
    def relation(self) -> str:
        """``>``, ``<`` or ``≈`` by the rule |mean| > 2 SE; ``?`` with fewer than 2 seeds."""
        if self.se is None:
            return "?"
        if abs(self.diff) > SE_FACTOR * self.se:
            return ">" if self.diff > 0 else "<"
        return "≈"


def paired(a: str, b: str, acc_a: Mapping[int, float], acc_b: Mapping[int, float]) -> Paired:
    seeds = sorted(set(acc_a) & set(acc_b))
    d = [acc_a[s] - acc_b[s] for s in seeds]
    if not d:
        return Paired(a, b, 0, math.nan, None)
    se = stdev(d) / math.sqrt(len(d)) if len(d) > 1 else None
    return Paired(a, b, len(d), mean(d), se)


def oriented(pairs: Mapping[tuple[str, str], Paired], a: str, b: str) -> Paired | None:
    """The comparison a − b, from ``pairs`` keyed either way round."""
    if (a, b) in pairs:
        return pairs[(a, b)]
    p = pairs.get((b, a))
    return None if p is None else Paired(a, b, p.n, -p.diff, p.se)


SNLI_ORDER = (("soft", "sparse", "≈"), ("soft", "none", ">"), ("soft", "logistic", ">"),
              ("sparse", "none", ">"), ("sparse", "logistic", ">"))


def snli_order_claim(pairs: Mapping[tuple[str, str], Paired]) -> Claim:
    claim = "SNLI: soft and sparse attention perform similarly, and both beat no attention and logistic attention"
    rule = (f"paired per seed at each variant's dev-chosen L2; a > b when the mean difference exceeds {SE_FACTOR:g} "
            f"standard errors of the paired differences, a ≈ b when it does not; holds when soft ≈ sparse and soft, "
            f"sparse > none, logistic (all five)")
    got = [oriented(pairs, a, b) for a, b, _ in SNLI_ORDER]
    if any(p is None for p in got):
        return Claim(claim, rule, untested("a variant of the paper's four has no runs"))
    if not all(p.decided for p in got):
        return Claim(claim, rule, untested("fewer than 2 seeds shared by a pair: no spread to compare against"))
    met = [p.relation == want for p, (_, _, want) in zip(got, SNLI_ORDER)]
    ev = "; ".join(f"{p.a} − {p.b} = {p.diff:+.2f} ± {p.se:.2f} (n={p.n}): {p.a} {p.relation} {p.b}"
                   f"{'' if ok else ' (claim: ' + want + ')'}" for p, (_, _, want), ok in zip(got, SNLI_ORDER, met))
    return Claim(claim, rule, HOLDS if all(met) else FAILS, f"{sum(met)} of {len(met)} relations as claimed: {ev}")


def few_words_claim(attended: float | None, premise: float | None, soft_attended: float | None = None) -> Claim:
    claim = "SNLI: sparse attention selects few premise words"
    rule = (f"sparsemax attention's mean number of nonzero-weight premise words on test is at most "
            f"{FEW_WORDS:g} × the mean premise length")
    if attended is None or not premise:
        return Claim(claim, rule, untested("no sparse-attention run with attention statistics"))
    share = attended / premise
    ev = f"{attended:.2f} of {premise:.2f} words ({100 * share:.0f}%)"
    if soft_attended is not None:
        ev += f"; softmax attends to {soft_attended:.2f}"
    return Claim(claim, rule, HOLDS if share <= FEW_WORDS else FAILS, ev)
