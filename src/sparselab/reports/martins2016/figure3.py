"""Figure 3 of Martins & Astudillo (2016): MSE and JS of predicted label proportions against document length."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from sparselab import plots
from . import claims
from .header import paper_summary, profile_header
from .runs import F3, FIG_LOSSES, Point, load_figure3
from ..profile_diff import profile_lines
from ..tables import NONE, md_table
from ..templates import template

text = template(__name__)
OLD_LABEL_COUNTS = "max(1, Poisson(1)) capped at K (a run from before rejection sampling)"


def figure3_axes(data: Mapping[Point, dict]) -> tuple[list[int], list[str], list[float]]:
    Ks = sorted({k[0] for k in data})
    mixtures = [m for m in ("uniform", "random") if any(k[1] == m for k in data)]
    lengths = sorted({k[2] for k in data})
    return Ks, mixtures, lengths


def figure3_reductions(recs: list[dict]) -> list[str]:
    return sorted({x for r in recs for x in r["extra"].get("reductions", [])})


def figure3_cell(r: dict | None, metric: str) -> str:
    """``mean ± std`` over seeds (5 decimals), the mean alone with one seed, ``–`` when not run."""
    if r is None:
        return NONE
    std = f" ± {r['metrics'][metric + '_std']:.5f}" if len(r["extra"].get("seeds", [])) > 1 else ""
    return f"{r['metrics'][metric]:.5f}{std}"


def figure3_rows(data: Mapping[Point, dict], K: int, mix: str, lengths: list[float]) -> list[list[str]]:
    return [[f"{L:g}"] + [figure3_cell(data.get((K, mix, L, loss)), metric)
                          for metric in ("mse", "js") for loss in FIG_LOSSES] for L in lengths]


def crossover(diffs: list[tuple[float, float]]) -> str:
    """Describe where sparsemax − softmax (per L, ascending) turns negative for good."""
    if not diffs:
        return "no data"
    better = [d < 0 for _, d in diffs]
    if all(better):
        return f"sparsemax better at every L ({diffs[0][0]:g}–{diffs[-1][0]:g})"
    if not better[-1]:
        n = sum(better)
        return f"no crossover: softmax better or equal at the largest L ({n} of {len(diffs)} L values favour sparsemax)"
    i = max(j for j, b in enumerate(better) if not b) + 1      # the first L of the last run of sparsemax wins
    return (f"sparsemax better from L = {diffs[i][0]:g} on (softmax better or equal at L = {diffs[i - 1][0]:g}); "
            f"{sum(better)} of {len(diffs)} L values favour sparsemax")


def figure3_setup_lines(recs: list[dict]) -> list[str]:
    if not recs:
        return []
    any_rec = recs[0]
    ex = any_rec["extra"]
    seeds = sorted({tuple(r["extra"].get("seeds", [])) for r in recs})
    return text("setup", n_train=ex["n_train"], n_test=ex["n_test"], label_counts=ex.get("label_counts", OLD_LABEL_COUNTS),
                concentration=any_rec["config"]["data"].get("word_concentration"),
                max_iter=any_rec["config"]["task"]["max_iter"], l2_grid=ex["l2_grid"], cv_folds=ex["cv_folds"],
                reductions="; ".join(figure3_reductions(recs)) or "none",
                seeds=", ".join(str(list(s)) for s in seeds)).split("\n") + [""]


def figure3_text(profile: str, recs: list[dict], data: Mapping[Point, dict], ref: Mapping[str, Any],
                 profile_diff: list[str] = ()) -> str:
    Ks, mixtures, lengths = figure3_axes(data)
    lines = profile_header(profile, recs, "Martins & Astudillo (2016), Figure 3: label proportion estimation")
    lines += list(profile_diff)
    lines += figure3_setup_lines(recs)
    crossover_lines = []
    for K in Ks:
        for mix in mixtures:
            lines += [f"## K = {K}, {mix} mixtures", "",
                      md_table(["L", "MSE softmax", "MSE sparsemax", "JS softmax", "JS sparsemax"],
                               figure3_rows(data, K, mix, lengths))]
            for metric in ("mse", "js"):
                diffs = [(L, data[(K, mix, L, "sparsemax")]["metrics"][metric]
                          - data[(K, mix, L, "softmax")]["metrics"][metric])
                         for L in lengths if (K, mix, L, "sparsemax") in data and (K, mix, L, "softmax") in data]
                crossover_lines.append(f"- K={K}, {mix}, {metric.upper()}: {crossover(diffs)}")
    lines += text("crossover").split("\n") + [""] + crossover_lines + [""] + text("paper").split("\n") + [""]
    if ref:
        lines += paper_summary(ref, ("Reported summary", "reported_summary"))
        lines += [f"- Setup: {ref.get('setup', '')}", ""]
    lines.append(claims.POINTER)
    return "\n".join(lines).rstrip() + "\n"


def plot_figure3(data: Mapping[Point, dict], path: Path, profile: str) -> Path:
    Ks, mixtures, lengths = figure3_axes(data)
    plt = plots.pyplot()
    panels = [(mix, K) for mix in mixtures for K in Ks]
    fig, axes = plt.subplots(2, max(1, len(panels)), figsize=(3.6 * max(1, len(panels)), 6.2), squeeze=False)
    colors = {"softmax": "tab:blue", "sparsemax": "tab:red"}
    for j, (mix, K) in enumerate(panels):
        for i, metric in enumerate(("mse", "js")):
            ax = axes[i][j]
            for loss in FIG_LOSSES:
                pts = [(L, data[(K, mix, L, loss)]["metrics"]) for L in lengths if (K, mix, L, loss) in data]
                if not pts:
                    continue
                ax.errorbar([p[0] for p in pts], [p[1][metric] for p in pts],
                            yerr=[p[1][metric + "_std"] for p in pts], marker="o", ms=3, capsize=2,
                            color=colors[loss], label=f"{loss} loss")
            ax.set_title(f"{mix}, K={K}", fontsize=10)
            ax.set(xlabel="average document length L",
                   ylabel="mean squared error" if metric == "mse" else "JS divergence")
            ax.grid(alpha=0.3)
            if i == 0 and j == 0:
                ax.legend(fontsize=8)
    fig.suptitle(f"Label proportions (Martins & Astudillo 2016, Fig. 3) — profile {profile}, error bars: std over seeds",
                 fontsize=10)
    fig.tight_layout()
    return plots.save(fig, path, dpi=110)


def write_figure3(profile: str, out: Path, runs, ref: Mapping[str, Any]) -> tuple[list[dict], list[str]]:
    """figure3_label_proportions.md and .png; returns the records used and the profile's reductions."""
    recs, data = load_figure3(runs, profile)
    ref = ref.get("figure3_label_proportions", {})
    (Path(out) / "figure3_label_proportions.md").write_text(figure3_text(profile, recs, data, ref,
                                                                        profile_lines(F3, recs, profile)))
    plot_figure3(data, Path(out) / "figure3_label_proportions.png", profile)
    return recs, figure3_reductions(recs)
