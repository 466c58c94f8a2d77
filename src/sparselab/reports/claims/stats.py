"""The standard tests the claims use, from scipy.stats and statsmodels, so no verdict rests on a rule of our own."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np
import pandas as pd
from scipy import optimize, stats as st
from statsmodels.formula.api import ols
from statsmodels.stats.anova import anova_lm
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.power import NormalIndPower, TTestIndPower, ttest_power
from statsmodels.stats.weightstats import ttost_ind, ttost_paired

from .claim import Verdict

LEVEL = 0.05        # every test: two-sided 95 % intervals, one-sided tests at 5 % (TOST: 90 % intervals)
POWER = 0.80


@dataclass(frozen=True)
class Test:
    """An estimate (a − b), its 95 % interval, its p-value (H0: 0) and the test's name with its degrees of freedom."""

    estimate: float
    ci: tuple[float, float]
    p: float
    name: str
    df: float | None = None
    se: float | None = None

    def text(self, p: float | None = None) -> str:
        return f"{self.name}: p = {fmt_p(self.p if p is None else p)}"


def fmt_p(p: float) -> str:
    return f"{p:.2g}" if p < 0.001 else f"{p:.3f}"


def from_se(d: float, se: float, df: float, name: str) -> Test:
    """A t-based test of d against 0 with standard error se and df degrees of freedom (df = inf: normal)."""
    dist = st.norm if math.isinf(df) else st.t(df)
    if se <= 0:
        return Test(d, (d, d), 0.0 if d else 1.0, name, df, se)
    lo, hi = dist.interval(1 - LEVEL)
    return Test(d, (float(d + lo * se), float(d + hi * se)), float(2 * dist.sf(abs(d) / se)), name, df, se)


def welch(a: Sequence[float], b: Sequence[float]) -> Test:
    """Welch's t test of mean(a) − mean(b) (scipy), both cells with 2 or more seeds."""
    r = st.ttest_ind(a, b, equal_var=False)
    ci = r.confidence_interval(1 - LEVEL)
    d = float(np.mean(a) - np.mean(b))
    return Test(d, (float(ci.low), float(ci.high)), float(r.pvalue), f"Welch t (df {r.df:.1f})", float(r.df),
                float(d / r.statistic) if r.statistic else 0.0)


def pooled_sd(cells: Sequence[Sequence[float]]) -> tuple[float, int]:
    """(within-cell SD, its df) from a one-way ols on the cells; (nan, 0) when no cell has 2 seeds."""
    long = pd.DataFrame([(float(y), i) for i, ys in enumerate(cells) for y in ys], columns=["y", "cell"])
    if long.empty or long.groupby("cell").size().max() < 2:
        return math.nan, 0
    fit = ols("y ~ C(cell)", data=long).fit() if long["cell"].nunique() > 1 else ols("y ~ 1", data=long).fit()
    return float(math.sqrt(fit.mse_resid)), int(round(fit.df_resid))


def pooled(a: Sequence[float], b: Sequence[float], sd: float, df: int) -> Test:
    """t test of mean(a) − mean(b) with the pooled within-grid SD (a cell with 1 seed has no SD of its own)."""
    se = sd * math.sqrt(1 / len(a) + 1 / len(b))
    return from_se(float(np.mean(a) - np.mean(b)), se, df, f"pooled-SD t (SD {sd:.2f}, df {df})")


def difference(a: Sequence[float], b: Sequence[float], sd_df: tuple[float, int]) -> Test | None:
    """Welch where both cells have 2+ seeds, else the pooled-SD t; None when neither can be computed."""
    if len(a) >= 2 and len(b) >= 2 and (np.var(a) + np.var(b)) > 0:
        return welch(a, b)
    sd, df = sd_df
    return pooled(a, b, sd, df) if a and b and df > 0 and not math.isnan(sd) else None


def one_sample(d: Sequence[float], name: str = "paired t") -> Test:
    """Mean of paired differences against 0 (scipy's one-sample t), with its interval."""
    r = st.ttest_1samp(d, 0.0)
    ci = r.confidence_interval(1 - LEVEL)
    return Test(float(np.mean(d)), (float(ci.low), float(ci.high)), float(r.pvalue), f"{name} (n {len(d)}, df {r.df:g})",
                float(r.df), float(st.sem(d)))


def anova2(y: Sequence[float], a: Sequence[float], b: Sequence[float]) -> dict[str, tuple[float, float, float, float]]:
    """Type II two-way ANOVA, with the interaction where df allow: {"a"|"b": (F, df, df residual, p)}."""
    data = pd.DataFrame({"y": y, "a": [str(x) for x in a], "b": [str(x) for x in b]})
    cells = len(set(zip(data["a"], data["b"])))
    fit = ols("y ~ C(a) * C(b)" if len(data) > cells else "y ~ C(a) + C(b)", data=data).fit()
    t = anova_lm(fit, typ=2)
    res = float(t.loc["Residual", "df"])
    return {k: (float(t.loc[f"C({k})", "F"]), float(t.loc[f"C({k})", "df"]), res, float(t.loc[f"C({k})", "PR(>F)"]))
            for k in ("a", "b")}


def holm(ps: Sequence[float]) -> list[float]:
    """Holm-adjusted p-values (statsmodels multipletests) of one claim's comparisons."""
    return [float(x) for x in multipletests(list(ps), alpha=LEVEL, method="holm")[1]] if ps else []


def tost(a: Sequence[float], b: Sequence[float], margin: float, paired: bool = False) -> tuple[float, tuple[float, float]]:
    """TOST equivalence of mean(a) − mean(b) within ±margin (statsmodels): (p, 90 % interval)."""
    if paired:
        p = ttost_paired(np.asarray(a, float), np.asarray(b, float), -margin, margin)[0]
        ci = st.ttest_1samp(np.subtract(a, b), 0.0).confidence_interval(1 - 2 * LEVEL)
    else:
        p = ttost_ind(np.asarray(a, float), np.asarray(b, float), -margin, margin, usevar="unequal")[0]
        ci = st.ttest_ind(a, b, equal_var=False).confidence_interval(1 - 2 * LEVEL)
    return float(p), (float(ci.low), float(ci.high))


def tost_t(t: Test, margin: float) -> tuple[float, tuple[float, float]]:
    """TOST of a t-based estimate (pooled SD, combined BLEU): the larger one-sided p, and the 90 % interval."""
    dist = st.norm if t.df is None or math.isinf(t.df) else st.t(t.df)
    se = t.se or 0.0
    if se <= 0:
        return (0.0 if abs(t.estimate) < margin else 1.0), (t.estimate, t.estimate)
    p = max(dist.sf((t.estimate + margin) / se), dist.cdf((t.estimate - margin) / se))
    lo, hi = dist.interval(1 - 2 * LEVEL)
    return float(p), (float(t.estimate + lo * se), float(t.estimate + hi * se))


def noninferior(t: Test, margin: float) -> float:
    """One-sided p of H0: estimate ≤ −margin (the 'no worse than by margin' test, df of ``t``)."""
    dist = st.norm if t.df is None or math.isinf(t.df) else st.t(t.df)
    return float(dist.sf((t.estimate + margin) / t.se)) if t.se else float(t.estimate <= -margin)


def paired_bootstrap(x: Sequence[float], y: Sequence[float], stat: Callable[[np.ndarray], float],
                     n: int = 2000, seed: int = 0) -> tuple[float, tuple[float, float]]:
    """stat(x) − stat(y) over the same units and its 95 % interval (scipy's paired bootstrap)."""
    return paired_statistic((x, y), lambda u, v: stat(u) - stat(v), n, seed)


def paired_statistic(arrays: Sequence[Sequence[float]], stat: Callable[..., float], n: int = 2000,
                     seed: int = 0) -> tuple[float, tuple[float, float]]:
    """Any statistic of several arrays over the same units, and its 95 % interval (scipy's paired bootstrap)."""
    arrs = [np.asarray(a, float) for a in arrays]
    r = st.bootstrap(arrs, stat, paired=True, vectorized=False, n_resamples=n, method="percentile",
                     confidence_level=1 - LEVEL, rng=np.random.default_rng(seed))
    return float(stat(*arrs)), (float(r.confidence_interval.low), float(r.confidence_interval.high))


def combined_bleu(diffs: Sequence[float], boot_vars: Sequence[float]) -> Test:
    """Per-seed BLEU differences with their bootstrap variances: var of mean = (seed var + mean boot var) / n."""
    n = len(diffs)
    seed_var = float(np.var(diffs, ddof=1)) if n > 1 else 0.0
    se = math.sqrt((seed_var + float(np.mean(boot_vars))) / n)
    return from_se(float(np.mean(diffs)), se, n - 1 if n > 1 else math.inf,
              f"paired bootstrap (sacrebleu) + seed variance ({n} seed{'s' * (n > 1)})")


def detectable(n1: int, n2: int, sd: float, df: float | None = None) -> float:
    """The smallest difference a two-sample t detects at 80 % power; ``df``: that of a pooled SD."""
    if n1 < 1 or n2 < 1 or not sd or math.isnan(sd):
        return math.nan
    if df is None:
        if n1 + n2 < 3:
            return math.nan
        return float(TTestIndPower().solve_power(nobs1=n1, ratio=n2 / n1, alpha=LEVEL, power=POWER)) * sd
    if df < 1:
        return math.nan
    nobs = 1 / (1 / n1 + 1 / n2)      # the noncentrality of a difference of means is d * sqrt(nobs)

    def short(d: float) -> float:        # power at effect d (in SDs) minus the target (statsmodels, the given df)
        return float(ttest_power(d, nobs, LEVEL, df=df)) - POWER
    hi = 1.0
    while short(hi) < 0 and hi < 1e4:   # bracket from below: far out the noncentral t is NaN, which ends it too
        hi *= 2
    return float(optimize.brentq(short, 1e-9, hi)) * sd if short(hi) >= 0 else math.nan


def detectable_se(se: float) -> float:
    """The smallest difference a two-sided z test with standard error ``se`` detects at 80 % power (statsmodels)."""
    return float(NormalIndPower().solve_power(nobs1=1, ratio=0, alpha=LEVEL, power=POWER)) * se


def seeds_needed(effect: float, sd: float) -> int | None:
    """Seeds per cell a two-sample t test needs to detect ``effect`` with 80 % power (None: no effect or SD)."""
    if not effect or not sd or math.isnan(sd):
        return None
    try:
        n = float(TTestIndPower().solve_power(effect_size=abs(effect) / sd, alpha=LEVEL, power=POWER))
    except (ValueError, RuntimeError):
        n = math.nan
    return 2 if math.isnan(n) else max(2, math.ceil(n))     # nan: an effect this large needs the fewest seeds a t test has


def power_note(n1: int, n2: int, sd: float, paper_effect: float | None, unit: str = "points",
               df: float | None = None) -> str:
    """An inconclusive row's note: the effect detectable at 80 % power, the seeds the paper's effect needs."""
    d = detectable(n1, n2, sd, df)
    pooled = f", pooled SD df {df:g}" if df is not None else ""
    parts = [f"detects ≥ {d:.2f} {unit} at 80 % power with {n1} vs {n2} seeds{pooled}"] if not math.isnan(d) else []
    k = seeds_needed(paper_effect, sd) if paper_effect is not None else None
    if k:
        parts.append(f"the paper's {paper_effect:+.2f} needs {k} seeds per cell")
    return "; ".join(parts)


def vertex(x: Sequence[float], y: Sequence[float], draws: int = 4000, seed: int = 0):
    """Quadratic fit y ~ x + x²: (argmax, its 95 % interval, p of negative curvature); None below 4 distinct x."""
    if len(set(x)) < 4:
        return None
    fit = ols("y ~ x + I(x ** 2)", data=pd.DataFrame({"x": x, "y": y})).fit()
    b, c = float(fit.params["x"]), float(fit.params["I(x ** 2)"])
    draw = np.random.default_rng(seed).multivariate_normal(fit.params.to_numpy(), fit.cov_params().to_numpy(), draws)
    concave = draw[:, 2] < 0
    tops = -draw[concave, 1] / (2 * draw[concave, 2])
    p_curve = float(st.t(fit.df_resid).cdf(c / fit.bse["I(x ** 2)"]))
    ci = (float(np.percentile(tops, 2.5)), float(np.percentile(tops, 97.5))) if concave.mean() > 0.5 else (-math.inf, math.inf)
    return (-b / (2 * c) if c < 0 else math.nan), ci, p_curve


def decide(t: Test, p: float | None = None):
    """The sign a two-sided test decides: +1 (estimate > 0 at 5 %), −1 (< 0), 0 (the interval holds 0)."""
    p = t.p if p is None else p
    return 0 if p >= LEVEL else (1 if t.estimate > 0 else -1)


def signs(tests: Sequence[Test], ps: Sequence[float], sign: int = 1) -> Verdict:
    """All decided ``sign``-wards at 5 % (after Holm): holds; one the other way: does not hold; else inconclusive."""
    d = [decide(t, p) * sign for t, p in zip(tests, ps)]
    if d and all(x > 0 for x in d):
        return Verdict.HOLDS
    return Verdict.FAILS if any(x < 0 for x in d) else Verdict.INCONCLUSIVE


def listing(labels: Sequence[str], tests: Sequence[Test], ps: Sequence[float], sep: str = ": ") -> str:
    """Each comparison's estimate, 95 % interval and Holm p, for a claim's detail."""
    return "; ".join(f"{l}{sep}{t.estimate:+.2f} [{t.ci[0]:+.2f}, {t.ci[1]:+.2f}], Holm p {fmt_p(p)}"
                     for l, t, p in zip(labels, tests, ps))

