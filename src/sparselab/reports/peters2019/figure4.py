"""Figure 4 of Peters et al. (2019): de-en validation token accuracy over attention α and over output α."""
from __future__ import annotations

from pathlib import Path
from statistics import mean, stdev
from typing import Any, Mapping

from sparselab import plots
from . import header
from .runs import by_key, mt_options
from ..mt_common import pair_of, values
from ..tables import MISSING, NONE, NOT_RUN, md_table
from ..templates import template

text = template(__name__)
GRID = (1.0, 1.125, 1.25, 1.375, 1.5, 1.625, 1.75, 1.875, 2.0, 2.25)   # the paper's Figure 4 grid (papers.yaml)
FIXED = 1.5                    # the other α of each Figure 4 grid
FIG4_PAIR = "de-en"


def figure4_points(recs, ref) -> dict[str, list[tuple[float, list[dict], float | None]]]:
    """Per grid (``attn``, ``out``; the other α 1.5): (α, our de-en runs, the paper's value) at every point."""
    g = by_key([r for r in recs if pair_of(r) == FIG4_PAIR])
    fig = ref.get("figure4_alpha_grid_deen", {})
    paper = {"attn": fig.get(f"attention_alpha_with_output_{FIXED}", {}) or {}, "out": fig.get("output_alpha", {}) or {}}
    paper = {k: {float(a): float(v) for a, v in d.items()} for k, d in paper.items()}
    out = {}
    for grid in ("attn", "out"):
        ours = {(b if grid == "attn" else a): rs for (p, a, b), rs in g.items()
                if (a if grid == "attn" else b) == FIXED}
        out[grid] = [(x, ours.get(x, []), paper[grid].get(x)) for x in sorted(set(ours) | set(paper[grid]) | set(GRID))]
    return out


def figure4_cell(rs, planned: bool, pair_run: bool):
    """The mean best validation accuracy of a point's runs, else why the point has none."""
    v = values(rs, "val_acc_best")
    if v:
        return mean(v)
    return MISSING if pair_run and planned else NOT_RUN


def figure4_text(profile: str, options: Mapping[str, Any], recs, ref: Mapping[str, Any]) -> str:
    out = header.translation("Figure 4 — de-en validation token accuracy over α", profile, options,
                             [r for r in recs if pair_of(r) == FIG4_PAIR])
    pts = figure4_points(recs, ref)
    run = FIG4_PAIR in mt_options(options).get("pairs", [])
    out += text("intro", pair=FIG4_PAIR, fixed=FIXED) + "\n\n"
    planned = {grid: {float(a) for a in (mt_options(options).get("figure4") or {}).get(grid, [])} | {FIXED}
               for grid in ("attn", "out")}
    for grid, name in (("attn", "attention α"), ("out", "output α")):
        ran = [x for x, rs, _ in pts[grid] if values(rs, "val_acc_best")]
        out += text("points", name=name, ran=", ".join(f"{x:g}" for x in ran) or "none",
                    planned=", ".join(f"{x:g}" for x in sorted(planned[grid])) if run else "none") + "\n\n"
    rows = [[f"{x:g}", figure4_cell(ra, x in planned["attn"], run), len(ra) or NONE, pa,
             figure4_cell(ro, x in planned["out"], run), len(ro) or NONE, po]
            for (x, ra, pa), (_, ro, po) in zip(pts["attn"], pts["out"])]
    out += md_table(["α", f"attention α, output α {FIXED} (ours)", "seeds", "(paper)",
                     f"output α, attention α {FIXED} (ours)", "seeds", "(paper)"], rows)
    summary = ref.get("figure4_alpha_grid_deen", {}).get("reported_summary")
    if summary:
        out += f"\nPaper's summary: {summary}.\n"
    return out


def plot_figure4(path: Path, profile: str, recs, ref: Mapping[str, Any]) -> Path:
    """One y-axis per panel, ours and the paper's on it; error bars: the SD over seeds where a point has 2+."""
    plt = plots.pyplot()
    pts = figure4_points(recs, ref)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for ax, (grid, name, fixed) in zip(axes, (("attn", "attention α", f"output α {FIXED}"),
                                               ("out", "output α", f"attention α {FIXED}"))):
        ours = [(x, v) for x, rs, _ in pts[grid] if (v := values(rs, "val_acc_best"))]
        paper = [(x, p) for x, _, p in pts[grid] if p is not None]
        if ours:
            xs, vs = zip(*ours)
            ax.errorbar(xs, [mean(v) for v in vs], yerr=[stdev(v) if len(v) > 1 else 0.0 for v in vs], marker="o",
                        capsize=3, color="tab:blue", label=f"ours ({profile}; bars: SD over seeds)")
        if paper:
            ax.plot(*zip(*paper), marker="s", linestyle="--", color="tab:gray", label="paper (IWSLT17)")
        ax.set(xlabel=name, ylabel="validation token accuracy (%)", title=f"{FIG4_PAIR}, {fixed}", xticks=list(GRID))
        ax.tick_params(axis="x", labelrotation=45)
        ax.legend(loc="center right", fontsize=7)
    fig.tight_layout()
    return plots.save(fig, path, dpi=100)
