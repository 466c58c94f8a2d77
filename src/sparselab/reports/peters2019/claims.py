"""Peters, Niculae & Martins (2019): every claim of the paper as a typed claim of the kit, decided on our records."""
from __future__ import annotations

import gzip
from pathlib import Path
from statistics import mean
from typing import Any, Mapping, Sequence

from . import figure4, predictions, runs
from ..claims import Claim, Verdict as V, stats, untested
from ..claims.bleu import seed_pairs
from ..mt_common import BLEU_DIR, pair_of, values
from ..tables import seed_mean

ALPHAS, SETTINGS = runs.ALPHAS, runs.SETTINGS
SHARE_MARGIN = 0.10          # "approach": a share within 0.10 of the paper's (a stated practical margin)
ACC_MARGIN = 0.5             # "very small": within ±0.5 accuracy points (a stated practical margin)
OPTIMUM = (1.125, 1.625)     # "around 1.33": the fitted argmax's 95 % interval inside the paper's grid points nearest it
MIN_POINTS = 5               # a fitted optimum needs this many output-α points
T1, T2, F4 = "§5.1, Table 1", "§5.2, Table 2", "§6, Figure 4"


def _acc(g: Mapping, k, metric: str = "acc") -> list[float]:
    return [float(r["metrics"][metric]) for r in g.get(k, []) if r["metrics"].get(metric) is not None]


def _paper_t1(ref, col: str) -> dict[tuple[float, float], float]:
    t = ref.get("table1_sigmorphon2018", {})
    i = t.get("columns", []).index(col) if col in t.get("columns", []) else None
    return {} if i is None else {tuple(float(x) for x in k.split(",")): float(v[i]) for k, v in t.get("rows", {}).items()}


def size(t: stats.Test, paper: float) -> V:
    """A size claim: holds when the CI excludes 0 and holds the paper's size, fails when it excludes that size."""
    inside = t.ci[0] <= paper <= t.ci[1]
    return V.HOLDS if inside and t.ci[0] > 0 else V.INCONCLUSIVE if inside else V.FAILS


def _note(v: V, sd_df: tuple[float, float], n: tuple[int, int], paper: float | None) -> str:
    """What an inconclusive row detects: ``n`` seeds per cell, ``sd_df`` the pooled SD and its df."""
    return stats.power_note(*n, sd_df[0], paper, df=sd_df[1]) if v is V.INCONCLUSIVE else ""


# ---------------------------------------------------------------- Table 1
def sparse_beat_softmax(groups: Mapping[str, Mapping], ref) -> Claim:
    quote, q = "sparse outputs (1.5-entmax, sparsemax) beat softmax", "acc(output α) − acc(output α 1) at each attention α"
    ran = [s for s in SETTINGS if s in groups]
    paper = _paper_t1(ref, "medium_avg")
    pd = [paper[(a, b)] - paper[(1.0, b)] for b in ALPHAS for a in ALPHAS[1:] if (a, b) in paper and (1.0, b) in paper]
    pcell = f"{min(pd):+.2f} … {max(pd):+.2f} (medium avg)" if pd else "–"
    if not ran:
        return Claim(quote, T1, q, V.UNTESTED, paper=pcell, reason="no inflection setting run", quoted=False)
    s = ran[-1]
    g = groups[s]
    cells = [_acc(g, (a, b)) for a in ALPHAS for b in ALPHAS]
    if any(not c for c in cells):
        return Claim(quote, T1, q, V.UNTESTED, paper=pcell, reason=f"{s}: the 3×3 grid is not complete", quoted=False)
    sd_df = stats.pooled_sd(cells)
    keys = [(a, b) for b in ALPHAS for a in ALPHAS[1:]]
    tests = [stats.difference(_acc(g, k), _acc(g, (1.0, k[1])), sd_df) for k in keys]
    ps = stats.holm([t.p for t in tests])
    v = stats.signs(tests, ps)
    low = min(range(len(tests)), key=lambda i: tests[i].estimate)
    names = sorted({t.name for t in tests})
    undecided = [k for k, t, p in zip(keys, tests, ps) if stats.decide(t, p) == 0] or keys
    n = min(((len(_acc(g, k)), len(_acc(g, (1.0, k[1])))) for k in undecided), key=sum)
    return Claim(quote, T1, f"{s}: {q} (6 differences{'; high not run' if 'high' not in ran else ''})",
                 v, tests[low].estimate, tests[low].ci, pcell, f"{' / '.join(names)}; Holm over 6",
                 detail="smallest; " + stats.listing([f"out {a:g}/att {b:g}" for a, b in keys], tests, ps),
                 detect=_note(v, sd_df, n, min(pd) if pd else None), quoted=False, p=max(ps))


def _ensemble_items(out: Path, setting: str, a: float, b: float, base: float) -> list[float] | str:
    """Per test item (every language): correct(ensemble output α a) − correct(ensemble output α base), attention b."""
    diffs = []
    ens = out / predictions.folder(setting, "ensemble", a, b)
    ref = out / predictions.folder(setting, "ensemble", base, b)
    files = sorted(ens.glob("*-test.gz"))
    if not files or not all((ref / f.name).exists() for f in files):
        return "the ensembles' test predictions are not in the report"
    for f in files:
        lang = f.name.removesuffix("-test.gz")
        try:
            gold = [l.split("\t")[1] for l in predictions.gold_file(setting, lang, "test").read_text(
                encoding="utf-8").splitlines() if l.strip()]
        except (OSError, KeyError, ValueError):
            return f"no gold test file for {lang} on this machine"
        got = [[l.split("\t")[1] for l in gzip.open(p, "rt", encoding="utf-8").read().splitlines() if l.strip()]
               for p in (f, ref / f.name)]
        diffs += [float(x == y) - float(z == y) for x, z, y in zip(got[0], got[1], gold)]
    return diffs


def ensemble_gain(out: Path, ensembles: Mapping[str, Mapping] | None, ref) -> Claim:
    quote = "by nearly a full percentage point with ensembling"
    q = "ensemble acc(sparse output α) − acc(softmax output), same attention α, paired over the test items"
    paper = _paper_t1(ref, "medium_ens")
    if not ensembles or "medium" not in ensembles:
        return Claim(quote, T1, q, V.UNTESTED, reason="no ensemble run")
    g = ensembles["medium"]
    keys = [(a, b) for b in ALPHAS for a in ALPHAS[1:] if g.get((a, b)) and g.get((1.0, b))]
    pv = [paper[k] - paper[(1.0, k[1])] for k in keys if k in paper and (1.0, k[1]) in paper]
    pcell = ", ".join(f"{d:+.2f}" for d in pv) + " (medium ens)" if pv else "–"
    if not keys:
        return Claim(quote, T1, q, V.UNTESTED, paper=pcell, reason="no ensemble of a softmax and a sparse output")
    if len(pv) < len(keys):
        return Claim(quote, T1, q, V.UNTESTED, paper=pcell, reason="papers.yaml has no ensemble value for a cell run")
    tests = []
    for a, b in keys:
        d = _ensemble_items(out, "medium", a, b, 1.0)
        if isinstance(d, str):
            return Claim(quote, T1, q, V.UNTESTED, paper=pcell, reason=d)
        tests.append(stats.one_sample([100 * x for x in d], "paired t over test items"))
    ps = stats.holm([t.p for t in tests])
    vs = [size(t, p) for t, p in zip(tests, pv)]
    v = V.FAILS if V.FAILS in vs else V.HOLDS if all(x is V.HOLDS for x in vs) else V.INCONCLUSIVE
    return Claim(quote, T1, "medium: " + q, v, tests[0].estimate, tests[0].ci, pcell,
                 f"{tests[0].name}; Holm over {len(tests)}; size: the interval must hold the paper's gain",
                 detail=stats.listing([f"out {a:g}/att {b:g}" for a, b in keys], tests, ps), p=max(ps))


def largest_gain(groups: Mapping[str, Mapping], ref) -> Claim:
    quote = "up to two and a half points in the medium setting without ensembling"
    q = "medium: the largest acc(sparse output) − acc(softmax output) at the same attention α"
    paper = _paper_t1(ref, "medium_avg")
    keys = [(a, b) for b in ALPHAS for a in ALPHAS[1:]]
    pv = max((paper[k] - paper[(1.0, k[1])] for k in keys if k in paper and (1.0, k[1]) in paper), default=None)
    pcell = f"{pv:+.2f} (largest, medium avg)" if pv is not None else "–"
    g = (groups or {}).get("medium")
    if not g or any(not _acc(g, (a, b)) for a in ALPHAS for b in ALPHAS):
        return Claim(quote, T1, q, V.UNTESTED, paper=pcell, reason="the medium 3×3 grid is not complete")
    sd_df = stats.pooled_sd([_acc(g, (a, b)) for a in ALPHAS for b in ALPHAS])
    k = max(keys, key=lambda k: mean(_acc(g, k)) - mean(_acc(g, (1.0, k[1]))))
    t = stats.difference(_acc(g, k), _acc(g, (1.0, k[1])), sd_df)
    return Claim(quote, T1, q, size(t, pv), t.estimate, t.ci, pcell,
                 f"{t.text()}; size: the interval must hold the paper's largest gain",
                 detail=f"output α {k[0]:g} / attention α {k[1]:g}", p=t.p)


def attention_matters_less(groups: Mapping[str, Mapping], ref) -> Claim:
    quote, q = "the choice of attention α matters less than that of the output α", "two-way ANOVA over the 3×3 grid"
    g = (groups or {}).get("medium")
    paper = _paper_t1(ref, "medium_avg")
    if len(paper) == 9:
        spread = lambda f: mean(max(f(x, y) for y in ALPHAS) - min(f(x, y) for y in ALPHAS) for x in ALPHAS)  # noqa: E731
        pcell = (f"mean spread over output α {spread(lambda x, y: paper[(y, x)]):.2f}, over attention α "
                 f"{spread(lambda x, y: paper[(x, y)]):.2f} (medium avg)")
    else:
        pcell = "–"
    if not g or any(not _acc(g, (a, b)) for a in ALPHAS for b in ALPHAS):
        return Claim(quote, T1, q, V.UNTESTED, paper=pcell, reason="the medium 3×3 grid is not complete", quoted=False)
    runs = [(y, a, b) for a in ALPHAS for b in ALPHAS for y in _acc(g, (a, b))]
    f = stats.anova2(*zip(*runs))
    (fo, do, dr, po), (fa, da, _, pa) = f["a"], f["b"]
    v = (V.HOLDS if po < stats.LEVEL and fo > fa else V.FAILS if pa < stats.LEVEL and fa >= fo else V.INCONCLUSIVE)
    return Claim(quote, T1, "medium: " + q, v, paper=pcell,
                 test=f"two-way ANOVA (statsmodels, type II, {len(runs)} runs): holds when output α is significant "
                      "and its F the larger", quoted=False, p=po,
                 detail=f"output α F({do:g}, {dr:g}) = {fo:.1f}, p = {stats.fmt_p(po)}; attention α F({da:g}, {dr:g}) "
                        f"= {fa:.1f}, p = {stats.fmt_p(pa)}")


def shares(groups: Mapping[str, Mapping], ref) -> Claim:
    quote = "the best configuration's single-sequence / exact-beam shares on dev approach the paper's"
    q = ("dev shares of the sparse-output configurations tied for best dev accuracy (pooled-SD t, p ≥ 0.05 against "
         "the best; a softmax output's shares are 0 by construction)")
    sp = ref.get("sparsity_inflection", {})
    p1, p2 = (sp.get("best_config_single_sequence_share", {}).get("medium"), sp.get("beam_exact_share", {}).get("medium"))
    pcell = f"single {p1:.2f}, exact {p2:.2f} (medium)" if None not in (p1, p2) else "–"
    g = (groups or {}).get("medium")
    if not g or any(not g.get((a, b)) for a in ALPHAS for b in ALPHAS):
        return Claim(quote, "§5.1", q, V.UNTESTED, paper=pcell, reason="the medium 3×3 grid is not complete",
                     quoted=False)
    dev = {k: _acc(g, k, "val_acc_best") for k in g}
    sd_df = stats.pooled_sd(list(dev.values()))
    best = max(sorted(dev), key=lambda k: mean(dev[k]))
    tied = [k for k in sorted(dev) if k[0] > 1.0 and (k == best or stats.difference(dev[best], dev[k], sd_df).p >= stats.LEVEL)]
    got = {k: (seed_mean(g[k], "val_single_share"), seed_mean(g[k], "val_exact_share")) for k in tied}
    if any(None in v for v in got.values()) or None in (p1, p2):
        return Claim(quote, "§5.1", q, V.UNTESTED, paper=pcell, reason="no dev shares in the records or papers.yaml",
                     quoted=False)
    ok = [abs(s1 - p1) <= SHARE_MARGIN and abs(s2 - p2) <= SHARE_MARGIN for s1, s2 in got.values()]
    v = V.HOLDS if all(ok) else V.FAILS if not any(ok) else V.INCONCLUSIVE
    return Claim(quote, "§5.1", "medium: " + q, v, paper=pcell, quoted=False,
                 test=f"tie set by {stats.difference(dev[best], dev[tied[-1]], sd_df).name}; margin ±{SHARE_MARGIN:.2f} "
                      "on each share (practical, fixed in code); inconclusive when the tied cells disagree",
                 detect="the tie for best on dev decides" if v is V.INCONCLUSIVE else "",
                 detail="; ".join(f"out {k[0]:g}/att {k[1]:g}: single {s1:.2f}, exact {s2:.2f}" for k, (s1, s2)
                                  in got.items()) + f" ({len(tied)} of the 6 sparse-output cells tied for best on dev)")


# ---------------------------------------------------------------- MT
def entmax15_best(out: Path, recs: Sequence[dict], ref) -> Claim:
    quote, q = "1.5-entmax is the best mapping in MT", "tokenized test BLEU, 1.5-entmax − softmax and − sparsemax"
    g = runs.by_key(runs.table2_records(recs))
    pairs = [p for p in runs.PAIRS if all(g.get((p, a, a)) for a in ALPHAS)]
    rows = (ref.get("table2_mt_bleu") or {}).get("rows", {})
    cols = (ref.get("table2_mt_bleu") or {}).get("columns", [])
    pv = {(p, o): rows["entmax15"][cols.index(p)][0] - rows[o][cols.index(p)][0] for p in pairs for o in ("softmax", "sparsemax")
          if p in cols and o in rows}
    pcell = ", ".join(f"{p} {o} {d:+.2f}" for (p, o), d in pv.items()) or "–"
    if not pairs:
        return Claim(quote, T2, q, V.UNTESTED, paper=pcell, reason="no MT direction with all three mappings", quoted=False)
    tests, labels = [], []
    for p in pairs:
        for o, a in (("softmax", 1.0), ("sparsemax", 2.0)):
            base = {runs.seed_of(r): r for r in g[(p, a, a)]}
            t = seed_pairs(out / BLEU_DIR, [(r, base[runs.seed_of(r)]) for r in g[(p, 1.5, 1.5)]
                                            if runs.seed_of(r) in base], runs.bleu_file_stem)
            if isinstance(t, str):
                return Claim(quote, T2, q, V.UNTESTED, paper=pcell, reason="BLEU files missing", quoted=False)
            tests.append(t)
            labels.append(f"{p} − {o}")
    ps = stats.holm([t.p for t in tests])
    v = stats.signs(tests, ps)
    low = min(range(len(tests)), key=lambda i: tests[i].estimate)
    detect = "; ".join(f"{l}: detects ≥ {stats.detectable_se(t.se):.2f} BLEU" for l, t, p in zip(labels, tests, ps)
                       if stats.decide(t, p) == 0 and t.se) if v is V.INCONCLUSIVE else ""
    return Claim(quote, T2, q, v, tests[low].estimate, tests[low].ci, pcell, f"{tests[low].name}; Holm over {len(tests)}",
                 detail="smallest; " + stats.listing(labels, tests, ps), detect=detect, quoted=False, p=max(ps))


def _grid(recs, ref, grid: str):
    """({α: runs' val_acc_best}, {α: paper}, pooled (SD, df) over the de-en cells) of a Figure 4 grid."""
    pts = figure4.figure4_points(recs, ref)[grid]
    g = runs.by_key([r for r in recs if pair_of(r) == figure4.FIG4_PAIR])
    return ({x: v for x, rs, _ in pts if (v := values(rs, "val_acc_best"))},
            {x: y for x, _, y in pts if y is not None}, stats.pooled_sd([values(rs, "val_acc_best") for rs in g.values()]))


def _ran(pts) -> str:
    return ", ".join(f"{x:g}" for x in pts)


def optimum_interior(recs, ref) -> Claim:
    quote = "the best output-α point of the grid run lies inside it, above both ends"
    q = f"{figure4.FIG4_PAIR} validation token accuracy, output α grid (attention α {figure4.FIXED:g})"
    pts, paper, sd_df = _grid(recs, ref, "out")
    if len(pts) < 3:
        return Claim(quote, F4, q, V.UNTESTED, reason=f"{len(pts)} output-α point(s) run, 3 needed", ours=True)
    xs = list(pts)
    best = max(xs[1:-1], key=lambda x: mean(pts[x]))
    tests = [stats.difference(pts[best], pts[e], sd_df) for e in (xs[0], xs[-1])]
    ps = stats.holm([t.p for t in tests])
    v = stats.signs(tests, ps)
    low = min(tests, key=lambda t: t.estimate)
    return Claim(quote, F4, q, v, low.estimate, low.ci, f"α {best:g} − ends: " + ", ".join(
        f"{paper[best] - paper[e]:+.2f}" for e in (xs[0], xs[-1]) if best in paper and e in paper),
        f"{low.name}; Holm over 2", detail=f"α {best:g} − α {xs[0]:g} / α {xs[-1]:g}: " + stats.listing(
            [f"α {xs[0]:g}", f"α {xs[-1]:g}"], tests, ps),
        detect=_note(v, sd_df, (len(pts[best]), len(pts[xs[0]])), None), ours=True, p=max(ps))


def optimum_near(recs, ref) -> Claim:
    quote, q = "a distinct optimal value around 1.33", "argmax of a quadratic fit over the output-α grid (every run)"
    pts, paper, _ = _grid(recs, ref, "out")
    pfit = stats.vertex(list(paper), list(paper.values())) if len(paper) >= MIN_POINTS else None
    pcell = f"argmax of the paper's points {pfit[0]:.2f}" if pfit else "–"
    if len(pts) < MIN_POINTS:
        return Claim(quote, F4, q, V.UNTESTED, paper=pcell,
                     reason=f"only the points {_ran(pts)} were run; a fitted optimum needs {MIN_POINTS}")
    x = [a for a, v in pts.items() for _ in v]
    top, ci, p = stats.vertex(x, [y for v in pts.values() for y in v])
    inside = OPTIMUM[0] <= ci[0] and ci[1] <= OPTIMUM[1]
    v = (V.HOLDS if p < stats.LEVEL and inside else V.FAILS if p < stats.LEVEL and (ci[1] < OPTIMUM[0] or ci[0] > OPTIMUM[1])
         else V.INCONCLUSIVE)
    return Claim(quote, F4, q, v, top, ci, pcell, f"ols y ~ α + α² (statsmodels): curvature p = {stats.fmt_p(p)}; "
                 f"holds when the argmax's 95 % interval lies in [{OPTIMUM[0]:g}, {OPTIMUM[1]:g}]", p=p,
                 detail=f"points {_ran(pts)}")


def beyond_two(recs, ref) -> Claim:
    quote = "extrapolating beyond the sparsemax loss (α > 2) does not seem to perform well"
    q = "val. accuracy of the best output α ≤ 2 − at α 2.25"
    pts, paper, sd_df = _grid(recs, ref, "out")
    pbest = max((x for x in paper if x <= 2), key=lambda x: paper[x], default=None)
    pcell = f"{paper[pbest] - paper[2.25]:+.2f}" if pbest is not None and 2.25 in paper else "–"
    if 2.25 not in pts or not any(x <= 2 for x in pts):
        return Claim(quote, F4, q, V.UNTESTED, paper=pcell, reason=f"only the points {_ran(pts)} were run")
    best = max((x for x in pts if x <= 2), key=lambda x: mean(pts[x]))
    t = stats.difference(pts[best], pts[2.25], sd_df)
    v = stats.signs([t], [t.p])
    return Claim(quote, F4, q, v, t.estimate, t.ci, pcell, t.text(), detail=f"best α {best:g}",
                 detect=_note(v, sd_df, (len(pts[best]), len(pts[2.25])), None), p=t.p)


def sparser_attention(recs, ref) -> Claim:
    quote = "moving from softmax toward sparser attention has a very small positive effect"
    q = f"val. accuracy at the sparsest attention α run − at α 1 (output α {figure4.FIXED:g})"
    pts, paper, sd_df = _grid(recs, ref, "attn")
    top = max((x for x in pts if x <= 2), default=None)
    pcell = f"{paper[top] - paper[1.0]:+.2f}" if top in paper and 1.0 in paper else "–"
    if 1.0 not in pts or top in (None, 1.0):
        return Claim(quote, F4, q, V.UNTESTED, paper=pcell, reason="attention α 1 and a sparser point are needed")
    t = stats.difference(pts[top], pts[1.0], sd_df)
    p, ci90 = stats.tost_t(t, ACC_MARGIN)
    out = t.ci[1] < -ACC_MARGIN or t.ci[0] > ACC_MARGIN or t.ci[1] < 0
    v = V.HOLDS if p < stats.LEVEL and t.estimate > 0 else V.FAILS if out else V.INCONCLUSIVE
    return Claim(quote, F4, q, v, t.estimate, t.ci, pcell,
                 f"TOST within ±{ACC_MARGIN:g} points (practical margin, fixed in code) on the {t.name}: p = "
                 f"{stats.fmt_p(p)}, 90 % CI [{ci90[0]:+.2f}, {ci90[1]:+.2f}]", detail=f"α {top:g} − α 1",
                 detect=_note(v, sd_df, (len(pts[top]), len(pts[1.0])), None), p=p)


def table3_order(recs, ref) -> Claim:
    quote = "softmax > 1.5-entmax > sparsemax in attended source tokens and in nonzero target tokens"
    q = "adjacent differences of both means, every direction run (validation, teacher forcing)"
    g = runs.by_key(runs.table2_records(recs))
    pairs = [p for p in runs.PAIRS if all(g.get((p, a, a)) for a in ALPHAS)]
    rows = (ref.get("table3_sparsity_deen") or {}).get("rows", {})
    pcell = ("de-en attended " + " / ".join(f"{rows[m][0]:g}" for m in ("softmax", "entmax15", "sparsemax"))
             if all(m in rows for m in ("softmax", "entmax15", "sparsemax")) else "–")
    if not pairs:
        return Claim(quote, "§6, Table 3", q, V.UNTESTED, paper=pcell, reason="no MT direction with all three mappings")
    tests, labels, single = [], [], []
    for p in pairs:
        for m in ("attn_support", "out_support"):
            cells = [values(g[(p, a, a)], m) for a in ALPHAS]
            got = [stats.difference(cells[i], cells[i + 1], stats.pooled_sd(cells)) for i in (0, 1)]
            if None in got:
                single.append(p)
                continue
            tests += got
            labels += [f"{p} {m} α {ALPHAS[i]:g} − α {ALPHAS[i + 1]:g}" for i in (0, 1)]
    single = sorted(set(single))
    if single:
        q += f" ({', '.join(single)}: 1 seed per cell, no spread to test against)"
    if not tests:
        return Claim(quote, "§6, Table 3", q, V.UNTESTED, paper=pcell, reason="no direction has 2 seeds per cell")
    ps = stats.holm([t.p for t in tests])
    low = min(range(len(tests)), key=lambda i: tests[i].estimate)
    return Claim(quote, "§6, Table 3", q, stats.signs(tests, ps), tests[low].estimate, tests[low].ci, pcell,
                 f"Welch / pooled-SD t; Holm over {len(tests)}", detail="smallest; " + stats.listing(labels, tests, ps),
                 p=max(ps))


def speed(ref) -> Claim:
    v = (ref.get("figure6_training_speed_deen") or {}).get("values", {})
    pcell = ", ".join(f"{k} {x:g}" for k, x in v.items()) + " words/s" if v else "–"
    return Claim("exact 1.5-entmax trains nearly as fast as softmax, bisection slower", "§6, Figure 6",
                 "target words per second by mapping", V.UNTESTED, paper=pcell, quoted=False,
                 reason="a CPU benchmark (figure6_speed.md), not a run record: no seeds, no GPU")


# ---------------------------------------------------------------- table
def claims(out: Path, groups: Mapping[str, Mapping], mt_recs: Sequence[dict] | None, ref: Mapping[str, Any],
           ensembles: Mapping[str, Mapping] | None = None) -> list[Claim]:
    """``groups``/``ensembles``: {setting: {(output α, attention α): records}}; ``mt_recs`` None: MT not run."""
    rows = [sparse_beat_softmax(groups, ref), ensemble_gain(Path(out), ensembles, ref), largest_gain(groups, ref),
            attention_matters_less(groups, ref), shares(groups, ref)]
    if mt_recs is None:
        return rows + [untested(c, s, "–", "MT not run in this profile") for c, s in (
            ("1.5-entmax is the best mapping in MT", T2), ("a distinct optimal value around 1.33", F4),
            ("moving from softmax toward sparser attention has a very small positive effect", F4))]
    return rows + [entmax15_best(Path(out), mt_recs, ref), optimum_interior(mt_recs, ref), optimum_near(mt_recs, ref),
                   beyond_two(mt_recs, ref), sparser_attention(mt_recs, ref), table3_order(mt_recs, ref), speed(ref)]
