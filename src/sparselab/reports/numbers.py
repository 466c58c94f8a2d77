"""The numbers behind a paper's tables, ``{row key: {metric: value}}``; pinned for smoke by the tests."""
from __future__ import annotations

import math
from typing import Any, Callable, Mapping


def pick(metrics: Mapping[str, Any], names) -> dict[str, float]:
    """The named metrics that are present, as floats."""
    return {m: float(metrics[m]) for m in names if metrics.get(m) is not None}


def diff(got: Mapping[str, Mapping[str, float]], want: Mapping[str, Mapping[str, float]],
         abs_tol: float | Callable[[str], float] = 1e-6) -> list[str]:
    """Differences between two number sets beyond ``abs_tol`` (a number, or a function of the row key)."""
    tol = abs_tol if callable(abs_tol) else (lambda row: abs_tol)
    out = [f"{row}: missing" for row in sorted(set(want) - set(got))]
    out += [f"{row}: unexpected row" for row in sorted(set(got) - set(want))]
    for row in sorted(set(got) & set(want)):
        g, w = got[row], want[row]
        for m in sorted(set(g) | set(w)):
            if m not in g or m not in w:
                out.append(f"{row}: {m} only in {'expected' if m in w else 'new'} numbers")
            elif not math.isclose(g[m], w[m], rel_tol=0.0, abs_tol=tol(row)):
                out.append(f"{row}: {m} = {g[m]!r}, expected {w[m]!r}")
    return out

