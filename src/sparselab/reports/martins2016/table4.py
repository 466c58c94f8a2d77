"""Table 4 of Martins & Astudillo (2016) §4.3, SNLI: attended premise words and heatmaps of a few pairs."""
from __future__ import annotations

from pathlib import Path
from typing import Mapping, Sequence

from sparselab import plots
from . import claims
from .runs import Key
from .table3 import NAMES, VARIANTS, VariantResult
from ..tables import NONE, md_table
from ..templates import template

text = template(__name__)
TABLE4, HEATMAPS = "table4_examples.md", "table4_heatmaps.png"
SPARSE_FAMILY = ("sparse", "entmax15", "learned")   # every nonzero word is listed in Table 4
DENSE_TOP = 5                                        # words listed for the dense variants (soft, logistic)


def example_runs(by: Mapping[Key, dict], res: Mapping[str, VariantResult]) -> dict[str, dict]:
    """Per variant with attention: the run at its chosen L2 with the smallest seed."""
    return {v: by[(v, r.l2, r.seeds[0])] for v, r in res.items() if v != "none"}


def attended(words: Sequence[str], weights: Sequence[float], variant: str) -> str:
    """Every nonzero word with its weight (sparse mappings), or the ``DENSE_TOP`` largest (dense ones)."""
    pairs = [(i, w, x) for i, (w, x) in enumerate(zip(words, weights)) if x > 0]
    if variant not in SPARSE_FAMILY:
        pairs = sorted(sorted(pairs, key=lambda t: -t[2])[:DENSE_TOP])       # the largest, in sentence order
    return ", ".join(f"{w} ({x:.2f})" for _, w, x in pairs) or NONE


def table4_examples(runs: Mapping[str, dict]) -> list[tuple[dict, dict[str, dict]]]:
    """(pair, {variant: that run's row for the pair}) in the order the runs stored them."""
    keyed: dict[tuple[str, str], tuple[dict, dict[str, dict]]] = {}     # first-seen order, the first row's pair
    for v, r in runs.items():
        for e in r.get("extra", {}).get("examples", []):
            keyed.setdefault((e["split"], e["pair_id"]), (e, {}))[1][v] = e
    return list(keyed.values())


def examples_of(ex_runs: Mapping[str, dict]) -> list[tuple[str, str, str]] | None:
    """(variant, prediction, gold) of each Table 4 example; None when the records hold no examples."""
    got = [(v, row["pred"], e["gold"]) for e, by_var in table4_examples(ex_runs) for v, row in by_var.items()]
    return got or None


def table4_text(profile: str, runs: Mapping[str, dict], res: Mapping[str, VariantResult], dev_ids: Sequence[str]
                ) -> str:
    lines = ["# Martins & Astudillo (2016), Table 4: attention over the premise, examples", ""]
    lines += text("intro", profile=profile, top=DENSE_TOP).split("\n") + [""]
    if any(x.startswith("low-data") for r in runs.values() for x in r["extra"].get("reductions", [])):
        lines += text("low_data").split("\n") + [""]
    examples = table4_examples(runs)
    shown_dev = [e["pair_id"] for e, _ in examples if e["split"] == "dev"]
    lines += text("paper", ids=", ".join(dev_ids) or "none configured",
                  found=f"Found in this profile's data: {len(shown_dev)} of {len(dev_ids)}." if dev_ids else ""
                  ).split("\n") + [""]
    for i, (e, by_var) in enumerate(examples, 1):
        lines += [f"## {e['split']} pair {e['pair_id']} (gold: {e['gold']})", "",
                  f"- Premise: {' '.join(e['premise'])}", f"- Hypothesis: {' '.join(e['hypothesis'])}", ""]
        rows = [[NAMES[v], row["pred"], f"{sum(x > 0 for x in row['weights'])}/{len(row['weights'])}",
                 attended(row["premise"], row["weights"], v)] for v in VARIANTS if (row := by_var.get(v))]
        lines.append(md_table(["variant", "prediction", "nonzero words", "attended words (weight)"], rows))
    if not examples:
        lines += ["No runs with attention in this profile.", ""]
    lines.append(claims.POINTER)
    return "\n".join(lines).rstrip() + "\n"


def write_heatmaps(runs: Mapping[str, dict], path: Path, profile: str) -> Path | None:
    examples = table4_examples(runs)
    if not examples:
        return None
    short = {"logistic": "logistic", "soft": "softmax", "sparse": "sparsemax", "entmax15": "1.5-entmax",
             "learned": "learned α"}
    panels = [(f"{e['split']} {e['pair_id']} — H: {' '.join(e['hypothesis'])} (gold {e['gold']})", e["premise"],
               {short[v]: by_var[v]["weights"] for v in VARIANTS if v in by_var}) for e, by_var in examples]
    fig = plots.heatmap_figure(panels, f"SNLI attention over the premise (Martins & Astudillo 2016, Table 4 pairs) — "
                                 f"profile {profile}")
    return plots.save(fig, path, dpi=90)


def write_table4(profile: str, out: Path, by: Mapping[Key, dict], res: Mapping[str, VariantResult], recs: list[dict]
                 ) -> None:
    """table4_examples.md and table4_heatmaps.png (removed when no run has attention)."""
    ex_runs = example_runs(by, res)
    dev_ids = [str(x) for x in recs[0]["config"]["task"]["examples"].get("dev_pair_ids") or []] if recs else []
    (Path(out) / TABLE4).write_text(table4_text(profile, ex_runs, res, dev_ids))
    if write_heatmaps(ex_runs, Path(out) / HEATMAPS, profile) is None:
        (Path(out) / HEATMAPS).unlink(missing_ok=True)
