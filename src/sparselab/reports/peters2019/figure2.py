"""Figure 2 of Peters et al. (2019) as tables: forced decoding of a few test references."""
from __future__ import annotations

from typing import Any, Mapping

from . import header
from .runs import AUTOCOMPLETE, MAPPINGS, PAIRS, by_key, seed_of, table2_records
from ..tables import md_table
from ..templates import template

text = template(__name__)


def autocomplete_step_row(i: int, step: Mapping[str, Any]) -> list[Any]:
    cands = " · ".join(f"`{tok}` {p:.3f}" for tok, p in step["candidates"])
    shown, support = len(step["candidates"]), int(step["support"])
    more = "" if shown >= support else f" · … {support - shown} more (listed mass {step['shown_mass']:.3f})"
    return [i, f"`{step['gold']}` {step['gold_prob']:.3f}", support, cands + more]


def autocomplete_runs(recs) -> list[tuple[str, str, dict]]:
    """(direction, mapping label, run) for each Table 2 configuration: its lowest seed, the run Figure 2 shows."""
    g = by_key(table2_records(recs))
    return [(p, label, g[(p, a, a)][0]) for p in PAIRS for _, a, label in MAPPINGS if g.get((p, a, a))]


def autocomplete_text(profile: str, options: Mapping[str, Any], recs) -> str:
    out = header.translation("Figure 2 — autocomplete: every target token with nonzero probability", profile, options,
                             table2_records(recs))
    out += text("intro") + "\n"
    for p, label, r in autocomplete_runs(recs):
        for ex in r.get("extra", {}).get("autocomplete", [])[:AUTOCOMPLETE]:
            out += (f"\n## {p}, {label} (seed {seed_of(r)}), test sentence {ex['index']}\n\n"
                    f"- source: {ex['src']}\n- reference: {ex['ref']}\n\n")
            out += md_table(["step", "gold (probability)", "nonzero tokens", "candidates (probability)"],
                            [autocomplete_step_row(i + 1, s) for i, s in enumerate(ex["steps"])])
    return out
