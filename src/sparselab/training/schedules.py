"""Learning-rate schedules as plain functions of the step: the training modules use them, and a report that quotes
a schedule reads the same function without importing torch."""
from __future__ import annotations


def inverse_sqrt(warmup_steps: int):
    """lr factor of step s (counted from 1): s / w during warm-up, then sqrt(w / s)."""
    w = max(1, int(warmup_steps))

    def factor(step: int) -> float:
        s = step + 1
        return s / w if s < w else (w / s) ** 0.5
    return factor
