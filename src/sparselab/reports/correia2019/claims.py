"""Correia, Niculae & Martins (2019): every claim of §4–5 as a typed claim of the kit, decided on our records."""
from __future__ import annotations

import re
from pathlib import Path
from statistics import median
from typing import Any, Callable, Mapping, Sequence

import numpy as np
from scipy import stats as st

from sparselab.analysis.head_summary import KINDS

from . import analysis as ana
from .heads import SELF, prev_confidences
from ..claims import Claim, Verdict as V, stats, untested as _u
from ..templates import template
from ..claims.bleu import seed_pairs
from ..tables import md_table
from .runs import LABELS, PAIRS, SPARSE, by_key, seed_of

BLEU_MARGIN = 0.5        # "costs no BLEU": no loss beyond 0.5 BLEU (the paper gives no std; a stated practical margin)
MOVE_FRACTION = 0.5      # ours: τ = this × std over heads of α at step 0 ...
MIN_TAU = 0.01           # ... but at least this (heads started alike: std 0)
DENSE = 0.9              # a near-dense head
DENSE_MODE = 0.125       # a mode of near-dense heads: at least this share of a model's heads (3 of 24)
NEAR_TWO = 1.75          # Figure 3's upper encoder mode "near α → 2": its mean above this
BPE_HEADS = 2            # the paper reports two BPE-merging heads above its threshold per sparse model
MIN_QUESTIONS = 20
S4, S5 = "§4, Table 1", "§5"


def _sign(ci: tuple[float, float]) -> V:
    return V.HOLDS if ci[0] > 0 else V.FAILS if ci[1] < 0 else V.INCONCLUSIVE


# ---------------------------------------------------------------- Table 1
def _bleu_tests(folder: Path, recs, stem) -> dict[tuple[str, str], stats.Test] | str:
    g, out = by_key(recs), {}
    for pair in PAIRS:
        soft = {seed_of(r): r for r in g.get((pair, "softmax"), [])}
        for m in (m for m in SPARSE if (pair, m) in g and soft):
            sparse = {seed_of(r): r for r in g[(pair, m)]}
            if both := [(sparse[s], soft[s]) for s in sorted(soft.keys() & sparse.keys())]:
                if isinstance(t := seed_pairs(folder, both, stem), str):
                    return t
                out[(pair, m)] = t
    return out or "needs softmax and a sparse model run on the same direction"


def bleu_claims(folder: Path, recs: Sequence[dict], stem: Callable[[dict, str], str], ref) -> list[Claim]:
    rows = (ref.get("table1_bleu") or {}).get("rows") or {}
    col = ((ref.get("table1_bleu") or {}).get("columns") or ["?"])[0]
    paper = {m: rows[m][0] - rows["softmax"][0] for m in SPARSE if m in rows and "softmax" in rows}
    higher = [(a > b) for m in SPARSE if m in rows and "softmax" in rows for a, b in zip(rows[m], rows["softmax"])]
    q = "tokenized test BLEU, sparse − softmax, per seed pair"
    tests = _bleu_tests(folder, recs, stem)
    if isinstance(tests, str):
        return [_u("sparse attention costs no BLEU", S4, q, tests, quoted=False),
                _u("sparse attention Transformers tend to have slightly higher BLEU", S4, q, tests)]
    out = []
    for (pair, m), t in tests.items():
        p = stats.noninferior(t, BLEU_MARGIN)
        v = V.HOLDS if p < stats.LEVEL else V.FAILS if t.ci[1] < -BLEU_MARGIN else V.INCONCLUSIVE
        out.append(Claim(f"sparse attention costs no BLEU: {LABELS[m]}", S4, f"{pair}: {q}", v, t.estimate, t.ci,
                         f"{paper[m]:+.2f} ({col})" if m in paper else "–",
                         f"non-inferiority, margin {BLEU_MARGIN:g} BLEU (practical, fixed in code), on the {t.name}: "
                         f"p = {stats.fmt_p(p)}", quoted=False, p=p,
                         detect=f"detects a loss ≥ {stats.detectable_se(t.se):.2f} BLEU at 80 % power" if t.se else ""))
    ts = list(tests.values())
    ps = stats.holm([t.p for t in ts])
    v = stats.signs(ts, ps)
    low = min(ts, key=lambda t: t.estimate)
    out.append(Claim("sparse attention Transformers tend to have slightly higher BLEU", S4, q, v, low.estimate, low.ci,
                     f"sparse above softmax in {sum(higher)} of {len(higher)} cells" if higher else "–",
                     f"{low.name}; Holm over {len(ts)}", p=max(ps), detail="smallest; " + stats.listing(
                         [f"{pair} {LABELS[m]}" for pair, m in tests], ts, ps, " ")))
    return out


# ---------------------------------------------------------------- α (Figures 2, 3)
def _aligned_alpha(runs: Sequence[dict]) -> dict[str, tuple[list[float], list[float]]]:
    """{kind: (α at step 0, learned α)} of the same heads, seeds pooled."""
    out: dict[str, tuple[list[float], list[float]]] = {}
    for r in runs:
        hist = ana.trajectory(r)
        for kind, layers in (r.get("extra", {}).get("learned_alpha") or {}).items():
            for layer in sorted(layers, key=int):
                start = (hist[0]["alpha"].get(f"{kind}/l{layer}") if hist else None)
                if start is not None and len(start) == len(layers[layer]):
                    a0, a1 = out.setdefault(kind, ([], []))
                    a0 += [float(x) for x in start]
                    a1 += [float(x) for x in layers[layer]]
    return {k: out[k] for k in KINDS if k in out}


def trajectory_claims(runs: Sequence[dict]) -> list[Claim]:
    q1 = "heads whose α at the first recorded step after 0 is below its α at step 0 (α-entmax, seeds pooled)"
    quote1, quote2 = "most heads first move toward softmax", "then after about 1k steps some become sparser"
    paths = [p for r in runs for p in head_paths(ana.trajectory(r))[1].values() if len(p) > 1]
    if not paths:
        return [_u(quote1, f"{S5}, Figure 2", q1, "no α-entmax run with a recorded trajectory"),
                _u(quote2, f"{S5}, Figure 2", "heads that rose after their lowest α", "no α-entmax trajectory")]
    moves = [p[1] - p[0] for p in paths if p[1] != p[0]]
    down = sum(m < 0 for m in moves)
    t = st.binomtest(down, len(moves), 0.5)
    ci = t.proportion_ci(1 - stats.LEVEL)
    v1 = V.HOLDS if t.pvalue < stats.LEVEL and down * 2 > len(moves) else (
        V.FAILS if t.pvalue < stats.LEVEL else V.INCONCLUSIVE)
    first = [Claim(quote1, f"{S5}, Figure 2", q1, v1, down / len(moves), (ci.low, ci.high), "most heads",
                   f"binomial test against 1/2 (scipy): p = {stats.fmt_p(t.pvalue)}", p=t.pvalue,
                   detail=f"{down} of {len(moves)} heads that moved")]
    turns, kinds = [], {}          # the step of each turning head's lowest α, and α's summed lr to it
    for r in runs:
        steps, ps = head_paths(ana.trajectory(r))
        tau = move_threshold([p[0] for p in ps.values()])
        for (kind, _, _), p in ps.items():
            c = classify(p, tau)
            if c["then_rose"]:
                step = steps[c["lowest_index"]]
                turns.append((step, ana.alpha_room_at(r, step)))
                kinds[kind] = kinds.get(kind, 0) + 1
    detail = f"{len(turns)} of {len(paths)} heads"
    if turns:
        st_, room = np.array([t[0] for t in turns]), np.array([t[1] for t in turns])
        detail += (f" ({', '.join(f'{ana.KIND_NAMES[k]} {kinds[k]}' for k in KINDS if k in kinds)}); turn (lowest α) at step "
                   f"{np.median(st_):,.0f} (median; {st_.min():,}–{st_.max():,}), α's summed lr there "
                   f"{np.median(room):.1f}")
    first.append(Claim(quote2, f"{S5}, Figure 2", "heads that fell first, then rose above their lowest α by τ (τ: half "
                       "the std of α over heads at step 0, ours)", V.HOLDS if turns else V.FAILS,
                       paper="some heads, after about 1k steps", test="a count: one such head holds it", detail=detail))
    return first


def _bc(x) -> float:
    b = ana.bimodality_coefficient(x)
    return np.nan if b is None else b


def bimodality_claims(runs: Sequence[dict]) -> list[Claim]:
    al = _aligned_alpha(runs)
    out, changes = [], []
    for kind in KINDS:
        want = kind == "enc_self"
        quote = ("learned α bimodal in encoder self-attention" if want else
                 f"learned α unimodal in {ana.KIND_NAMES[kind]}")
        q = f"bimodality coefficient of the learned α over heads, {ana.KIND_NAMES[kind]} (uniform: {ana.BC_UNIFORM:.3f})"
        if kind not in al or len(al[kind][1]) < 4:
            out.append(_u(quote, f"{S5}, Figure 3", q, "no α-entmax run", quoted=False))
            continue
        a0, a1 = al[kind]
        bc, ci = stats.paired_statistic((a1,), _bc)
        s = ana.alpha_stats(a1)
        if np.isnan(ci[0]):
            v = V.INCONCLUSIVE
        elif want:
            v = V.HOLDS if ci[0] > ana.BC_UNIFORM and s["near_1"] > 0 and s["near_2"] > 0 else (
                V.FAILS if ci[1] < ana.BC_UNIFORM else V.INCONCLUSIVE)
        else:
            v = V.HOLDS if ci[1] < ana.BC_UNIFORM else V.FAILS if ci[0] > ana.BC_UNIFORM else V.INCONCLUSIVE
        out.append(Claim(quote, f"{S5}, Figure 3", q, v, bc, ci, "bimodal" if want else "unimodal",
                         "bootstrap interval over heads (scipy) against a uniform's BC", quoted=False, digits=3,
                         detail=f"{s['n']} heads; outer thirds {s['near_1']:.0%} / {s['near_2']:.0%}"))
        changes.append((kind, *stats.paired_bootstrap(a1, a0, _bc)))
    if changes:
        ok = all(c[2][0] > 0 or c[2][1] < 0 for c in changes)
        enc = next((c for c in changes if c[0] == "enc_self"), changes[0])
        out.append(Claim("training changed the shape of α from its step-0 shape in every attention type", f"{S5}, Figure 3",
                         "BC at the end − BC at step 0, the same heads", V.HOLDS if ok else V.INCONCLUSIVE, enc[1], enc[2],
                         test="paired bootstrap over the same heads (scipy)", ours=True, digits=3,
                         detail=f"{ana.KIND_NAMES[enc[0]]}; " + "; ".join(
                             f"{ana.KIND_NAMES[k]} {d:+.3f} [{c[0]:+.3f}, {c[1]:+.3f}]" for k, d, c in changes)))
    enc = next((c for c in out if c.quote.startswith("learned α bimodal")), None)
    q = "the mean α of the encoder heads in each outer third"
    quote = "two encoder modes: one near α → 2, one between softmax and 1.5-entmax"
    if enc is None or enc.verdict is not V.HOLDS:
        out.append(_u(quote, f"{S5}, Figure 3", q, "our encoder self-attention α is not shown bimodal (row above)",
                      quoted=False))
    else:
        a = np.asarray(al["enc_self"][1])
        hi, lo = a[a > ana.THIRDS[1]].mean(), a[a < ana.THIRDS[0]].mean()
        ok = hi >= NEAR_TWO and 1.0 < lo < 1.5
        out.append(Claim(quote, f"{S5}, Figure 3", q, V.HOLDS if ok else V.FAILS, paper="near 2; in (1, 1.5)",
                         test=f"upper mode mean ≥ {NEAR_TWO:g}, lower in (1, 1.5)", quoted=False,
                         detail=f"upper {hi:.2f}, lower {lo:.2f}"))
    return out


def layers_differ(runs: Sequence[dict]) -> Claim:
    quote, q = "heads in different layers learn different sparsity preferences", "learned α by layer, per attention type"
    fs = []
    for kind in KINDS:
        by_layer: dict[str, list[float]] = {}
        for r in runs:
            for layer, a in ((r.get("extra", {}).get("learned_alpha") or {}).get(kind) or {}).items():
                by_layer.setdefault(layer, []).extend(float(x) for x in a)
        if len(by_layer) >= 2 and all(len(v) >= 2 for v in by_layer.values()):
            fs.append((kind, st.f_oneway(*by_layer.values()), len(by_layer)))
    if not fs:
        return _u(quote, f"{S5}, Figure 3", q, "fewer than 2 layers with α-entmax heads")
    ps = stats.holm([float(f.pvalue) for _, f, _ in fs])
    v = V.HOLDS if all(p < stats.LEVEL for p in ps) else V.INCONCLUSIVE
    return Claim(quote, f"{S5}, Figure 3", q, v, test=f"one-way ANOVA over layers (scipy f_oneway); Holm over {len(fs)}",
                 p=max(ps), detail="; ".join(f"{ana.KIND_NAMES[k]} F = {float(f.statistic):.1f} ({n} layers), Holm p "
                                             f"{stats.fmt_p(p)}" for (k, f, n), p in zip(fs, ps)))


# ---------------------------------------------------------------- JS (Figure 6)
def js_claims(runs: Mapping[str, list[dict]]) -> list[Claim]:
    quote = "both sparse variants show more diversity than softmax"
    q = "JS head diversity, sparse − softmax, every (attention type, layer, sparse model), seed means"
    if "softmax" not in runs or not any(m in runs for m in SPARSE):
        return [_u(quote, f"{S5}, Figure 6", q, "needs the softmax run and a sparse run", quoted=False)]
    end = {v: ana.mean_js(rs, "heads") for v, rs in runs.items()}
    start = {v: ana.mean_js(rs, "heads_initial") for v, rs in runs.items()}
    gaps, gaps0 = [], []
    for kind in KINDS:
        for m in (m for m in SPARSE if m in runs):
            for layer, b in end["softmax"].get(kind, {}).items():
                if layer in end[m].get(kind, {}):
                    gaps.append(end[m][kind][layer] - b)
                    gaps0.append(start[m].get(kind, {}).get(layer, np.nan) - start["softmax"].get(kind, {}).get(layer, np.nan))
    up = sum(g > 0 for g in gaps)
    t = st.binomtest(up, len(gaps), 0.5)
    v = V.HOLDS if t.pvalue < stats.LEVEL and up * 2 > len(gaps) else V.FAILS if t.pvalue < stats.LEVEL else V.INCONCLUSIVE
    mean_t = stats.one_sample(gaps, "t over the comparisons") if len(gaps) > 1 else None
    out = [Claim(quote, f"{S5}, Figure 6", q, v, mean_t.estimate if mean_t else None, mean_t.ci if mean_t else None,
                 "higher for both", f"sign test (scipy binomtest) over {len(gaps)} comparisons: p = {stats.fmt_p(t.pvalue)}",
                 detail=f"sparse higher in {up} of {len(gaps)}", digits=3, p=t.pvalue)]
    d = [g - g0 for g, g0 in zip(gaps, gaps0) if not np.isnan(g0)]
    if len(d) > 1:
        t0 = stats.one_sample(d, "paired t over the comparisons")
        out.append(Claim("the gap to softmax is larger than at step 0 (training made it)", f"{S5}, Figure 6",
                         "gap at the end − gap at step 0, the same comparisons", _sign(t0.ci), t0.estimate, t0.ci,
                         test=t0.text(), ours=True, digits=3, p=t0.p))
    else:
        out.append(_u("the gap to softmax is larger than at step 0 (training made it)", f"{S5}, Figure 6", "–",
                      "no JS at step 0", ours=True))
    qp = "JS of the best middle layer − the higher end layer, per run (encoder self and context attention)"
    qquote = "peaking in the middle layers of encoder self- and context attention"
    per_run = []
    for m in (m for m in SPARSE if m in runs):
        for r in runs[m]:
            for kind in ("enc_self", "context"):
                js = {int(k): float(x) for k, x in (((r.get("extra", {}).get("heads") or {}).get("js") or {}).get(kind)
                                                   or {}).items()}
                if len(js) >= 3:
                    last = max(js)
                    per_run.append(max(js[k] for k in js if 0 < k < last) - max(js[0], js[last]))
    if len(per_run) < 2:
        out.append(_u(qquote, f"{S5}, Figure 6", qp, "fewer than 3 layers: no middle layer", quoted=False))
    else:
        tp = stats.one_sample(per_run, "t over runs × attention types")
        out.append(Claim(qquote, f"{S5}, Figure 6", qp, _sign(tp.ci), tp.estimate, tp.ci, "middle layers", tp.text(),
                         quoted=False, digits=3, p=tp.p))
    return out


# ---------------------------------------------------------------- density (Figures 4, 5)
def _std(x) -> float:
    return float(np.std(np.asarray(x, dtype=float)))


def density_claims(runs: Mapping[str, list[dict]]) -> list[Claim]:
    quote = "α-entmax spreads its head densities more than 1.5-entmax, with a mode of near-dense heads"
    q = "std of head density over heads, α-entmax − 1.5-entmax, per attention type"
    if not all(m in runs for m in SPARSE):
        return [_u(quote, f"{S5}, Figures 4–5", q, "needs the 1.5-entmax and α-entmax runs", quoted=False)]
    a1, a0 = ana.flat_density(runs["alpha_entmax"], "heads"), ana.flat_density(runs["alpha_entmax"], "heads_initial")
    f1, f0 = ana.flat_density(runs["entmax15"], "heads"), ana.flat_density(runs["entmax15"], "heads_initial")
    kinds = [k for k in KINDS if len(a1.get(k, [])) == len(f1.get(k, [])) > 1]
    spread = {k: stats.paired_statistic((a1[k], f1[k]), lambda x, y: _std(x) - _std(y)) for k in kinds}
    share = {k: float(np.mean(np.asarray(a1[k]) >= DENSE)) for k in kinds}
    mode = any(s >= DENSE_MODE for s in share.values())
    v = (V.HOLDS if spread and all(c[0] > 0 for _, c in spread.values()) and mode else
         V.FAILS if any(c[1] < 0 for _, c in spread.values()) or (spread and not mode) else V.INCONCLUSIVE)
    enc = spread.get("enc_self") or next(iter(spread.values()), (None, None))
    out = [Claim(quote, f"{S5}, Figures 4–5", q, v, enc[0], enc[1], test="paired bootstrap over head positions (scipy); "
                 f"a mode: ≥ {DENSE_MODE:.1%} of α-entmax heads with density ≥ {DENSE:g}", quoted=False, digits=3,
                 detail="; ".join(f"{ana.KIND_NAMES[k]} {d:+.3f} [{c[0]:+.3f}, {c[1]:+.3f}], near-dense {share[k]:.0%}"
                                  for k, (d, c) in spread.items()))]
    init = [k for k in kinds if len(a0.get(k, [])) == len(f0.get(k, [])) == len(a1[k])]
    ch = {k: stats.paired_statistic((a1[k], f1[k], a0[k], f0[k]),
                                    lambda w, x, y, z: (_std(w) - _std(x)) - (_std(y) - _std(z))) for k in init}
    if ch:
        vs = [_sign(c) for _, c in ch.values()]
        vo = V.HOLDS if all(x is V.HOLDS for x in vs) else V.FAILS if V.FAILS in vs else V.INCONCLUSIVE
        e = ch.get("enc_self") or next(iter(ch.values()))
        out.append(Claim("the difference in spread is larger than at step 0 (training made it)", f"{S5}, Figures 4–5",
                         "(std α-entmax − std 1.5-entmax) at the end − the same at step 0, the same heads", vo, e[0], e[1],
                         test="paired bootstrap over the same heads (scipy)", ours=True, digits=3,
                         detail="; ".join(f"{ana.KIND_NAMES[k]} {d:+.3f} [{c[0]:+.3f}, {c[1]:+.3f}]"
                                          for k, (d, c) in ch.items())))
    for kind, quote2, sign in (("enc_self", "the encoder self-attention … tends toward extreme sparsity", -1),
                               ("dec_self", "the decoder seems to prefer denser attention", 1)):
        others = [k for k in KINDS if k != kind and a1.get(k)]
        q2 = f"mean head density of α-entmax, {ana.KIND_NAMES[kind]} − each other attention type"
        if not a1.get(kind) or not others:
            out.append(_u(quote2, f"{S5}, Figure 4", q2, "needs α-entmax head densities of every attention type"))
            continue
        ts = [stats.welch(a1[kind], a1[k]) for k in others]
        ps = stats.holm([t.p for t in ts])
        vv = stats.signs(ts, ps, sign)
        low = min(ts, key=lambda t: sign * t.estimate)
        out.append(Claim(quote2, f"{S5}, Figure 4", q2, vv, low.estimate, low.ci, test=f"Welch t over heads; Holm over "
                         f"{len(ts)}", p=max(ps), digits=3, detail="; ".join(
                             f"− {ana.KIND_NAMES[k]} {t.estimate:+.3f}, Holm p {stats.fmt_p(p)}"
                             for k, t, p in zip(others, ts, ps))))
    return out


# ---------------------------------------------------------------- head roles (§5.2)
def role_claims(runs: Mapping[str, list[dict]], ref) -> list[Claim]:
    med_ref = ref.get("positional_head_confidence_median") or {}
    pcell = ", ".join(f"{LABELS[k]} {v:g}" for k, v in med_ref.items() if k in LABELS) or "–"
    quote = "the previous-token heads of the sparse models are more confident than softmax's"
    q = "median confidence of previous-token heads (Voita et al.'s 90 % rule)"
    out = []
    med = ({v: median(c) if (c := prev_confidences(rs, 0.9)) else None for v, rs in runs.items()}
           if all(v in runs for v in ("softmax", *SPARSE)) else {})
    if not med:
        out.append(_u(quote, "§5.2", q, "needs all three models", pcell, quoted=False))
    elif any(m is None for m in med.values()):
        out.append(_u(quote, "§5.2", q, "a model has no previous-token head", pcell, quoted=False))
    else:
        ok = all(med[m] > med["softmax"] for m in SPARSE)
        out.append(Claim(quote, "§5.2", q, V.HOLDS if ok else V.FAILS, paper=pcell, test="medians compared",
                         quoted=False, detail=", ".join(f"{LABELS[v]} {m:.3f}" for v, m in med.items())))
    bq = "BPE-merging heads above the paper's threshold: none for softmax, two per sparse model"
    threshold = paper_bpe_threshold(ref)
    out.append(_u(bq, "§5.2", "the paper's score: a 1-token cluster scores its self-attention weight",
                  "the records hold the score of multi-piece words only; the paper's, with 1-token clusters, needs "
                  "attention maps the records do not store", quoted=False))
    if not all(v in runs for v in ("softmax", *SPARSE)) or threshold is None:
        out.append(_u(bq, "§5.2", "multi-piece words only", "needs all three models and papers.yaml's threshold",
                      ours=True))
    else:
        n = {v: sum(x > threshold for x in _scores(rs, "heads", "bpe_merging")) for v, rs in runs.items()}
        best = {v: _best(rs, "heads", "bpe_merging") for v, rs in runs.items()}
        if not all(_count(rs, "bpe_words") for rs in runs.values()) or None in best.values():
            out.append(_u(bq, "§5.2", "multi-piece words only", "no multi-piece words", ours=True))
        else:
            ok = all(n[m] >= BPE_HEADS * len(runs[m]) and n[m] > n["softmax"] for m in SPARSE)
            out.append(Claim(bq, "§5.2", f"heads above {threshold:g}, our score: multi-piece words only (1-token "
                             "clusters left out)", V.HOLDS if ok else V.FAILS, test="a count per run", ours=True,
                             detail=", ".join(f"{LABELS[v]} {n[v]} over {len(runs[v])} run(s), best {best[v]:.3f}"
                                              for v in runs)))
    nq = {v: _count(rs, "interrogation_queries") for v, rs in runs.items()}
    few = min(nq.values(), default=0)
    iq = "interrogation heads: a sparse model's best head attends to question words more than softmax's"
    if few < MIN_QUESTIONS:
        out.append(_u(iq, "§5.2", "best interrogation score", f"{few} question words in the validation set (Multi30k "
                      f"has hardly any questions), fewer than {MIN_QUESTIONS}", quoted=False))
    else:
        b = {v: _best(rs, "heads", "interrogation") for v, rs in runs.items()}
        ok = any(b.get(m) is not None and b[m] > b["softmax"] for m in SPARSE)
        out.append(Claim(iq, "§5.2", "best interrogation score", V.HOLDS if ok else V.FAILS, quoted=False,
                         detail=", ".join(f"{LABELS[v]} {x:.3f}" for v, x in b.items() if x is not None)))
    return out


def speed_claim(ref) -> Claim:
    r = ref.get("training_speed_vs_softmax") or {}
    return _u("1.5-entmax and α-entmax train slower than softmax", "§4", "training speed relative to softmax",
              "the runs' tokens/s are not reported (jobs shared the machine); speed.md is a benchmark, not a record",
              ", ".join(f"{LABELS[k]} {v:g}×" for k, v in r.items() if k in LABELS) or "–", quoted=False)


def claims(folder: Path, recs: Sequence[dict], stem, runs: Mapping[str, list[dict]], ref) -> list[Claim]:
    """Every claim: ``folder`` holds the BLEU files, ``runs`` the analysed runs per variant."""
    alpha = runs.get("alpha_entmax", [])
    return [*bleu_claims(folder, recs, stem, ref), speed_claim(ref), *trajectory_claims(alpha),
            *bimodality_claims(alpha), layers_differ(alpha), *js_claims(runs), *density_claims(runs),
            *role_claims(runs, ref)]


# ---------------------------------------------------------------- per head
def move_threshold(alpha0: Sequence[float]) -> float:
    return max(MOVE_FRACTION * _std(alpha0), MIN_TAU)


def head_paths(history: Sequence[Mapping[str, Any]]) -> tuple[list[int], dict[tuple[str, int, int], np.ndarray]]:
    """(steps, {(kind, layer, head): α at every recorded step})."""
    steps = [int(h["step"]) for h in history]
    paths = {}
    for site in (history[0]["alpha"] if history else {}):
        kind, layer = site.split("/l")
        a = np.array([h["alpha"][site] for h in history], dtype=float)       # (steps, heads)
        paths.update({(kind, int(layer), j): a[:, j] for j in range(a.shape[1])})
    return steps, paths


def classify(path: np.ndarray, tau: float) -> dict[str, Any]:
    """A head's α path against its start: moved / fell first / then rose (rules in the module docstring)."""
    out_of_band = np.flatnonzero(np.abs(path - path[0]) >= tau)
    moved = out_of_band.size > 0
    fell = moved and path[out_of_band[0]] < path[0]
    lo = int(path.argmin())
    rose = fell and float(path[lo:].max()) >= float(path[lo]) + tau
    return {"moved": moved, "fell_first": bool(fell), "then_rose": bool(rose), "rose_first": moved and not fell,
            "start": float(path[0]), "lowest": float(path[lo]), "lowest_index": lo, "last": float(path[-1])}


def per_head_rows(rec: Mapping[str, Any]) -> list[list[Any]]:
    """Every head's α at step 0, its lowest (step), at the last recorded step and of the selected (best) model."""
    history = ana.trajectory(rec)
    final = rec.get("extra", {}).get("learned_alpha") or {}
    if not history:
        return []
    steps, paths = head_paths(history)
    tau = move_threshold([p[0] for p in paths.values()])
    rows = []
    for (kind, layer, head), p in sorted(paths.items(), key=lambda kv: (KINDS.index(kv[0][0]), kv[0][1:])):
        c = classify(p, tau)
        end = (final.get(kind) or {}).get(str(layer))
        end = float(end[head]) if end else None
        tag = ("fell, then rose" if c["then_rose"] else "fell" if c["fell_first"] else "rose" if c["rose_first"]
               else "within α₀ ± τ")
        rows.append([ana.KIND_NAMES[kind], layer, head, f"{c['start']:.3f}",
                     f"{c['lowest']:.3f} ({steps[c['lowest_index']]})", f"{c['last']:.3f}",
                     ana._f(end), ana._f(end - c["start"] if end is not None else None), tag])
    return rows


def _scores(rs: Sequence[dict], key: str, stat: str) -> list[float]:
    """Every head's ``stat`` score (both self-attentions, every run) in ``extra[key]``."""
    return [s for r in rs for kind in SELF
            for layer in (((r.get("extra", {}).get(key) or {}).get(stat) or {}).get(kind) or {}).values() for s in layer]


def _best(rs: Sequence[dict], key: str, stat: str) -> float | None:
    return max(_scores(rs, key, stat), default=None)


def _count(rs: Sequence[dict], stat: str) -> int:
    return sum(int(((r.get("extra", {}).get("heads") or {}).get(stat) or {}).get(k) or 0) for r in rs for k in SELF)


def paper_bpe_threshold(ref: Mapping[str, Any]) -> float | None:
    """The paper's BPE-merging threshold (papers.yaml ``bpe_merging_score``: "no softmax head above 0.80")."""
    found = re.search(r"above (\d+(?:\.\d+)?)", str(ref.get("bpe_merging_score") or ""))
    return float(found.group(1)) if found else None


def per_head_section(runs: Mapping[str, list[dict]]) -> str:
    """Every head's α at step 0 and at the end (lowest seed)."""
    rs = runs.get("alpha_entmax", [])
    rows = per_head_rows(rs[0]) if rs else []
    text = "\n" + template(__name__)("per_head", seed=seed_of(rs[0]) if rs else "–") + "\n\n"
    return text + (md_table(["attention", "layer", "head", "α step 0", "lowest (step)", "last recorded",
                             "selected model", "change", "path"], rows) if rows else "No α-entmax trajectory.\n")
