"""Figures 2–6 of Correia et al. (2019) and the numbers behind them (``analysis.md``), from the figure direction.

Several seeds: α's and densities are pooled, JS is averaged; trajectories and maps are those of the lowest seed."""
from __future__ import annotations

import math
from pathlib import Path
from statistics import mean, median
from typing import Any, Mapping, Sequence

import numpy as np

from sparselab.analysis.head_summary import KINDS

from . import figures as draw
from .. import mt_common
from .runs import LABELS, SPARSE, analysed, figure_pair, seed_of, variant_of
from ..mt_common import curve_summary, pair_of
from ..tables import NONE, md_table
from ..templates import template

prose = template(__name__)
KIND_NAMES = draw.TITLES
TOL = 0.01            # a change of α smaller than this counts as no change (trajectory claim)
THIRDS = (4 / 3, 5 / 3)
BC_UNIFORM = 5 / 9    # bimodality coefficient of a uniform distribution; above it suggests two modes
FIGURES = ("figure2_alpha_trajectories.png", "figure3_alpha_histograms.png", "figure4_density_histograms.png",
           "figure5_sorted_density.png", "figure6_js_per_layer.png", "learning_curves.png")


def _f(x, digits: int = 3) -> str:
    return NONE if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"


# ---------------------------------------------------------------- α: trajectories (Figure 2)
def trajectory_summary(history: Sequence[Mapping[str, Any]], tol: float = TOL) -> dict[str, dict[str, Any]]:
    """Per attention type (and ``all``): mean α at the first, lowest and last step, and whether it fell then rose."""
    steps = [int(h["step"]) for h in history]
    sites = list(history[0]["alpha"]) if history else []
    out = {}
    for kind in (*KINDS, "all"):
        mine = [s for s in sites if kind == "all" or s.split("/")[0] == kind]
        if not mine:
            continue
        a = np.array([[x for s in mine for x in h["alpha"][s]] for h in history])     # (steps, heads)
        m = a.mean(1)
        lo = int(m.argmin())
        head_lo = a.min(0)
        both = (head_lo < a[0] - tol) & (a[-1] > head_lo + tol)
        out[kind] = {"heads": a.shape[1], "start": float(m[0]), "lowest": float(m[lo]), "lowest_step": steps[lo],
                     "end": float(m[-1]), "first_down": bool(m[lo] < m[0] - tol),
                     "then_up": bool(m[-1] > m[lo] + tol), "share_heads_down_then_up": float(both.mean()),
                     "last_step": steps[-1]}
    return out


# ---------------------------------------------------------------- α: distribution (Figure 3)
def bimodality_coefficient(x: Sequence[float]) -> float | None:
    """The bimodality coefficient (g² + 1) / b₂ with plain moments (Pfister et al. 2013); None for n < 4.

    Plain moments, not Sarle's small-sample correction, which pulls two clear clumps of 6 heads down to 0.34."""
    x = np.asarray(x, dtype=float)
    if len(x) < 4 or float(x.std()) == 0.0:
        return None
    d = x - x.mean()
    m2, m3, m4 = (float(np.mean(d ** k)) for k in (2, 3, 4))
    return (m3 * m3 / m2 ** 3 + 1) / (m4 / m2 ** 2)


def pooled_alphas(runs: Sequence[dict]) -> dict[str, list[float]]:
    """``{kind: [every head's learned α]}`` over the runs (seeds pooled)."""
    out: dict[str, list[float]] = {}
    for r in runs:
        for kind, layers in (r.get("extra", {}).get("learned_alpha") or {}).items():
            out.setdefault(kind, []).extend(float(a) for layer in sorted(layers, key=int) for a in layers[layer])
    return {k: out[k] for k in KINDS if k in out}


def alpha_stats(alphas: Sequence[float]) -> dict[str, Any]:
    a = np.asarray(alphas, dtype=float)
    return {"n": len(a), "mean": float(a.mean()), "min": float(a.min()), "max": float(a.max()),
            "near_1": float((a < THIRDS[0]).mean()), "middle": float(((a >= THIRDS[0]) & (a <= THIRDS[1])).mean()),
            "near_2": float((a > THIRDS[1]).mean()), "bc": bimodality_coefficient(a)}


def is_bimodal(s: Mapping[str, Any]) -> bool:
    """Both outer thirds hold heads and the bimodality coefficient exceeds a uniform's."""
    return s["near_1"] > 0 and s["near_2"] > 0 and s["bc"] is not None and s["bc"] > BC_UNIFORM


# ---------------------------------------------------------------- density and JS (Figures 4–6)
def heads_of(rec, key: str = "heads") -> dict:
    """The record's head statistics: ``extra.heads`` (after training) or ``extra.heads_initial`` (at step 0)."""
    return rec.get("extra", {}).get(key) or {}


def trajectory(rec) -> list[dict[str, Any]]:
    """The record's α trajectory, ``[{"step": s, "alpha": {"<kind>/l<layer>": [α per head]}}]`` ([] without one)."""
    return ((rec.get("extra") or {}).get("alpha_trajectory") or {}).get("history") or []


def flat_density(runs: Sequence[dict], key: str = "heads") -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    for r in runs:
        for kind, layers in (heads_of(r, key).get("density") or {}).items():
            out.setdefault(kind, []).extend(d for layer in sorted(layers, key=int) for d in layers[layer])
    return out


def mean_js(runs: Sequence[dict], key: str = "heads") -> dict[str, dict[str, float]]:
    """``{kind: {layer: JS averaged over the runs}}``."""
    acc: dict[str, dict[str, list[float]]] = {}
    for r in runs:
        for kind, layers in (heads_of(r, key).get("js") or {}).items():
            for layer, v in layers.items():
                acc.setdefault(kind, {}).setdefault(str(layer), []).append(float(v))
    return {k: {layer: mean(v) for layer, v in sorted(ls.items(), key=lambda kv: int(kv[0]))} for k, ls in acc.items()}


def js_rows(js: Mapping[str, Mapping[str, Mapping[str, float]]]) -> list[list[Any]]:
    """One row per (type, layer): JS of each model and each sparse model's difference to softmax."""
    models = list(js)
    rows = []
    for kind in KINDS:
        layers = sorted({layer for m in models for layer in js[m].get(kind, {})}, key=int)
        for layer in layers:
            v = {m: js[m].get(kind, {}).get(layer) for m in models}
            base = v.get("softmax")
            rows.append([KIND_NAMES[kind], int(layer), *(_f(v[m]) for m in models),
                         *(_f(v[m] - base if v.get(m) is not None and base is not None else None)
                           for m in models if m in SPARSE)])
    return rows


# ---------------------------------------------------------------- figures
def plot_attention_maps(out: Path, variant: str, rec: dict) -> list[Path]:
    """One PNG per attention type for the record's first example: every head of every layer (rows = layers)."""
    examples = heads_of(rec).get("examples") or []
    if not examples:
        return []
    ex, paths = examples[0], []
    tokens = {"enc_self": (ex["src"], ex["src"]), "dec_self": (ex["tgt_in"], ex["tgt_in"]),
              "context": (ex["tgt_in"], ex["src"])}
    for kind, (q, k) in tokens.items():
        layers = ex.get(kind) or []
        if not layers:
            continue
        maps = [head for layer in layers for head in layer]
        titles = [f"layer {i} head {h}" for i, layer in enumerate(layers) for h in range(len(layer))]
        paths.append(draw.attention_heads(
            maps, out / f"attention_maps_{variant}_{kind}.png", q, k, head_titles=titles, ncols=len(layers[0]),
            title=f"{LABELS[variant]}, {KIND_NAMES[kind]}: validation sentence {ex['index']} (seed {seed_of(rec)})"))
    return paths


def draw_figures(out: Path, recs: Sequence[dict], runs: Mapping[str, list[dict]]) -> list[str]:
    """Every PNG the records allow (stale ones removed first); returns notes on the figures not drawn."""
    for name in FIGURES:
        (out / name).unlink(missing_ok=True)
    for p in out.glob("attention_maps_*.png"):
        p.unlink()
    notes = []
    alpha_runs = runs.get("alpha_entmax", [])
    history = trajectory(alpha_runs[0]) if alpha_runs else None
    if history:
        draw.alpha_trajectories(history, out / FIGURES[0], title=f"α-entmax, seed {seed_of(alpha_runs[0])}")
    else:
        notes.append(f"`{FIGURES[0]}` not drawn: no α-entmax run with an α trajectory")
    if pooled_alphas(alpha_runs):
        draw.alpha_histograms(pooled_alphas(alpha_runs), out / FIGURES[1])
    else:
        notes.append(f"`{FIGURES[1]}` not drawn: no α-entmax run")
    sparse = {LABELS[v]: runs[v] for v in SPARSE if v in runs}
    if sparse:
        draw.density_histograms({k: flat_density(rs) for k, rs in sparse.items()}, out / FIGURES[2])
        draw.sorted_density({k: heads_of(rs[0])["density"] for k, rs in sparse.items()}, out / FIGURES[3])
    else:
        notes.append(f"`{FIGURES[2]}`, `{FIGURES[3]}` not drawn: no sparse run")
    js = {LABELS[v]: mean_js(rs) for v, rs in runs.items()}
    if any(js.values()):
        draw.js_per_layer({k: v for k, v in js.items() if v}, out / FIGURES[4])
    if recs:
        mt_common.plot_learning_curves(out / FIGURES[5], recs, lambda r: f"{LABELS[variant_of(r)]} seed {seed_of(r)}")
    for v, rs in runs.items():
        if not plot_attention_maps(out, v, rs[0]):
            notes.append(f"no attention maps for {LABELS[v]}: the record holds no example sentence")
    return notes


# ---------------------------------------------------------------- text
def alpha_room(alpha_lr: float, warmup: int, steps: int) -> float:
    """α's summed learning rate over ``steps``: how far Adam (≤ ~lr a step) can carry α's parameter."""
    from sparselab.training.schedules import inverse_sqrt

    factor = inverse_sqrt(warmup)
    return alpha_lr * sum(factor(s) for s in range(steps))


def alpha_room_at(rec, step: int) -> float:
    """α's learning rate summed over a run's first ``step`` steps (its own α lr, else the other weights')."""
    t = rec["config"]["task"]
    return alpha_room(float(t.get("alpha_lr") or t["lr"]), int(t["warmup_steps"]), int(step))


def trajectory_section(runs: Mapping[str, list[dict]]) -> str:
    rows = []
    for r in runs.get("alpha_entmax", []):
        hist = trajectory(r)
        if len(hist) < 2:
            continue
        s = trajectory_summary(hist)
        for kind, x in s.items():
            rows.append([seed_of(r), KIND_NAMES.get(kind, "all heads"), x["heads"], _f(x["start"]), _f(x["lowest"]),
                         x["lowest_step"], f"{alpha_room_at(r, x['lowest_step']):.1f}", _f(x["end"]), x["last_step"],
                         "yes" if x["first_down"] else "no",
                         "yes" if x["then_up"] else "no", f"{100 * x['share_heads_down_then_up']:.0f} %"])
    text = prose("trajectory", tol=TOL) + "\n\n"
    text += md_table(["seed", "attention", "heads", "α at step 0", "lowest mean α", "at step", "Σ α lr there",
                      "final mean α", "last step", "first fell", "then rose", "heads that fell then rose"], rows) \
        if rows else "No α-entmax run with an α trajectory.\n"
    return text


def initial_alphas(runs: Sequence[dict]) -> dict[str, list[float]]:
    """``{kind: [every head's α at the first recorded step]}``, seeds pooled (the random initialisation)."""
    out: dict[str, list[float]] = {}
    for r in runs:
        hist = trajectory(r)
        for site, heads in (hist[0]["alpha"] if hist else {}).items():
            out.setdefault(site.split("/")[0], []).extend(float(a) for a in heads)
    return out


def alpha_section(runs: Mapping[str, list[dict]]) -> str:
    alpha_runs = runs.get("alpha_entmax", [])
    stats = {k: alpha_stats(v) for k, v in pooled_alphas(alpha_runs).items()}
    start = initial_alphas(alpha_runs)
    bc0 = {k: bimodality_coefficient(v) for k, v in start.items()}
    rows = [[KIND_NAMES[k], s["n"], _f(s["mean"]), _f(s["min"]), _f(s["max"]), f"{100 * s['near_1']:.0f} %",
             f"{100 * s['middle']:.0f} %", f"{100 * s['near_2']:.0f} %", _f(s["bc"]), _f(bc0.get(k)),
             "yes" if is_bimodal(s) else "no"] for k, s in stats.items()]
    text = prose("alpha") + "\n\n"
    text += md_table(["attention", "heads", "mean α", "min", "max", "α < 4/3", "4/3–5/3", "α > 5/3", "BC",
                      "BC at step 0", "bimodal"], rows) if rows else "No α-entmax run.\n"
    return text


def density_section(runs: Mapping[str, list[dict]]) -> str:
    rows = []
    for v, rs in runs.items():
        for kind in KINDS:
            flat = flat_density(rs).get(kind)
            if not flat:
                continue
            per_layer = heads_of(rs[0])["density"][kind]
            spread = "; ".join(f"l{layer}: {_f(min(d), 2)}/{_f(median(d), 2)}/{_f(max(d), 2)}"
                               for layer, d in sorted(per_layer.items(), key=lambda kv: int(kv[0])))
            rows.append([LABELS[v], KIND_NAMES[kind], len(flat), _f(mean(flat)),
                         f"{100 * sum(d < 0.5 for d in flat) / len(flat):.0f} %", spread])
    text = prose("density") + "\n\n"
    return text + (md_table(["model", "attention", "heads", "mean density", "heads below 0.5",
                             "per layer min/median/max (lowest seed)"], rows) if rows else "No runs.\n")


def write(out: Path, profile: str, options, recs: Sequence[dict], ref: Mapping[str, Any],
          preface: Sequence[str] = ()) -> str:
    """Draw the figures into ``out`` and return ``analysis.md``; ``preface``: lines after the title."""
    out = Path(out)
    runs = analysed(options, recs)
    notes = draw_figures(out, recs, runs)
    pair = figure_pair(options, recs)
    seeds = "; ".join(f"{LABELS[v]} seed(s) {', '.join(str(seed_of(r)) for r in rs)}" for v, rs in runs.items())
    text = prose("title", profile=profile, pair=pair or "none", seeds=seeds or "none",
                 every=f"; every table below is **{pair}**" if pair else "") + "\n\n"
    if preface:
        text += "".join(f"- {line}\n" for line in preface) + "\n"
    if notes:
        text += "\n".join(f"- {n}" for n in notes) + "\n\n"
    js = {v: mean_js(rs) for v, rs in runs.items()}
    text += trajectory_section(runs) + "\n" + alpha_section(runs) + "\n" + density_section(runs) + "\n"
    text += prose("js") + "\n\n"
    jr = js_rows(js)
    text += md_table(["attention", "layer", *(LABELS[v] for v in js),
                      *(f"{LABELS[v]} − softmax" for v in js if v in SPARSE)], jr) if jr else "No runs.\n"
    text += prose("curves") + "\n\n"
    text += md_table(["direction", "attention", "seed", "first → best (step) → last"],
                     [[pair_of(r), LABELS[variant_of(r)], seed_of(r), curve_summary(r["extra"].get("history", []))]
                      for r in recs]) if recs else "No runs.\n"
    return text  # report.write_reports appends the per-head α table and the claims (claims.py)
