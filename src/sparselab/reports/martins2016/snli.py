"""Reports of Martins & Astudillo (2016) §4.3, SNLI: Table 3 (accuracy per attention variant), Table 4
(attention examples) and the attention heatmaps.

* Table 3 -- per attention variant: the L2 penalty chosen by mean dev accuracy over seeds, dev and test
             accuracy (mean ± standard error over seeds at that L2), the mean number of premise words with nonzero
             attention on test, the learned α; the dev accuracy of every L2; a paired per-seed comparison of
             every pair of variants; the paper's ordering (soft ≈ sparse > no attention, logistic) checked by a
             stated rule (:mod:`.claims`);
* Table 4 -- for a few pairs (the first test pairs and the listed dev pairs), each variant's prediction and the
             premise words it attends to with their weights (every nonzero word for the sparse mappings);
* heatmaps -- the same pairs, one panel each, one row per attention variant.

Every number comes from the run records of the sweep ``martins2016/table3_snli`` (``sparselab.tasks.snli``).
"""
from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from statistics import mean, stdev
from typing import Any, Mapping, Sequence

from sparselab import plots
from . import claims
from ..numbers import pick
from ..profile_diff import profile_lines
from ..records import load
from ..tables import NONE, md_table

PAPER = "martins2016"
T3 = f"{PAPER}/table3_snli"
VARIANTS = ("none", "logistic", "soft", "sparse", "entmax15", "learned")
PAPER_VARIANTS = ("none", "logistic", "soft", "sparse")
SPLITS = ("train", "dev", "test")
PAPER_L2 = (0.0, 1e-4, 3e-4, 1e-3)
NAMES = {"none": "NoAttention", "logistic": "LogisticAttention", "soft": "SoftAttention (softmax)",
         "sparse": "SparseAttention (sparsemax)", "entmax15": "1.5-entmax attention (beyond the paper)",
         "learned": "learned-α entmax attention (beyond the paper)"}
SPARSE_FAMILY = ("sparse", "entmax15", "learned")   # every nonzero word is listed in Table 4
DENSE_TOP = 5                                        # words listed for the dense variants (soft, logistic)
TABLE3, TABLE4, HEATMAPS = "table3_snli.md", "table4_examples.md", "table4_heatmaps.png"

ARTIFACTS = [
    ("Table 3 (SNLI attention)", TABLE3,
     "dev/test accuracy per attention variant (mean ± standard error over seeds, L2 chosen on dev), paired per-seed "
     "differences of every pair of variants, attended premise words, the paper's claims checked by stated rules"),
    ("Table 4 (attention examples)", TABLE4, "premise words attended by each variant, with weights, for a few pairs"),
    ("Attention heatmaps", HEATMAPS, "attention over the premise of the Table 4 pairs, one row per variant"),
]

Key = tuple[str, float, int]     # (variant, l2, seed)


# ================================================================ load
def load_table3(runs, profile: str) -> tuple[list[dict], dict[Key, dict]]:
    recs = load(runs, profile, T3)
    return recs, {(r["config"]["task"]["attention"], float(r["config"]["task"]["l2"]), int(r["config"]["seed"])): r
                  for r in recs}


# ================================================================ compute
def mean_std(xs: Sequence[float]) -> tuple[float, float]:
    """Mean and sample standard deviation (0 for a single value)."""
    xs = [float(x) for x in xs]
    return mean(xs), (stdev(xs) if len(xs) > 1 else 0.0)


@dataclass
class VariantResult:
    variant: str
    l2: float                                 # chosen by mean dev accuracy
    seeds: list[int]
    dev: tuple[float, float]
    test: tuple[float, float]
    attended: tuple[float, float] | None      # nonzero-weight premise words on test
    premise_words: float | None
    alpha: tuple[float, float] | None         # learned α
    grid: dict[float, tuple[float, float, int]] = field(default_factory=dict)   # l2 -> dev (mean, std, n seeds)
    test_by_seed: dict[int, float] = field(default_factory=dict)                # at the chosen L2

    @property
    def n(self) -> int:
        return len(self.seeds)


def select(by: Mapping[Key, dict]) -> dict[str, VariantResult]:
    """Per variant, the L2 with the best mean dev accuracy over its seeds (ties: the smaller L2), and the
    dev / test / attention numbers of that L2's seeds."""
    out = {}
    for v in VARIANTS:
        runs = defaultdict(dict)
        for (var, l2, seed), r in by.items():
            if var == v:
                runs[l2][seed] = r["metrics"]
        if not runs:
            continue
        grid = {l2: (*mean_std([m["dev_acc"] for m in s.values()]), len(s)) for l2, s in sorted(runs.items())}
        best = max(grid, key=lambda l2: (round(grid[l2][0], 9), -l2))
        ms = [runs[best][s] for s in sorted(runs[best])]
        att = [m["attended_words"] for m in ms if "attended_words" in m]
        alpha = [m["learned_alpha"] for m in ms if "learned_alpha" in m]
        plen = [m["premise_words"] for m in ms if "premise_words" in m]
        out[v] = VariantResult(v, best, sorted(runs[best]), mean_std([m["dev_acc"] for m in ms]),
                               mean_std([m["test_acc"] for m in ms]), mean_std(att) if att else None,
                               mean(plen) if plen else None, mean_std(alpha) if alpha else None, grid,
                               {s: float(runs[best][s]["test_acc"]) for s in sorted(runs[best])})
    return out


def pm(ms: tuple[float, float] | None, n: int, digits: int = 2) -> str:
    """``mean ± standard error`` (std / sqrt(n)); the mean alone for one seed; ``–`` for None."""
    if ms is None:
        return NONE
    return f"{ms[0]:.{digits}f}" + (f" ± {ms[1] / math.sqrt(n):.{digits}f}" if n > 1 else "")


def sd(ms: tuple[float, float] | None, n: int) -> str:
    return NONE if ms is None or n < 2 else f"{ms[1]:.2f}"


def paired_all(res: Mapping[str, VariantResult]) -> dict[tuple[str, str], claims.Paired]:
    """Every pair (a, b) of variants (in VARIANTS order, a first): test accuracy a − b paired by seed."""
    vs = [v for v in VARIANTS if v in res]
    return {(a, b): claims.paired(a, b, res[a].test_by_seed, res[b].test_by_seed)
            for i, a in enumerate(vs) for b in vs[i + 1:]}


def paired_rows(pairs: Mapping[tuple[str, str], claims.Paired]) -> list[list[str]]:
    rows = []
    for (a, b), p in pairs.items():
        se = NONE if p.se is None else f"{p.se:.2f}"
        rows.append([f"{a} − {b}", str(p.n), NONE if p.n == 0 else f"{p.diff:+.2f}", se, f"{a} {p.relation} {b}"])
    return rows


def examples_of(ex_runs: Mapping[str, dict]) -> list[tuple[str, str, str]] | None:
    """(variant, prediction, gold) of each Table 4 example; None when the records hold no examples."""
    got = [(v, row["pred"], e["gold"]) for e, by_var in table4_examples(ex_runs) for v, row in by_var.items()]
    return got or None


# ================================================================ format
def setup_lines(recs: list[dict], profile_diff: list[str] = ()) -> list[str]:
    """Data, vectors, OOV and protocol, read from the records."""
    if not recs:
        return ["No finished runs of this profile.", ""]
    r = recs[0]
    ex, c = r["extra"], r["config"]
    sp = ex["splits"]
    counts = "; ".join(f"{k}: {sp[k]['pairs']:,} pairs ({sp[k]['dropped_no_gold']} dropped with gold label '-', "
                       f"`{sp[k]['file']}`)" for k in SPLITS if k in sp)
    oov = "; ".join(f"{k}: {100 * o['oov_token_rate']:.2f}% of tokens, {100 * o['oov_type_rate']:.2f}% of "
                    f"{o['types']:,} word types" for k in SPLITS if (o := ex["oov"].get(k)))
    l2s = sorted({float(x["config"]["task"]["l2"]) for x in recs})
    seeds = sorted({int(x["config"]["seed"]) for x in recs})
    reductions = profile_reductions(recs)
    lines = ["## Setup (as run)", ""] + profile_diff
    if any(x.startswith("low-data") for x in reductions):
        lines += [f"**Low-data experiment**: trained on {sp['train']['pairs']:,} pairs from the 1% sample of "
                  "SNLI's training set that is available offline, not on the full 550k; the accuracies are not "
                  "comparable with the paper's (the paired comparison below says which variants the seeds tell "
                  "apart).", ""]
    lines += [f"- Pairs: {counts}.",
              f"- Vectors: {ex['vectors']} ({ex['embedding_dim']}-d, fixed), projected to D = "
              f"{c['model']['hidden_size']}; {ex['vocab_size']:,} word types, {ex['vectors_found']:,} with a vector"
              f"{' (lowercased tokens)' if c['data'].get('lowercase') else ''}.",
              f"- Out-of-vocabulary words (no vector): {oov}. They get {ex['oov_policy']}.",
              f"- Premise GRU, hypothesis GRU started from the last premise state, dropout {c['model']['dropout']} "
              f"on inputs and outputs; Adam, learning rate {c['task']['lr']}, batch {c['task']['batch_size']}, "
              f"L2 grid {l2s} (Adam weight decay), seeds {seeds}.",
              f"- Dev accuracy after every epoch; the best dev state is kept ({stopping(c)}). "
              "L2 is chosen per variant by the mean dev accuracy over seeds; test accuracy is that L2's, mean ± "
              "standard error (sample std / sqrt(seeds)).",
              "- Attended words: mean number of premise words with nonzero weight on test (every logistic weight "
              "is > 0, so logistic attends to all words).",
              "- Reductions in this profile (vs the paper): " + ("; ".join(reductions) or "none") + ".", ""]
    return lines


def profile_reductions(recs: list[dict]) -> list[str]:
    """What the runs did differently from the paper: the records' own list, and a reduced L2 grid."""
    out = sorted({x for r in recs for x in r["extra"].get("reductions", [])})
    l2s = sorted({float(r["config"]["task"]["l2"]) for r in recs})
    if recs and l2s != sorted(PAPER_L2):
        out.append(f"L2 grid {{{', '.join(f'{x:g}' for x in l2s)}}} instead of the paper's "
                   f"{{{', '.join(f'{x:g}' for x in PAPER_L2)}}}")
    return out


def stopping(c: Mapping[str, Any]) -> str:
    patience = c["task"].get("early_stopping_patience")
    most = f"at most {c['trainer']['max_epochs']} epochs"
    if patience is None:
        return f"no early stopping, {most}"
    return (f"early stopping after {patience} epochs without an improvement of more than "
            f"{c['task'].get('early_stopping_min_delta', 0.0)} points, {most}")


def table3_rows(res: Mapping[str, VariantResult]) -> list[list[str]]:
    rows = []
    for v in VARIANTS:
        if v not in res:
            rows.append([NAMES[v], NONE, "0", NONE, NONE, NONE, NONE, NONE, NONE])
            continue
        r = res[v]
        rows.append([NAMES[v], f"{r.l2:g}", str(r.n), pm(r.dev, r.n), pm(r.test, r.n), sd(r.test, r.n),
                     pm(r.attended, r.n), NONE if r.premise_words is None else f"{r.premise_words:.2f}",
                     pm(r.alpha, r.n, 3)])
    return rows


def grid_rows(res: Mapping[str, VariantResult]) -> tuple[list[str], list[list[str]]]:
    l2s = sorted({l2 for r in res.values() for l2 in r.grid})
    rows = []
    for v, r in res.items():
        cells = []
        for l2 in l2s:
            g = r.grid.get(l2)
            cell = NONE if g is None else pm(g[:2], g[2]) + f" (n={g[2]})"
            cells.append(f"**{cell}**" if l2 == r.l2 else cell)
        rows.append([NAMES[v]] + cells)
    return ["variant"] + [f"dev acc, L2={l2:g}" for l2 in l2s], rows


def table3_text(profile: str, recs: list[dict], res: Mapping[str, VariantResult], ref: Mapping[str, Any],
                profile_diff: list[str] = ()) -> str:
    lines = ["# Martins & Astudillo (2016), Table 3: SNLI with no, logistic, soft and sparse attention", "",
             f"Profile: **{profile}**. Runs: {len(recs)}. Every number below is read from the run records "
             "(run.json) of this profile.", ""]
    lines += setup_lines(recs, list(profile_diff))
    lines += ["## Ours: accuracy (%) per attention variant", "",
              "Mean ± standard error over seeds at the L2 chosen on dev; the seeds' sample std of test accuracy "
              "beside it.", "",
              md_table(["variant", "L2 (dev)", "seeds", "dev acc", "test acc", "test acc std",
                        "attended words (test)", "premise words (test)", "learned α"], table3_rows(res))]
    header, rows = grid_rows(res)
    if rows:
        lines += ["## Dev accuracy (%) per L2", "", "Mean ± standard error over seeds; the chosen L2 in bold.", "",
                  md_table(header, rows)]
    pairs = paired_all(res)
    if pairs:
        lines += ["## Paired comparison per seed (test accuracy, points)", "",
                  "For each pair of variants, each at its own dev-chosen L2: the mean over the seeds both ran of the "
                  "per-seed difference a − b (runs paired by their `seed` value), and its standard error "
                  "sd(differences) / sqrt(n). Rule: a > b (or a < b) when |mean| > "
                  f"{claims.SE_FACTOR:g} standard errors, a ≈ b otherwise; ? below 2 seeds.", "",
                  md_table(["a − b", "seeds", "mean difference", "standard error", "by the rule"], paired_rows(pairs))]
    lines += ["## Paper (reference)", "",
              "The paper's Table 3 values are not available to this project (papers.yaml: `not_recovered: "
              "table3_values`); its qualitative result is quoted instead.", ""]
    if ref:
        lines.append(f"- Reported summary: {str(ref.get('reported_summary', '')).strip()}")
        lines.append(f"- Systems: {', '.join(ref.get('systems', []))}; metric: {ref.get('metric', '')}.")
        ctx = ref.get("context_rocktaschel2015_test") or {}
        if ctx:
            lines.append("- Context (papers.yaml, Rocktäschel et al. 2015, test accuracy on the full SNLI): "
                         + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in ctx.items()) + ".")
        lines.append("")
    lines.append(claims.POINTER)
    return "\n".join(lines).rstrip() + "\n"


# ---------------------------------------------------------------- Table 4
def example_runs(by: Mapping[Key, dict], res: Mapping[str, VariantResult]) -> dict[str, dict]:
    """Per variant with attention: the run at its chosen L2 with the smallest seed."""
    return {v: by[(v, r.l2, r.seeds[0])] for v, r in res.items() if v != "none"}


def attended(words: Sequence[str], weights: Sequence[float], variant: str) -> str:
    """Every nonzero word with its weight (sparse mappings), or the ``DENSE_TOP`` largest (dense ones)."""
    pairs = [(i, w, x) for i, (w, x) in enumerate(zip(words, weights)) if x > 0]
    if variant not in SPARSE_FAMILY:
        top = sorted(pairs, key=lambda t: -t[2])[:DENSE_TOP]
        pairs = sorted(top)
    return ", ".join(f"{w} ({x:.2f})" for _, w, x in pairs) or NONE


def table4_examples(runs: Mapping[str, dict]) -> list[tuple[dict, dict[str, dict]]]:
    """(pair, {variant: that run's row for the pair}) in the order the runs stored them."""
    keyed: dict[tuple[str, str], dict] = {}
    order = []
    for v, r in runs.items():
        for e in r.get("extra", {}).get("examples", []):
            k = (e["split"], e["pair_id"])
            if k not in keyed:
                keyed[k] = {}
                order.append((k, e))
            keyed[k][v] = e
    return [(e, keyed[k]) for k, e in order]


def table4_text(profile: str, runs: Mapping[str, dict], res: Mapping[str, VariantResult], dev_ids: Sequence[str]
                ) -> str:
    lines = ["# Martins & Astudillo (2016), Table 4: attention over the premise, examples", "",
             f"Profile: **{profile}**. For each pair, the prediction of every attention variant (its run at the "
             "L2 chosen on dev, smallest seed) and the premise words it attends to: every word with nonzero weight "
             f"for sparsemax, 1.5-entmax and learned α; the {DENSE_TOP} largest weights for softmax and logistic "
             "(dense: all words get weight > 0). Weights rounded to 2 decimals.", ""]
    if any(x.startswith("low-data") for r in runs.values() for x in r["extra"].get("reductions", [])):
        lines += ["**Low-data experiment** (1% of SNLI's training set): see table3_snli.md.", ""]
    examples = table4_examples(runs)
    shown_dev = [e["pair_id"] for e, _ in examples if e["split"] == "dev"]
    lines += ["## The paper's examples", "",
              f"The dev pairs below ({', '.join(dev_ids) or 'none configured'}; `task.examples.dev_pair_ids`) are the "
              "paper's Table 4 examples; they are in the SNLI dev set, none of them in test. "
              + (f"Found in this profile's data: {len(shown_dev)} of {len(dev_ids)}." if dev_ids else ""), ""]
    for i, (e, by_var) in enumerate(examples, 1):
        lines += [f"## {e['split']} pair {e['pair_id']} (gold: {e['gold']})", "",
                  f"- Premise: {' '.join(e['premise'])}", f"- Hypothesis: {' '.join(e['hypothesis'])}", ""]
        rows = []
        for v in VARIANTS:
            if v not in by_var:
                continue
            row = by_var[v]
            w = row["weights"]
            nz = sum(1 for x in w if x > 0)
            rows.append([NAMES[v], row["pred"], f"{nz}/{len(w)}", attended(row["premise"], w, v)])
        lines.append(md_table(["variant", "prediction", "nonzero words", "attended words (weight)"], rows))
    if not examples:
        lines += ["No runs with attention in this profile.", ""]
    lines.append(claims.POINTER)
    return "\n".join(lines).rstrip() + "\n"


# ---------------------------------------------------------------- heatmaps
def write_heatmaps(runs: Mapping[str, dict], path: Path, profile: str) -> Path | None:
    examples = table4_examples(runs)
    if not examples:
        return None
    short = {"logistic": "logistic", "soft": "softmax", "sparse": "sparsemax", "entmax15": "1.5-entmax",
             "learned": "learned α"}
    panels = [(f"{e['split']} {e['pair_id']} — H: {' '.join(e['hypothesis'])} (gold {e['gold']})", e["premise"],
               {short[v]: by_var[v]["weights"] for v in VARIANTS if v in by_var}) for e, by_var in examples]
    fig = plots.heatmap_figure(panels, f"SNLI attention over the premise (Martins & Astudillo 2016, Table 4 pairs) — "
                                 f"profile {profile}")
    return plots.save(fig, path, dpi=90)


# ================================================================ write
def write_snli(profile: str, out: Path, runs, ref: Mapping[str, Any]) -> tuple[list[dict], list[str]]:
    """table3_snli.md, table4_examples.md, table4_heatmaps.png; returns the records and the reductions."""
    recs, by = load_table3(runs, profile)
    res = select(by)
    out = Path(out)
    (out / TABLE3).write_text(table3_text(profile, recs, res, ref.get("table3_snli", {}),
                                          profile_lines(T3, recs, profile)))
    ex_runs = example_runs(by, res)
    dev_ids = []
    if recs:
        dev_ids = [str(x) for x in recs[0]["config"]["task"]["examples"].get("dev_pair_ids") or []]
    (out / TABLE4).write_text(table4_text(profile, ex_runs, res, dev_ids))
    heat = out / HEATMAPS
    if write_heatmaps(ex_runs, heat, profile) is None:
        heat.unlink(missing_ok=True)
    return recs, profile_reductions(recs)


METRICS = ("dev_acc", "test_acc", "attended_words", "premise_words", "learned_alpha")


def numbers(runs, profile: str) -> dict[str, dict[str, float]]:
    """Per (variant, L2, seed): dev / test accuracy, attended and premise words, learned α."""
    _, by = load_table3(runs, profile)
    return {f"table3/{v}/l2={l2:g}/seed={s}": pick(r["metrics"], METRICS) for (v, l2, s), r in sorted(by.items())}
