"""Matplotlib for reports: the Agg backend and PNGs without a software/time stamp."""
from __future__ import annotations

from pathlib import Path


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
