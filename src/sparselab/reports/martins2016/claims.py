"""The claims of Martins & Astudillo (2016), each checked on the run records by a stated rule.

Every report of the paper ends with a table of the claims its records can test; a row says ``holds``,
``does not hold`` or ``untested (why)``, the rule, and the numbers the verdict rests on. The rules are fixed here
(not tuned to the results) and quoted in the table:

* multi-label (Table 2): the three losses are comparable, with sparsemax best in some cells;
* label proportions (Figure 3): the sparsemax loss is better beyond an average length of about 400 words;
* SNLI (Table 3): soft ≈ sparse attention > no attention and logistic attention (paired per seed);
* SNLI (Tables 3, 4): sparse attention selects few words.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import mean, stdev
from typing import Mapping, Sequence

from ..tables import md_table

HOLDS, FAILS = "holds", "does not hold"
COMPARABLE_POINTS = 3.0      # Table 2: each loss's mean gap to the best loss, in F1 points
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
def multilabel_claim(cells: Sequence[Mapping[str, float]], n_datasets: int) -> Claim:
    """``cells``: per (paper dataset, metric) with all three losses, the test F1 (%) of each loss."""
    claim = "The three losses perform comparably in multi-label classification; sparsemax is best in some cells"
    rule = (f"comparable: every loss's mean gap to the best loss over the paper's (dataset, metric) cells is at most "
            f"{COMPARABLE_POINTS:g} F1 points; some cells: sparsemax best (ties count) in at least one cell")
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
