"""Martins & Astudillo (2016): every claim of the paper as a typed claim of the kit, decided on our records."""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from statistics import mean, stdev
from typing import Mapping, Sequence

from scipy import stats as st
from statsmodels.stats.power import TTestPower

from .runs import point_of, replicates
from ..claims import Claim, Verdict as V, stats

SE_FACTOR = 2.0              # Table 2's bold: best in a cell when no loss is better by 2 paired bootstrap SEs
F1_MARGIN = 1.0              # "very similar": within ±1 F1 point (a stated practical margin)
ACC_MARGIN = 1.0             # SNLI "perform similarly": within ±1 accuracy point (a stated practical margin)
REL_MARGIN = 0.10            # Figure 3 "similar": within ±10 % of softmax's MSE / JS (a stated practical margin)
ABOUT_400 = 600.0            # Figure 3: "beyond about 400" is tested at every L ≥ this (one grid step past 400)
FEW_WORDS = 0.5              # SNLI: sparse attention keeps at most this share of the premise words (practical)
COMPARABLE_POINTS = 3.0      # ours, weaker: each loss's mean gap to the best, in F1 points
POINTER = "## The paper's claims\n\nEvery claim on these numbers, with its test and verdict: `claims.md`.\n"
T2, F3, T3, T4 = "§4.2, Table 2", "§4.2, Figure 3", "§4.3, Table 3", "§4.3, Table 4"


@dataclass(frozen=True)
class Cell:
    """One (dataset, metric) cell: each loss's F1 points and its paired bootstrap replicates (none: noise 0)."""

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


@dataclass(frozen=True)
class Paired:
    """Paired per-seed difference a − b of test accuracy (points) over the seeds both variants ran."""

    a: str
    b: str
    n: int
    diff: float
    se: float | None             # sd of the per-seed differences / sqrt(n); None below 2 seeds

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


# ---------------------------------------------------------------- Table 2
METRICS = ("micro_f1", "macro_f1")


def cells(by: Mapping[tuple[str, str], dict], dataset: str, losses: Sequence[str]) -> list[Cell]:
    """One cell per metric for a dataset that has every loss (else [])."""
    if not all((dataset, l) in by for l in losses):
        return []
    out = []
    for metric in METRICS:
        reps = {l: replicates(by[(dataset, l)], metric) for l in losses}
        out.append(Cell(f"{dataset} {metric.replace('_f1', '')}", {l: 100 * by[(dataset, l)]["metrics"][metric]
                                                                     for l in losses},
                        None if any(v is None for v in reps.values()) else reps))
    return out


def similar_claim(cells: Sequence[Cell], scope: str) -> Claim:
    quote, q = "the three losses perform very similarly", "gap of each loss to its cell's best (F1 points), every cell"
    if not cells or any(c.reps is None for c in cells):
        return Claim(quote, T2, q, V.UNTESTED, reason="no paper dataset with all three losses and a test-set bootstrap")
    tests = [(c.name, l, stats.from_se(c.scores[c.top] - c.scores[l], c.se(c.top, l), math.inf,
                                       "paired bootstrap SE (normal)")) for c in cells for l in c.scores if l != c.top]
    tost = [stats.tost_t(t, F1_MARGIN)[0] for _, _, t in tests]
    worst = max(range(len(tests)), key=lambda i: tests[i][2].estimate)
    v = (V.HOLDS if max(tost) < stats.LEVEL else V.FAILS if any(t.ci[0] > F1_MARGIN for *_, t in tests)
         else V.INCONCLUSIVE)
    t = tests[worst][2]
    apart = sum(t.ci[0] > F1_MARGIN for *_, t in tests)
    return Claim(quote, T2, f"{q} ({scope})", v, t.estimate, t.ci, "very similar",
                 f"TOST within ±{F1_MARGIN:g} F1 point (practical, fixed in code) on each gap: largest p = "
                 f"{stats.fmt_p(max(tost))}", detail=f"largest gap: {tests[worst][0]} {tests[worst][1]}; "
                 f"{sum(p < stats.LEVEL for p in tost)} of {len(tests)} gaps shown within the margin, {apart} beyond it",
                 p=max(tost))


def paper_count(ref) -> tuple[int, int] | None:
    """(cells where sparsemax is best, cells) from papers.yaml's Table 2 summary ("best in 4 of the 10")."""
    m = re.search(r"sparsemax is best in (\d+) of the (\d+)", str((ref or {}).get("reported_summary", "")))
    return (int(m.group(1)), int(m.group(2))) if m else None


def advantage_claim(cells: Sequence[Cell], scope: str, ref=None) -> Claim:
    quote = "a slight advantage of sparsemax"
    q = "cells where each loss has the highest number (as the paper counts; ties count for each)"
    pc = paper_count(ref)
    pcell = f"sparsemax best in {pc[0]} of {pc[1]}" if pc else "–"
    if not cells:
        return Claim(quote, T2, q, V.UNTESTED, paper=pcell, reason="no paper dataset with all three losses")
    losses = sorted({l for c in cells for l in c.scores})
    top = {l: sum(c.scores[l] == max(c.scores.values()) for c in cells) for l in losses}
    v = V.HOLDS if all(top["sparsemax"] >= n for n in top.values()) else V.FAILS
    return Claim(quote, T2, f"{q} ({scope})", v, paper=pcell, test="a count of point estimates, as the paper's",
                 detail=", ".join(f"{l} {n} of {len(cells)}" for l, n in top.items()))


def labels_claim(n_datasets: int) -> Claim:
    return Claim("sparsemax appears better suited for problems with larger numbers of labels", T2,
                 "sparsemax's gap to the best against the number of labels, over datasets", V.UNTESTED,
                 reason=f"{n_datasets} datasets (Reuters missing): a rank correlation over {n_datasets} label counts "
                        "cannot reach p < 0.05")


def weaker_claim(cells: Sequence[Mapping[str, float]], n_datasets: int) -> Claim:
    quote = "the three losses perform comparably (mean gap to the best ≤ 3 F1 points); sparsemax best in some cell"
    if not cells:
        return Claim(quote, T2, "mean gap to the best", V.UNTESTED, reason="no paper dataset", ours=True)
    gaps = {l: mean(max(c.values()) - c[l] for c in cells) for l in sorted(cells[0])}
    wins = sum(c["sparsemax"] == max(c.values()) for c in cells)
    ok = max(gaps.values()) <= COMPARABLE_POINTS and wins >= 1
    return Claim(quote, T2, f"mean gap to the best, {n_datasets} datasets", V.HOLDS if ok else V.FAILS, ours=True,
                 test="point estimates against the stated 3 points",
                 detail=", ".join(f"{l} {g:.2f}" for l, g in gaps.items()) + f"; sparsemax best in {wins}")


# ---------------------------------------------------------------- Figure 3 (seed means and SDs per point)
def _welch_stats(m1, s1, n1, m2, s2, n2) -> stats.Test:
    r = st.ttest_ind_from_stats(m1, s1, n1, m2, s2, n2, equal_var=False)
    d = m1 - m2
    se = d / float(r.statistic) if r.statistic else math.hypot(s1 / n1 ** 0.5, s2 / n2 ** 0.5)
    v1, v2 = s1 ** 2 / n1, s2 ** 2 / n2          # scipy returns this test's p, not its Welch–Satterthwaite df
    df = (v1 + v2) ** 2 / (v1 ** 2 / (n1 - 1) + v2 ** 2 / (n2 - 1)) if v1 + v2 else math.inf
    lo, hi = st.t(df).interval(1 - stats.LEVEL)
    return stats.Test(d, (d + lo * se, d + hi * se), float(r.pvalue), f"Welch t from seed means/SDs (df {df:.1f})",
                      float(df), float(se))


def _by_point(rows: Sequence[dict]) -> dict[tuple[int, str, float, str], dict]:
    return {point_of(r): r for r in rows if "num_labels" in r["config"].get("data", {}) and "metrics" in r}


def figure3_points(rows: Sequence[dict]) -> dict[tuple[int, str, float, str], stats.Test]:
    """{(K, mixture, L, metric): Welch test of sparsemax − softmax}; each record holds its seeds' mean and SD."""
    by = _by_point(rows)
    out = {}
    for (K, mix, L, loss), r in by.items():
        other = by.get((K, mix, L, "softmax"))
        if loss != "sparsemax" or other is None:
            continue
        k = len((r.get("extra") or {}).get("seeds") or [x for x in (r.get("best") or {}) if x.startswith("l2_mse_seed")])
        for m in ("mse", "js"):
            a, b = r["metrics"], other["metrics"]
            if k > 1 and a.get(f"{m}_std") is not None:
                out[(K, mix, L, m)] = _welch_stats(a[m], a[f"{m}_std"], k, b[m], b[f"{m}_std"], k)
    return out


def figure3_claims(rows: Sequence[dict]) -> list[Claim]:
    pts = figure3_points(rows)
    q1 = f"sparsemax − softmax loss at every (K, mixture, metric) point with L ≥ {ABOUT_400:g} (lower is better)"
    quote1 = "beyond an average document length of about 400 words the sparsemax loss is consistently better"
    quote2 = "softmax and sparsemax losses are similar for short documents"
    q2 = "the same difference at L < 400, relative to softmax's value"
    if not pts:
        return [Claim(quote1, F3, q1, V.UNTESTED, reason="no Figure 3 run with seeds"),
                Claim(quote2, F3, q2, V.UNTESTED, reason="no Figure 3 run with seeds")]
    far = [(k, t) for k, t in pts.items() if k[2] >= ABOUT_400]
    ps = stats.holm([t.p for _, t in far])
    d = [stats.decide(t, p) for (_, t), p in zip(far, ps)]
    v1 = V.HOLDS if far and all(x < 0 for x in d) else V.FAILS if any(x > 0 for x in d) else V.INCONCLUSIVE
    worst = max(range(len(far)), key=lambda i: far[i][1].estimate) if far else None
    out = [Claim(quote1, F3, q1, v1, far[worst][1].estimate if far else None, far[worst][1].ci if far else None,
                 test=f"Welch t per point (3 seeds); Holm over {len(far)}", digits=4, p=max(ps) if ps else None,
                 detail=f"least negative: K={far[worst][0][0]} {far[worst][0][1]} L={far[worst][0][2]:g} "
                        f"{far[worst][0][3].upper()}; sparsemax lower at {sum(x < 0 for x in d)} of {len(far)} "
                        "points at 5 % after Holm" if far else "")]
    base = {k[:3]: r["metrics"] for k, r in _by_point(rows).items() if k[3] == "softmax"}
    near = [(k, t) for k, t in pts.items() if k[2] < 400]
    if not near:
        out.append(Claim(quote2, F3, q2, V.UNTESTED, reason="no length below 400 in the grid"))
        return out
    tost = [stats.tost_t(t, REL_MARGIN * base[k[:3]][k[3]])[0] for k, t in near]
    beyond = [t.ci[0] > REL_MARGIN * base[k[:3]][k[3]] or t.ci[1] < -REL_MARGIN * base[k[:3]][k[3]] for k, t in near]
    v2 = V.HOLDS if max(tost) < stats.LEVEL else V.FAILS if any(beyond) else V.INCONCLUSIVE
    out.append(Claim(quote2, F3, q2, v2, test=f"TOST within ±{REL_MARGIN:.0%} of softmax's value (practical, fixed "
                     f"in code) per point: largest p = {stats.fmt_p(max(tost))}", p=max(tost),
                     detail=f"{sum(p < stats.LEVEL for p in tost)} of {len(near)} points shown similar, "
                            f"{sum(beyond)} apart (L {', '.join(sorted({f'{k[2]:g}' for k, _ in near}))})"))
    return out


# ---------------------------------------------------------------- SNLI (Tables 3, 4)
def _diffs(res, a: str, b: str) -> list[float] | None:
    if a not in res or b not in res:
        return None
    seeds = sorted(set(res[a].test_by_seed) & set(res[b].test_by_seed))
    return [res[a].test_by_seed[s] - res[b].test_by_seed[s] for s in seeds] if len(seeds) >= 2 else None


def snli_claims(res, examples: Sequence[tuple[str, str, str]] | None = None) -> list[Claim]:
    """``res``: :func:`.table3.select`; ``examples``: (variant, prediction, gold) of Table 4, or None."""
    out = []
    q = "test accuracy difference, paired by seed, each variant at its dev-chosen L2"
    d = _diffs(res, "sparse", "soft")
    if d is None:
        out.append(Claim("soft and sparse attention perform similarly", T3, q, V.UNTESTED, reason="fewer than 2 "
                         "seeds shared by soft and sparse attention"))
        out.append(Claim("sparse slightly more accurate on the test set", T3, q, V.UNTESTED, reason="fewer than 2 seeds"))
    else:
        t = stats.one_sample(d, "paired t over seeds")
        p, ci = stats.tost(d, [0.0] * len(d), ACC_MARGIN, paired=True)
        v = V.HOLDS if p < stats.LEVEL else V.FAILS if t.ci[0] > ACC_MARGIN or t.ci[1] < -ACC_MARGIN else V.INCONCLUSIVE
        out.append(Claim("soft and sparse attention perform similarly", T3, "sparse − soft: " + q, v, t.estimate,
                         t.ci, test=f"TOST paired (statsmodels), ±{ACC_MARGIN:g} point (practical, fixed in code): "
                         f"p = {stats.fmt_p(p)}, 90 % CI [{ci[0]:+.2f}, {ci[1]:+.2f}]", p=p))
        sd = stdev(d)
        out.append(Claim("sparse slightly more accurate on the test set", T3, "sparse − soft: " + q,
                         {1: V.HOLDS, -1: V.FAILS, 0: V.INCONCLUSIVE}[stats.decide(t)], t.estimate, t.ci, test=t.text(),
                         p=t.p, detect=f"detects ≥ {sd * float(TTestPower().solve_power(nobs=len(d), alpha=stats.LEVEL, power=stats.POWER)):.2f} "
                                       f"points at 80 % power with {len(d)} seeds" if stats.decide(t) == 0 else ""))
    tests, labels = [], []
    for a in ("soft", "sparse"):
        for b in ("none", "logistic"):
            dd = _diffs(res, a, b)
            if dd is not None:
                tests.append(stats.one_sample(dd, "paired t over seeds"))
                labels.append(f"{a} − {b}")
    quote = "both beat no attention and logistic attention"
    if len(tests) < 4:
        out.append(Claim(quote, T3, q, V.UNTESTED, reason="a variant of the paper's four has fewer than 2 seeds"))
    else:
        ps = stats.holm([t.p for t in tests])
        low = min(tests, key=lambda t: t.estimate)
        out.append(Claim(quote, T3, q, stats.signs(tests, ps), low.estimate, low.ci, test="paired t over seeds; Holm "
                         "over 4", p=max(ps), detail="smallest; " + stats.listing(labels, tests, ps, " ")))
    sp, so = res.get("sparse"), res.get("soft")
    fq = "sparse attention selects few premise words"
    if sp is None or not sp.attended or not sp.premise_words:
        out.append(Claim(fq, T4, "nonzero-weight premise words on test", V.UNTESTED, reason="no sparse-attention run "
                         "with attention statistics", quoted=False))
    else:
        share = sp.attended[0] / sp.premise_words
        out.append(Claim(fq, T4, "nonzero-weight premise words on test / premise length", V.HOLDS if share <= FEW_WORDS
                         else V.FAILS, share, test=f"share ≤ {FEW_WORDS:g} (practical, fixed in code)", quoted=False,
                         detail=f"{sp.attended[0]:.2f} of {sp.premise_words:.2f} words" + (
                             f"; softmax {so.attended[0]:.2f}" if so and so.attended else "")))
    eq = "classified all four examples correctly"
    if not examples:
        out.append(Claim(eq, T4, "sparse attention's prediction on Table 4's examples", V.UNTESTED,
                         reason="the SNLI runs' examples are in their run extras, which this report's records do not hold"))
    else:
        got = [(p == g) for v, p, g in examples if v == "sparse"]
        out.append(Claim(eq, T4, f"sparse attention's prediction on our {len(got)} Table 4 examples",
                         V.HOLDS if got and all(got) else V.FAILS, detail=f"{sum(got)} of {len(got)} correct",
                         test="a count"))
    return out
