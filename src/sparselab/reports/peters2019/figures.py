"""The Peters inflection figures: accuracy by α, output support sizes, dev learning curves."""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any, Mapping

from sparselab import plots
from .runs import ALPHAS, Config, by_config, key, settings_run
from ..tables import seed_mean


def plot_accuracy_by_alpha(path: Path, profile: str, options: Mapping[str, Any], train) -> Path:
    plt = plots.pyplot()
    settings = settings_run(options)
    fig, axes = plt.subplots(1, len(settings), figsize=(5 * len(settings), 4), squeeze=False)
    for ax, s in zip(axes[0], settings):
        g = by_config(train[s])
        for a in ALPHAS:
            xs = [b for b in ALPHAS if (a, b) in g]
            ax.plot(xs, [seed_mean(g[(a, b)], "acc") for b in xs], marker="o", label=f"output α={a}")
        ax.set(xlabel="attention α", ylabel="word accuracy (%)", title=f"{s} setting ({profile})", xticks=list(ALPHAS))
        ax.legend()
    fig.tight_layout()
    return plots.save(fig, path, dpi=100)


def support_histogram(g: Mapping[Config, list[dict]], a: float) -> dict[int, int]:
    """Output support size -> target steps, pooled over attention α and seeds, for output α ``a``."""
    hist = defaultdict(int)
    for b in ALPHAS:
        for r in g.get((a, b), []):
            for size, n in r["extra"].get("support_histogram", {}).items():
                hist[int(size)] += int(n)
    return dict(hist)


def plot_support_histogram(path: Path, profile: str, options: Mapping[str, Any], train) -> Path:
    plt = plots.pyplot()
    fig, ax = plt.subplots(figsize=(6, 4))
    s = settings_run(options)[-1]
    g = by_config(train[s])
    for a in ALPHAS:
        hist = support_histogram(g, a)
        if not hist:
            continue
        tot = sum(hist.values())
        xs = sorted(hist)
        ax.step(xs, [hist[x] / tot for x in xs], where="mid", label=f"output α={a}")
    ax.set(xscale="log", xlabel="output support size (symbols with nonzero probability)",
           ylabel="share of target steps", title=f"support size, {s} setting, all attention α ({profile})")
    ax.legend()
    fig.tight_layout()
    return plots.save(fig, path, dpi=100)


def plot_learning_curves(path: Path, profile: str, options: Mapping[str, Any], train) -> Path:
    """Dev accuracy at every validation against epoch: colour = output α, line style = attention α."""
    plt = plots.pyplot()
    settings = settings_run(options)
    fig, axes = plt.subplots(1, len(settings), figsize=(6 * len(settings), 4.5), squeeze=False)
    colours = dict(zip(ALPHAS, ("tab:blue", "tab:orange", "tab:green")))
    styles = dict(zip(ALPHAS, ("-", "--", ":")))
    for ax, s in zip(axes[0], settings):
        for r in sorted(train[s], key=lambda r: (key(r), int(r["config"]["seed"]))):
            a, b = key(r)
            hist = r["extra"].get("history", [])
            xs = [h["epoch"] + 1 for h in hist]
            ys = [h.get("val_acc") for h in hist]
            ax.plot(xs, ys, color=colours.get(a), linestyle=styles.get(b, "-"), marker=".",
                    label=f"out α={a}, attn α={b}, seed {r['config']['seed']}")
        ax.set(xlabel="epoch", ylabel="dev word accuracy (%), greedy",
               title=f"learning curves, {s} setting ({profile})")
        ax.legend(fontsize=7)
    fig.tight_layout()
    return plots.save(fig, path, dpi=100)
