"""Has a validation curve stopped improving? One rule for training and for reports.

The translation task stops training with it (:class:`sparselab.training.plateau_stopping.PlateauStopping`) and the
MT reports judge every run's convergence with it (:mod:`sparselab.reports.mt_common`), so a run stops exactly
when its report would call it converged (Lightning's ``EarlyStopping`` stopped a de-en run whose
smoothed curve was still rising, since several gains below ``min_delta`` never reset its patience).
Pure Python: no torch, no Lightning.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

SMOOTH_VALIDATIONS = 2      # the MT stopping rule's smoothing: validations averaged into one point of the curve


def convergence(hist: Sequence[Mapping[str, Any]], window: int, smooth: int, gain: float,
                key: str = "val_acc") -> dict[str, Any]:
    """Whether a validation curve (``[{step, <key>}]``, higher is better) had stopped improving at its last
    validation. Two measures over the last ``window`` steps, both below ``gain`` points: the *trend* (the mean of
    the last ``smooth`` validations minus the mean of the ``smooth`` validations ending ``window`` steps earlier)
    and the *record* (the best validation of the window minus the best before it; ≤ 0 when the best is older).
    Too short a curve (fewer than ``smooth`` validations before or inside the window) is not judged
    (``stopped`` None)."""
    pts = sorted((int(h["step"]), float(h[key])) for h in hist if h.get(key) is not None)
    if not pts:
        return {"stopped": None, "why": "no validation curve"}
    last = pts[-1][0]
    before = [a for s, a in pts if s <= last - window]
    inside = [a for s, a in pts if s > last - window]
    best_step, best = max(pts, key=lambda sa: (sa[1], -sa[0]))
    out = {"last_step": last, "best_step": best_step, "best": best, "window": window, "gain": gain}
    if len(before) < smooth or len(inside) < smooth:
        return {**out, "stopped": None, "why": f"fewer than {smooth} validations before or inside the last "
                                                f"{window} steps"}
    trend = sum(a for _, a in pts[-smooth:]) / smooth - sum(before[-smooth:]) / smooth
    record = max(inside) - max(before)
    return {**out, "trend": trend, "record": record, "stopped": trend < gain and record < gain}
