"""The claims of Peters, Niculae & Martins (2019), each tested on our run records with a stated rule (``claims.md``).

One row per claim: what the paper says, our numbers, the rule, and the verdict: "holds", "does not hold",
"inconclusive" or "untested (why)". Nothing is typed in: every number is read from the records (inflection: ``table1_<setting>``;
MT: ``table2_mt``) or from papers.yaml.

Noise margin (claims that compare runs): the largest seed spread (max − min over seeds) among the compared
cells that have several seeds. With one seed per cell no spread is measured; the margin is then 0 and the row
says so, so any difference counts — a verdict that one more seed could overturn. Every difference a claim needs is
judged against the margin (:func:`verdict`): all beyond it the claim's way, "holds"; one beyond it the other way,
"does not hold"; otherwise "inconclusive" (the noise decides). BLEU differences also need sacrebleu's paired
bootstrap (p < 0.05) to count.
"""
from __future__ import annotations

from statistics import mean
from typing import Any, Mapping, Sequence

from . import mt
from ..tables import md_table, seed_mean

HOLDS, FAILS, INCONCLUSIVE = "holds", "does not hold", "inconclusive"
ATTENTION_SPREAD_MAX = 3.0     # points; issue 20's acceptance rule for "attention α matters less"
SHARE_TOLERANCE = 0.10         # "approach": within 10 percentage points of the paper's share
ALPHAS = (1.0, 1.5, 2.0)


def untested(why: str) -> str:
    return f"untested ({why})"


def verdict(diffs: Sequence[float], margin: float, significant: Sequence[bool] | None = None) -> str:
    """Three-way verdict on differences that the claim says are positive: "holds" when every one exceeds the
    margin (and is significant, where a test was run), "does not hold" when one is below −margin (and
    significant), else "inconclusive"."""
    sig = list(significant) if significant is not None else [True] * len(diffs)
    if all(d > margin and s for d, s in zip(diffs, sig)):
        return HOLDS
    if any(d < -margin and s for d, s in zip(diffs, sig)):
        return FAILS
    return INCONCLUSIVE


def combine(verdicts: Sequence[str]) -> str:
    """One verdict from several (settings, directions): one failure fails, all holding holds."""
    if FAILS in verdicts:
        return FAILS
    return HOLDS if verdicts and all(v == HOLDS for v in verdicts) else INCONCLUSIVE


def seed_spread(groups: Sequence[Sequence[float]]) -> tuple[float, str]:
    """(margin, how it was set) from per-cell value lists."""
    spreads = [max(v) - min(v) for v in groups if len(v) >= 2]
    if not spreads:
        return 0.0, "one seed per cell: no seed spread measured, margin 0"
    return max(spreads), f"margin = largest seed spread {max(spreads):.2f}"


def _accs(g: Mapping[tuple[float, float], list[dict]], k, metric: str = "acc") -> list[float]:
    return [float(r["metrics"][metric]) for r in g.get(k, []) if r["metrics"].get(metric) is not None]


# ---------------------------------------------------------------- inflection (Table 1, §5)
def sparse_outputs_beat_softmax(groups: Mapping[str, Mapping], ensemble: bool = False,
                                 margins: Mapping[str, tuple[float, str]] | None = None) -> list[Any]:
    """At every attention α, each sparse output (α 1.5, 2) beats the softmax output by more than the margin.
    ``ensemble``: the groups are the seed ensembles (one record per cell), judged against ``margins`` (per
    setting: the single models' seed spread, the only noise measured for them) on the α's the plan ensembles
    (the cpu plan ensembles output α and attention α in {1, 2} only)."""
    claim = f"sparse outputs (α 1.5, 2) beat a softmax output (Table 1{', ensembles' if ensemble else ''})"
    rule = "at every attention α: acc(output α) − acc(output α 1) > margin, for output α 1.5 and 2"
    if not groups:
        return [claim, rule, "–", untested("no inflection setting run" if not ensemble else "no ensemble run")]
    parts, verdicts, hows = [], [], []
    for s, g in groups.items():
        atts = sorted({b for _, b in g}) if ensemble else list(ALPHAS)
        outs = sorted({a for a, _ in g if a > 1.0}) if ensemble else list(ALPHAS[1:])
        if not atts or not outs:        # no ensemble of a sparse output yet: nothing to compare, not a vacuous "holds"
            return [claim, rule, "–", untested(f"{s}: no ensemble of a softmax and a sparse output has finished")]
        if ensemble and (len(atts) < len(ALPHAS) or len(outs) < len(ALPHAS) - 1):
            rule = (f"at attention α {', '.join(f'{b:g}' for b in atts)}: acc(output α) − acc(output α 1) > margin, "
                    f"for output α {', '.join(f'{a:g}' for a in outs)} (the α's ensembled)")
        cells = []
        for b in atts:
            base = _accs(g, (1.0, b))
            if not base or not outs or any(not _accs(g, (a, b)) for a in outs):
                return [claim, rule, "–", untested(f"{s}: a cell of attention α {b:g} has no finished run")]
            cells += [base] + [_accs(g, (a, b)) for a in outs]
        margin, how = (margins or {}).get(s, (0.0, "no seed spread measured, margin 0")) if ensemble \
            else seed_spread(cells)
        hows.append(how)
        diffs = []
        for b in atts:
            ds = [mean(_accs(g, (a, b))) - mean(_accs(g, (1.0, b))) for a in outs]
            diffs += ds
            leads = ", ".join(f"α {a:g} {d:+.2f}" for a, d in zip(outs, ds))
            parts.append(f"{s}, attention α {b:g}: {leads}")
        verdicts.append(verdict(diffs, margin))
    return [claim, f"{rule} ({'; '.join(dict.fromkeys(hows))})", "; ".join(parts), combine(verdicts)]


def attention_matters_less(groups: Mapping[str, Mapping]) -> list[Any]:
    """The attention-α spread at each output α is at most 3 points and smaller, on average, than the output-α
    spread at each attention α."""
    claim = "attention α matters less than output α (Table 1)"
    rule = (f"per setting: {ATTENTION_SPREAD_MAX:g} − max over output α of the attention-α spread > margin, and the "
            "mean output-α spread − the mean attention-α spread > margin (spread = max − min of the seed means)")
    if not groups:
        return [claim, rule, "–", untested("no inflection setting run")]
    parts, verdicts, hows = [], [], []
    for s, g in groups.items():
        m = {(a, b): seed_mean(g.get((a, b), []), "acc") for a in ALPHAS for b in ALPHAS}
        if any(v is None for v in m.values()):
            return [claim, rule, "–", untested(f"{s}: the 3×3 grid is not complete")]
        margin, how = seed_spread([_accs(g, (a, b)) for a in ALPHAS for b in ALPHAS])
        hows.append(how)
        att = [max(m[(a, b)] for b in ALPHAS) - min(m[(a, b)] for b in ALPHAS) for a in ALPHAS]
        out = [max(m[(a, b)] for a in ALPHAS) - min(m[(a, b)] for a in ALPHAS) for b in ALPHAS]
        verdicts.append(verdict([ATTENTION_SPREAD_MAX - max(att), mean(out) - mean(att)], margin))
        parts.append(f"{s}: attention-α spread at output α 1/1.5/2 = " + "/".join(f"{x:.2f}" for x in att)
                     + "; output-α spread at attention α 1/1.5/2 = " + "/".join(f"{x:.2f}" for x in out))
    return [claim, f"{rule} ({'; '.join(dict.fromkeys(hows))})", "; ".join(parts), combine(verdicts)]


def best_key(g: Mapping[Any, list[dict]]) -> Any:
    """The configuration with the highest mean dev accuracy (``val_acc_best``: greedy word accuracy of the kept
    state, the model-selection metric), first in α order on ties. Never the test accuracy: the paper picks its
    best configuration on validation data, and picking on test would overstate it."""
    return max(sorted(g), key=lambda k: seed_mean(g[k], "val_acc_best") or -1)


def shares_approach_paper(groups: Mapping[str, Mapping], ref: Mapping[str, Any]) -> list[Any]:
    """Dev single-sequence / exact-beam shares of the dev-best configuration within 10 points of the paper's."""
    claim = "the best configuration's single-sequence / exact-beam shares on dev approach the paper's (§5)"
    rule = (f"configuration best on dev accuracy; ours within {SHARE_TOLERANCE:.2f} of the paper's for both shares, "
            "on the beam-decoded dev set")
    sp = ref.get("sparsity_inflection", {})
    single, exact = sp.get("best_config_single_sequence_share", {}), sp.get("beam_exact_share", {})
    if not groups:
        return [claim, rule, "–", untested("no inflection setting run")]
    parts, ok = [], True
    for s, g in groups.items():
        if any(not g.get((a, b)) for a in ALPHAS for b in ALPHAS):
            # the best of a partial grid is not the paper's dev-best configuration (the first cells to finish
            # have a softmax output, whose shares are 0 by construction)
            return [claim, rule, "–", untested(f"{s}: the 3×3 grid is not complete, so the dev-best "
                                              "configuration is not known")]
        k = best_key(g)
        ours = seed_mean(g[k], "val_single_share"), seed_mean(g[k], "val_exact_share")
        if None in ours:
            return [claim, rule, "–", untested(f"{s}: the records have no dev shares; their runs predate the task "
                                              "measuring them on dev")]
        paper = single.get(s), exact.get(s)
        if None in paper:
            return [claim, rule, "–", untested(f"{s}: no paper value in papers.yaml")]
        ok &= all(abs(o - p) <= SHARE_TOLERANCE for o, p in zip(ours, paper))
        parts.append(f"{s}, output α {k[0]:g} / attention α {k[1]:g}: single {ours[0]:.2f} (paper {paper[0]:.2f}), "
                     f"exact {ours[1]:.2f} (paper {paper[1]:.2f})")
    return [claim, rule, "; ".join(parts), HOLDS if ok else FAILS]


# ---------------------------------------------------------------- MT (Table 2, Table 3, Figure 4)
def entmax15_best_in_mt(recs: Sequence[dict], pvalues: Mapping[tuple[str, float], float] | None = None) -> list[Any]:
    """``pvalues``: {(direction, mapping α): paired-bootstrap p of its BLEU against 1.5-entmax's}, where the BLEU
    files were there to test (:func:`bootstrap_pvalues`)."""
    claim = "1.5-entmax is the best mapping in MT (Table 2)"
    rule = (f"in every direction run: tokenized BLEU of 1.5-entmax − each other mapping > margin, each difference "
            f"significant by sacrebleu's paired bootstrap (p < {mt.SIGNIFICANCE_LEVEL:g}) where it was run")
    g = mt.by_key(mt.table2_records(recs))
    pairs = sorted({p for p, _, _ in g})
    if not pairs:
        return [claim, rule, "–", untested("no MT run")]
    cells, parts, verdicts = [], [], []
    for p in pairs:
        bleu = {a: mt.values(g.get((p, a, a), []), "bleu_tok") for a in ALPHAS}
        if any(not v for v in bleu.values()):
            return [claim, rule, "–", untested(f"{p}: a mapping has no finished run")]
        cells += list(bleu.values())
    margin, how = seed_spread(cells)
    pvalues = pvalues or {}
    for p in pairs:
        m = {a: mean(mt.values(g[(p, a, a)], "bleu_tok")) for a in ALPHAS}
        others = (1.0, 2.0)
        ps = [pvalues.get((p, a)) for a in others]
        verdicts.append(verdict([m[1.5] - m[a] for a in others], margin,
                                [q is None or q < mt.SIGNIFICANCE_LEVEL for q in ps]))
        tested = ", ".join(f"p {q:.3f}" for q in ps if q is not None)
        parts.append(f"{p}: softmax {m[1.0]:.2f}, 1.5-entmax {m[1.5]:.2f}, sparsemax {m[2.0]:.2f}"
                     + (f" (bootstrap against 1.5-entmax: {tested})" if tested else ""))
    return [claim, f"{rule} ({how})", "; ".join(parts), combine(verdicts)]


def bootstrap_pvalues(out, recs: Sequence[dict]) -> dict[tuple[str, float], float]:
    """{(direction, mapping α): p} from sacrebleu's paired bootstrap on the BLEU files in ``out`` (the rows of
    ``table2_mt.md``'s significance table, :func:`peters2019_mt.significance_rows`): the largest p over the seeds,
    so a difference counts as significant only when it is in every seed."""
    rows, _, _ = mt.significance_rows(out, recs)
    alpha = {label: a for _, a, label in mt.MAPPINGS}
    out_p: dict[tuple[str, float], float] = {}
    for r in rows:
        if r[1] in alpha and r[6] not in (mt.NONE, None):
            key = (r[0], alpha[r[1]])
            out_p[key] = max(out_p.get(key, 0.0), float(r[6]))
    return out_p


def _grid_margin(recs: Sequence[dict]) -> tuple[float, str]:
    """The noise of a one-seed Figure 4 point: the seed spread of validation token accuracy among the Table 2
    cells of the same direction that have several seeds (the grid itself has one seed per point)."""
    g = mt.by_key([r for r in mt.table2_records(recs) if mt.pair_of(r) == mt.FIG4_PAIR])
    margin, how = seed_spread([mt.values(rs, "val_acc_best") for rs in g.values()])
    return margin, how.replace("largest seed spread", f"largest seed spread of the {mt.FIG4_PAIR} Table 2 cells")


def output_optimum_interior(recs: Sequence[dict], ref: Mapping[str, Any]) -> list[Any]:
    claim = f"the output-α optimum is interior (Figure 4, {mt.FIG4_PAIR}, attention α {mt.FIXED:g})"
    rule = ("best validation token accuracy over the output-α grid is at neither end of the grid run, and above both "
            "ends by more than the margin; needs at least 3 grid points")
    pts = [(x, v) for x, v, n, _ in mt.figure4_points(recs, ref)["out"] if v is not None]
    if len(pts) < 3:
        return [claim, rule, "–", untested(f"{len(pts)} output-α point(s) run, 3 needed")]
    margin, how = _grid_margin(recs)
    best = max(pts[1:-1], key=lambda p: p[1])
    numbers = ", ".join(f"α {x:g}: {v:.2f}" for x, v in pts)
    return [claim, f"{rule} ({how})", numbers, verdict([best[1] - v for _, v in (pts[0], pts[-1])], margin)]


def sparser_attention_helps(recs: Sequence[dict], ref: Mapping[str, Any]) -> list[Any]:
    """Figure 4, left: "moving from softmax toward sparser attention has a very small positive effect"."""
    claim = (f"moving from softmax toward sparser attention has a very small positive effect (Figure 4, "
             f"{mt.FIG4_PAIR}, output α {mt.FIXED:g})")
    rule = ("validation token accuracy at each sparser attention α of the grid run − at attention α 1 > margin")
    pts = {x: v for x, v, n, _ in mt.figure4_points(recs, ref)["attn"] if v is not None}
    if 1.0 not in pts or len(pts) < 2:
        return [claim, rule, "–", untested("attention α 1 and a sparser point are needed")]
    margin, how = _grid_margin(recs)
    numbers = ", ".join(f"α {x:g}: {v:.2f}" for x, v in sorted(pts.items()))
    return [claim, f"{rule} ({how})", numbers, verdict([v - pts[1.0] for x, v in pts.items() if x > 1.0], margin)]


def table3_ordering(recs: Sequence[dict]) -> list[Any]:
    claim = ("sparsity ordering of Table 3: softmax > 1.5-entmax > sparsemax in attended source tokens and in nonzero "
             "target tokens")
    rule = "strict order of both means (teacher forcing on validation) in every direction run"
    g = mt.by_key(mt.table2_records(recs))
    pairs = sorted({p for p, _, _ in g})
    if not pairs:
        return [claim, rule, "–", untested("no MT run")]
    parts, ok = [], True
    for p in pairs:
        cols = {}
        for metric in ("attn_support", "out_support"):
            v = [mt.values(g.get((p, a, a), []), metric) for a in ALPHAS]
            if any(not x for x in v):
                return [claim, rule, "–", untested(f"{p}: a mapping has no finished run")]
            cols[metric] = [mean(x) for x in v]
        ok &= all(c[0] > c[1] > c[2] for c in cols.values())
        parts.append(f"{p}: attended " + " / ".join(f"{x:.2f}" for x in cols["attn_support"])
                     + ", nonzero target " + " / ".join(f"{x:.2f}" for x in cols["out_support"]))
    return [claim, rule, "; ".join(parts) + " (softmax / 1.5-entmax / sparsemax)", HOLDS if ok else FAILS]


# ---------------------------------------------------------------- table
def claim_rows(groups: Mapping[str, Mapping], mt_recs: Sequence[dict] | None, ref: Mapping[str, Any],
               ensembles: Mapping[str, Mapping] | None = None,
               pvalues: Mapping[tuple[str, float], float] | None = None) -> list[list]:
    """``groups``: {setting run: {(output α, attention α): records}}; ``ensembles``: the same for the seed
    ensembles (None: the profile ensembles nothing); ``mt_recs``: None when the profile's plan runs no MT;
    ``pvalues``: :func:`bootstrap_pvalues`."""
    margins = {s: seed_spread([_accs(g, (a, b)) for a in ALPHAS for b in ALPHAS]) for s, g in groups.items()}
    rows = [sparse_outputs_beat_softmax(groups)]
    if ensembles is not None:
        rows.append(sparse_outputs_beat_softmax(ensembles, ensemble=True, margins=margins))
    rows += [attention_matters_less(groups), shares_approach_paper(groups, ref)]
    if mt_recs is None:
        mt_claims = ("1.5-entmax is the best mapping in MT (Table 2)", "the output-α optimum is interior (Figure 4)",
                     "moving from softmax toward sparser attention has a very small positive effect (Figure 4)",
                     "sparsity ordering of Table 3")
        return rows + [[c, "–", "–", untested("MT not run in this profile")] for c in mt_claims]
    return rows + [entmax15_best_in_mt(mt_recs, pvalues), output_optimum_interior(mt_recs, ref),
                   sparser_attention_helps(mt_recs, ref), table3_ordering(mt_recs)]


def claims_text(profile: str, groups: Mapping[str, Mapping], mt_recs: Sequence[dict] | None,
                ref: Mapping[str, Any], ensembles: Mapping[str, Mapping] | None = None,
                pvalues: Mapping[tuple[str, float], float] | None = None) -> str:
    text = (f"# The paper's claims, tested on our runs\n\nPeters, Niculae & Martins (2019). Profile: **{profile}**. "
            "Each verdict is computed from the run records by the rule in its row (inflection: mean word accuracy "
            "on the eval split over seeds; MT: tokenized BLEU on test, validation token accuracy for Figure 4). "
            + __doc__.split("\n\n")[2].replace("\n", " ").strip() + "\n\n")
    return text + md_table(["claim", "rule", "our numbers", "verdict"],
                           claim_rows(groups, mt_recs, ref, ensembles, pvalues))
