"""The figures of Correia, Niculae & Martins (2019), drawn from plain data into PNGs (layer keys int or str)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from sparselab.analysis.head_summary import KINDS
from sparselab import plots

TITLES = {"enc_self": "encoder self-attention", "dec_self": "decoder self-attention", "context": "context attention"}


def _kinds(*dicts: Mapping) -> list[str]:
    present = {k for d in dicts for k in d}
    unknown = present - set(KINDS)
    if unknown:
        raise ValueError(f"unknown attention type(s) {sorted(unknown)}; expected {', '.join(KINDS)}")
    return [k for k in KINDS if k in present]


def _per_kind(path: Path, dicts: Sequence[Mapping], draw: Callable[[Any, str], None], title: str | None = None) -> Path:
    """One panel per attention type that ``dicts`` hold, titled and drawn by ``draw(ax, kind)``, saved to ``path``."""
    kinds = _kinds(*dicts)
    n = max(1, len(kinds))
    fig, axes = plots.pyplot().subplots(1, n, figsize=(4.5 * n, 3.5), squeeze=False)
    for ax, kind in zip(axes[0], kinds):
        draw(ax, kind)
        ax.set(title=TITLES[kind])
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return plots.save(fig, path)


def alpha_trajectories(history: Sequence[Mapping], path: Path, title: str | None = None) -> Path:
    """``history``: ``[{"step": s, "alpha": {"<kind>/l<layer>": [α per head]}}]``. Colour = layer."""
    if not history:
        raise ValueError("alpha_trajectories: empty history (no learned α recorded)")
    steps = [int(h["step"]) for h in history]
    by_kind: dict[str, list[str]] = {}
    for site in history[0]["alpha"]:
        by_kind.setdefault(site.split("/")[0], []).append(site)
    plt = plots.pyplot()

    def draw(ax, kind: str) -> None:
        layers = sorted(by_kind[kind], key=lambda s: int(s.split("/l")[-1]))
        colors = plt.cm.viridis(np.linspace(0, 0.9, len(layers)))
        for color, site in zip(colors, layers):
            values = np.array([h["alpha"][site] for h in history])      # (steps, heads)
            for j in range(values.shape[1]):
                ax.plot(steps, values[:, j], color=color, lw=1, label=f"layer {site.split('/l')[-1]}" if j == 0 else None)
        ax.set(xlabel="training step", ylabel="α", ylim=(0.95, 2.05))
        ax.legend(fontsize=7, loc="best")
    return _per_kind(path, [by_kind], draw, title)


def alpha_histograms(alphas: Mapping[str, Sequence[float]], path: Path, bins: int = 20) -> Path:
    """``alphas``: ``{kind: [α of every head]}`` (:func:`sparselab.analysis.heads.alphas_by_kind`)."""
    def draw(ax, kind: str) -> None:
        ax.hist(alphas[kind], bins=bins, range=(1.0, 2.0), color="tab:blue", edgecolor="white")
        ax.set(xlabel="learned α", ylabel="heads")
    return _per_kind(path, [alphas], draw)


def density_histograms(densities: Mapping[str, Mapping[str, Sequence[float]]], path: Path, bins: int = 20) -> Path:
    """``densities``: ``{model label: {kind: [density of every head]}}``, overlaid per attention type."""
    def draw(ax, kind: str) -> None:
        for label, per_kind in densities.items():
            if kind in per_kind:
                ax.hist(per_kind[kind], bins=bins, range=(0.0, 1.0), alpha=0.5, label=label)
        ax.set(xlabel="head density (share of nonzero weights)", ylabel="heads")
        ax.legend(fontsize=8)
    return _per_kind(path, densities.values(), draw)


def sorted_density(densities: Mapping[str, Mapping[str, Mapping]], path: Path) -> Path:
    """Per layer the heads sorted; line r joins every layer's r-th sparsest head (the spread within layers)."""
    colors = dict(zip(densities, plots.pyplot().cm.tab10.colors))

    def draw(ax, kind: str) -> None:
        for label, per_kind in densities.items():
            layers = sorted(per_kind.get(kind, {}), key=int)
            if not layers:
                continue
            x = [int(layer) for layer in layers]
            ranked = np.array([sorted(per_kind[kind][layer]) for layer in layers])   # (layers, heads)
            for r in range(ranked.shape[1]):
                ax.plot(x, ranked[:, r], color=colors[label], lw=0.8, marker=".", label=label if r == 0 else None)
        ax.set(xlabel="layer", ylabel="head density", ylim=(-0.02, 1.02))
        ax.legend(fontsize=8)
    return _per_kind(path, densities.values(), draw)


def js_per_layer(js: Mapping[str, Mapping[str, Mapping]], path: Path) -> Path:
    """``js``: ``{model label: {kind: {layer: mean JS head diversity}}}``, one line per model."""
    def draw(ax, kind: str) -> None:
        for label, per_kind in js.items():
            layers = sorted(per_kind.get(kind, {}), key=int)
            if layers:
                ax.plot([int(layer) for layer in layers], [per_kind[kind][layer] for layer in layers], marker="o",
                        label=label)
        ax.set(xlabel="layer", ylabel="JS head diversity")
        ax.legend(fontsize=8)
    return _per_kind(path, js.values(), draw)


def attention_heads(attn, path: Path, query_tokens: Sequence[str], key_tokens: Sequence[str],
                    title: str | None = None, head_titles: Sequence[str] | None = None, ncols: int = 4) -> Path:
    """``attn``: (H, Lq, Lk) weights of one layer for one sentence; exact zeros white, so the support shows.

    The heads are tiles of one image on one axes, framed and titled, with the tokens on the outer tiles only: one
    axes per head (up to 24 a figure, 9 figures a report) made the attention maps most of a report's drawing time."""
    from matplotlib.collections import PatchCollection
    from matplotlib.patches import Rectangle

    a = np.asarray(attn, dtype=float)
    if a.ndim != 3 or a.shape[1:] != (len(query_tokens), len(key_tokens)):
        raise ValueError(f"attn: expected (H, {len(query_tokens)}, {len(key_tokens)}) for the tokens, got {a.shape}")
    H, lq, lk = a.shape
    ncols = min(ncols, H)
    nrows = -(-H // ncols)
    gx, gy = 1, 2                              # gaps between tiles, in cells (room for a tile's title above it)
    mosaic = np.full((nrows * lq + (nrows - 1) * gy, ncols * lk + (ncols - 1) * gx), np.nan)
    origins = []                               # (row, column) of each head's top-left cell
    for h in range(H):
        r0, c0 = (h // ncols) * (lq + gy), (h % ncols) * (lk + gx)
        mosaic[r0:r0 + lq, c0:c0 + lk] = np.where(a[h] == 0, np.nan, a[h])
        origins.append((r0, c0))
    cell = 0.2                                 # inches per token, as each panel had
    chars = 0.055                              # inches per character of a 7-point label
    left = 0.25 + chars * max(map(len, map(str, query_tokens)), default=1)
    bottom = 0.25 + chars * max(map(len, map(str, key_tokens)), default=1)
    top, right = (0.6 if title else 0.35), 0.2
    width, height = mosaic.shape[1] * cell, mosaic.shape[0] * cell
    plt = plots.pyplot()
    fig = plt.figure(figsize=(left + width + right, bottom + height + top))
    W, Hin = fig.get_size_inches()
    ax = fig.add_axes((left / W, bottom / Hin, width / W, height / Hin))
    cmap = plt.get_cmap("OrRd").with_extremes(bad="white")
    ax.imshow(mosaic, cmap=cmap, vmin=0, vmax=1, interpolation="nearest", aspect="equal")
    ax.add_collection(PatchCollection([Rectangle((c0 - 0.5, r0 - 0.5), lk, lq) for r0, c0 in origins],
                                      facecolor="none", edgecolor="black", linewidth=0.8))
    ax.axis("off")
    for h, (r0, c0) in enumerate(origins):
        ax.text(c0 + lk / 2 - 0.5, r0 - 0.8, head_titles[h] if head_titles else f"head {h}", ha="center",
                va="bottom", fontsize=9)
        if h % ncols == 0:                     # first column: the query tokens
            for i, tok in enumerate(query_tokens):
                ax.text(c0 - 0.9, r0 + i, str(tok), ha="right", va="center", fontsize=7)
        if h + ncols >= H:                     # no tile below: the key tokens
            for j, tok in enumerate(key_tokens):
                ax.text(c0 + j, r0 + lq - 0.1, str(tok), ha="center", va="top", rotation=90, fontsize=7)
    if title:
        fig.suptitle(title, y=1 - 0.15 / Hin, va="top")
    return plots.save(fig, path)
