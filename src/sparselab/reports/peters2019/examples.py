"""Figure 1 of Peters et al. (2019) as a table: every output with nonzero probability (``examples.md``)."""
from __future__ import annotations

from typing import Any, Mapping

from . import header
from .runs import Config, by_config, settings_run, trained
from ..tables import md_table
from ..templates import template

text = template(__name__)
EXAMPLE_CONFIGS = [(1.0, 1.0), (1.5, 1.5), (2.0, 2.0)]


def example_rows(rec: dict) -> list[list[Any]]:
    return [[ex["lang"], ex["lemma"], ex["tags"], ex["gold"],
             "; ".join(f"{o['form']!r} {o['prob']:.4g}" for o in ex["outputs"]) or "(none finished)",
             "yes" if ex["exact"] else "no", ex["mass"]] for ex in rec["extra"].get("examples", [])]


def example_runs(options: Mapping[str, Any], train) -> list[tuple[str, Config, dict]]:
    """(setting, configuration, run) for each of :data:`EXAMPLE_CONFIGS` run: its lowest seed, the run shown."""
    groups = {s: by_config(train[s]) for s in settings_run(options)}
    return [(s, k, g[k][0]) for s, g in groups.items() for k in EXAMPLE_CONFIGS if k in g]


def examples_text(profile: str, options: Mapping[str, Any], train) -> str:
    out = header.inflection("Examples — every output with nonzero probability (cf. the paper's Figure 1)", profile,
                            options, trained(train))
    out += text("intro") + "\n"
    for s, k, r in example_runs(options, train):
        out += f"\n## {s} setting, output α {k[0]}, attention α {k[1]} (seed {r['config']['seed']})\n\n"
        out += md_table(["language", "lemma", "tags", "gold", "outputs (probability)", "exact", "mass"],
                        example_rows(r))
    return out
