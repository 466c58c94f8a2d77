"""Cells and Markdown tables shared by every paper's report."""
from __future__ import annotations

from statistics import mean
from typing import Any, Hashable, Iterable, Mapping, Sequence

NOT_RUN = "not run in this profile"
MISSING = "missing run"
NONE = "–"


def fmt(x: Any, digits: int = 2) -> str:
    """A table cell: ``–`` for None, floats with ``digits`` decimals, anything else as text."""
    if x is None:
        return NONE
    if isinstance(x, float):
        return f"{x:.{digits}f}"
    return str(x)


def alpha_cell(a: float) -> str:
    """An α as a cell: 2 decimals, 3 where the grid has them (1.125 and 1.375 are not 1.12 and 1.38)."""
    return f"{a:.2f}" if round(a, 2) == a else f"{a:.3f}"


def pct(x: float) -> str:
    """A fraction as a percentage with two decimals (0.1234 -> ``12.34``)."""
    return f"{100 * x:.2f}"


def bold(s: str) -> str:
    return f"**{s}**"


def md_table(header: Sequence[Any], rows: Iterable[Sequence[Any]]) -> str:
    lines = ["| " + " | ".join(map(str, header)) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(fmt(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def md_header(title: str, lead: str, heading: str, items: Iterable[str]) -> str:
    """A report file's top: its title, a lead line, and the profile's settings as a list under ``heading``."""
    return "\n".join([f"# {title}", "", lead, "", heading, "", *(f"- {x}" for x in items)]) + "\n\n"


def best_keys(values: Mapping[Hashable, float], ndigits: int = 6) -> set:
    """The keys whose value ties the maximum (compared after rounding to ``ndigits``)."""
    if not values:
        return set()
    top = round(max(values.values()), ndigits)
    return {k for k, v in values.items() if round(v, ndigits) == top}


def seed_mean(recs: Sequence[Mapping[str, Any]], metric: str) -> float | None:
    """Mean of ``metric`` over the records that have it (None if none do)."""
    vals = [float(r["metrics"][metric]) for r in recs if metric in r["metrics"]]
    return mean(vals) if vals else None


def delta(ours: float | None, ref: float | None) -> float | None:
    return None if ours is None or ref is None else ours - ref


def lr_schedule(rec) -> tuple[Any, Any]:
    """(validations that lowered the learning rate, the last rate) from the history; NONE without rates."""
    lrs = [h["lr"] for h in rec.get("extra", {}).get("history", []) if h.get("lr") is not None]
    if not lrs:
        return NONE, NONE
    start = float(rec["config"]["task"]["lr"])
    return sum(b < a for a, b in zip([start, *lrs], lrs)), f"{lrs[-1]:.3g}"
