"""Matplotlib for reports and tasks: the Agg backend, PNGs without a software/time stamp, attention heatmaps."""
from __future__ import annotations

from pathlib import Path
from typing import Mapping, Sequence


def pyplot():
    """``matplotlib.pyplot`` on the non-interactive Agg backend."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save(fig, path: Path, dpi: int = 100) -> Path:
    """Write ``fig`` as PNG with no metadata that changes between runs, and close it."""
    fig.savefig(path, dpi=dpi, metadata={"Software": None})
    pyplot().close(fig)
    return Path(path)


def heatmap_figure(panels: Sequence[tuple[str, Sequence[str], Mapping[str, Sequence[float]]]], title: str):
    """One heatmap per panel ``(title, premise words, {row label: weights})``: rows are attention variants (or
    runs), columns premise words, colour the weight in [0, 1]; nonzero weights are written in their cells, so
    a zero (a word a sparse mapping left out) is an empty white cell."""
    import numpy as np

    plt = pyplot()
    width = max(len(words) for _, words, _ in panels)
    heights = [max(1, len(rows)) * 0.32 + 1.3 for _, _, rows in panels]
    fig, axes = plt.subplots(len(panels), 1, squeeze=False, layout="constrained",
                             figsize=(max(6.0, 0.55 * width + 2.0), sum(heights) + 0.4),
                             gridspec_kw={"height_ratios": heights})
    cmap = plt.get_cmap("Blues").with_extremes(bad="white")
    im = None
    for ax, (name, words, rows) in zip(axes[:, 0], panels):
        mat = np.full((max(1, len(rows)), width), np.nan)
        for i, w in enumerate(rows.values()):
            mat[i, : len(w)] = w
        im = ax.imshow(np.where(mat > 0, mat, np.nan), cmap=cmap, vmin=0.0, vmax=1.0, aspect="auto")
        for (i, j), x in np.ndenumerate(mat):
            if x > 0:
                ax.text(j, i, f"{x:.2f}"[1:] if x < 1 else "1", ha="center", va="center", fontsize=6,
                        color="white" if x > 0.6 else "black")
        ax.set_xticks(range(len(words)))
        ax.set_xticklabels(words, rotation=60, ha="right", rotation_mode="anchor", fontsize=7)
        ax.set_yticks(range(len(rows)))
        ax.set_yticklabels(list(rows), fontsize=7)
        ax.set_xlim(-0.5, width - 0.5)
        ax.set_title(name if len(name) < 120 else name[:117] + "...", fontsize=7, loc="left")
    fig.colorbar(im, ax=axes[:, 0].tolist(), fraction=0.02, pad=0.01, label="attention weight")
    fig.suptitle(title, fontsize=9)
    return fig
