"""Table 3 of Martins & Astudillo (2016) §4.3, SNLI (``table3_snli.md``), from ``martins2016/table3_snli``."""
from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from statistics import mean, stdev
from typing import Any, Mapping, Sequence

from . import claims
from .header import profile_header
from .runs import T3, Key, load_table3
from ..numbers import pick
from ..profile_diff import profile_lines
from ..tables import NONE, md_table
from ..templates import template

text = template(__name__)
TABLE3 = "table3_snli.md"
VARIANTS = ("none", "logistic", "soft", "sparse", "entmax15", "learned")
SPLITS = ("train", "dev", "test")
PAPER_L2 = (0.0, 1e-4, 3e-4, 1e-3)
NAMES = {"none": "NoAttention", "logistic": "LogisticAttention", "soft": "SoftAttention (softmax)",
         "sparse": "SparseAttention (sparsemax)", "entmax15": "1.5-entmax attention (beyond the paper)",
         "learned": "learned-α entmax attention (beyond the paper)"}


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
    """Per variant, the L2 with the best mean dev accuracy (ties: the smaller), and that L2's seeds' numbers."""
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
    return [[f"{a} − {b}", str(p.n), NONE if p.n == 0 else f"{p.diff:+.2f}", NONE if p.se is None else f"{p.se:.2f}",
             f"{a} {p.relation} {b}"] for (a, b), p in pairs.items()]


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
        lines += text("low_data", pairs=sp["train"]["pairs"]).split("\n") + [""]
    lines += text("setup", counts=counts, vectors=ex["vectors"], dim=ex["embedding_dim"], hidden=c["model"]["hidden_size"],
                  vocab=ex["vocab_size"], found=ex["vectors_found"],
                  lower=" (lowercased tokens)" if c["data"].get("lowercase") else "", oov=oov,
                  oov_policy=ex["oov_policy"], dropout=c["model"]["dropout"], lr=c["task"]["lr"],
                  batch=c["task"]["batch_size"], l2s=l2s, seeds=seeds, stopping=stopping(c),
                  reductions="; ".join(reductions) or "none").split("\n") + [""]
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

    def cell(g: tuple[float, float, int] | None, chosen: bool) -> str:
        c = NONE if g is None else pm(g[:2], g[2]) + f" (n={g[2]})"
        return f"**{c}**" if chosen else c
    rows = [[NAMES[v], *(cell(r.grid.get(l2), l2 == r.l2) for l2 in l2s)] for v, r in res.items()]
    return ["variant"] + [f"dev acc, L2={l2:g}" for l2 in l2s], rows


def table3_text(profile: str, recs: list[dict], res: Mapping[str, VariantResult], ref: Mapping[str, Any],
                profile_diff: list[str] = ()) -> str:
    lines = profile_header(profile, recs, "Martins & Astudillo (2016), Table 3: SNLI with no, logistic, soft and "
                           "sparse attention")
    lines += setup_lines(recs, list(profile_diff))
    lines += text("ours").split("\n") + ["", md_table(["variant", "L2 (dev)", "seeds", "dev acc", "test acc", "test acc std",
                                                     "attended words (test)", "premise words (test)", "learned α"],
                                                    table3_rows(res))]
    header, rows = grid_rows(res)
    if rows:
        lines += text("grid").split("\n") + ["", md_table(header, rows)]
    pairs = paired_all(res)
    if pairs:
        lines += text("paired", se=claims.SE_FACTOR).split("\n") + [
            "", md_table(["a − b", "seeds", "mean difference", "standard error", "by the rule"], paired_rows(pairs))]
    lines += text("paper").split("\n") + [""]
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
METRICS = ("dev_acc", "test_acc", "attended_words", "premise_words", "learned_alpha")


def write_table3(profile: str, out: Path, recs: list[dict], res: Mapping[str, VariantResult],
                 ref: Mapping[str, Any]) -> None:
    (Path(out) / TABLE3).write_text(table3_text(profile, recs, res, ref.get("table3_snli", {}),
                                                profile_lines(T3, recs, profile)))


def numbers(runs, profile: str) -> dict[str, dict[str, float]]:
    """Per (variant, L2, seed): dev / test accuracy, attended and premise words, learned α."""
    _, by = load_table3(runs, profile)
    return {f"table3/{v}/l2={l2:g}/seed={s}": pick(r["metrics"], METRICS) for (v, l2, s), r in sorted(by.items())}
