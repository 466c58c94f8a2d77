"""The front door of the Martins & Astudillo (2016) reports: which records, modules and files."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Mapping, Sequence

from . import claims, figure3, table2, table3, table4
from .runs import (COMMITS_PART, CONFIGS, EXTRAS, F3, PAPER, SNLI_RUNS, T2, T3, committed, load_figure3, load_table2,
                   load_table3, snli_key, stored_rows)
from .table3 import TABLE3
from .table4 import TABLE4
from ..claims import Claim, paper_page
from ..index import write_configs, write_index
from ..numbers import pick
from ..records import load
from ..reference import reference
from ..templates import artifacts, template

__all__ = ["ARTIFACTS", "COMMITS_PART", "PAPER", "committed", "numbers", "write_reports"]
CLAIMS_OLD = "## The paper's claims, checked on these runs\n"     # the section an older report (before the claims kit) ends with
ARTIFACTS = artifacts(__package__)
prose = template(__name__)


def write_reports(profile: str, out: Path, options: Mapping[str, Any], runs,
                  ref: Mapping[str, Any] | None = None, reuters_msg: str | None = None) -> list[dict]:
    """Every report file of the paper in ``out``; returns the records behind them.

    ``--only`` SNLI rewrites the SNLI files only; Table 2 alone (or a clone without Figure 3 / SNLI records) rewrites
    Table 2 only (:func:`write_table2_only`): the other files stay as an earlier run wrote them."""
    ref = reference(PAPER) if ref is None else ref
    only = list(options.get("only") or [])
    if only == [T2] or (not only and not load(runs, profile, F3) and not load(runs, profile, T3)):
        return write_table2_only(profile, out, runs, ref, reuters_msg)
    recs4, red4 = write_snli(profile, out, runs, ref)
    snli_red = prose("snli", red="; ".join(red4) or "none")
    if only == [T3]:
        write_configs(out, recs4, runs, name=SNLI_RUNS)
        notes = prose("only_snli", profile=profile, only=T3, snli=snli_red)
        items = [*ARTIFACTS, ("SNLI run configs", SNLI_RUNS, "config, hash and metrics of every SNLI run used")]
        write_index(out, f"Martins & Astudillo (2016) — {profile}", items, recs4, notes=notes, runs=runs,
                    profile=profile)
        return recs4
    recs2, red2, t2 = table2.write_table2(profile, out, runs, ref, reuters_msg)
    recs3, red3 = figure3.write_figure3(profile, out, runs, ref)
    recs = recs2 + recs3 + recs4
    write_configs(out, recs, runs)
    found = write_claims(out, profile, t2, recs3, recs4)
    Path(out, SNLI_RUNS).unlink(missing_ok=True)          # runs.jsonl now holds the SNLI runs too
    notes = prose("all", profile=profile, red2="; ".join(red2) or "none", red3="; ".join(red3) or "none", snli=snli_red)
    write_index(out, f"Martins & Astudillo (2016) — {profile}", ARTIFACTS, recs, notes=notes, runs=runs,
                profile=profile, claims=found)
    return recs


def write_snli(profile: str, out: Path, runs, ref: Mapping[str, Any]) -> tuple[list[dict], list[str]]:
    """table3_snli.md, table4_examples.md, table4_heatmaps.png; returns the records and the reductions."""
    recs, by = load_table3(runs, profile)
    res = table3.select(by)
    table3.write_table3(profile, out, recs, res, ref)
    table4.write_table4(profile, out, by, res, recs)
    return recs, table3.profile_reductions(recs)


def write_table2_only(profile: str, out: Path, runs, ref: Mapping[str, Any], reuters_msg: str | None) -> list[dict]:
    """Table 2 and its committed records; ``runs.jsonl`` keeps the other experiments' rows; the index."""
    recs2, red2, t2 = table2.write_table2(profile, out, runs, ref, reuters_msg)
    configs = Path(out) / "runs.jsonl"
    if configs.exists():
        keep = [line for line in configs.read_text().splitlines()
                if json.loads(line)["config"].get("experiment_name") != T2]
        configs.write_text("".join(line + "\n" for line in keep))
    notes = prose("table2_only", profile=profile, configs=CONFIGS, extras=EXTRAS, red2="; ".join(red2) or "none")
    found = write_claims(out, profile, t2, stored_rows(out, F3), stored_rows(out, T3))
    for name in ("figure3_label_proportions.md", TABLE3, TABLE4):   # their claims now live in claims.md
        f = Path(out) / name
        if f.exists() and CLAIMS_OLD in (text := f.read_text(encoding="utf-8")):
            f.write_text(text.split(CLAIMS_OLD)[0] + claims.POINTER, encoding="utf-8")
    write_index(out, f"Martins & Astudillo (2016) — {profile}", ARTIFACTS, recs2, notes=notes, runs=runs,
                claims=found)
    return recs2


def write_claims(out: Path, profile: str, t2: Sequence[Claim], f3_rows: Sequence[dict], snli_rows: Sequence[dict]
                 ) -> list[Claim]:
    """claims.md: every claim, Table 2's from its records, Figure 3's and SNLI's from theirs (config + metrics)."""
    by = {snli_key(r): r for r in snli_rows}
    res = table3.select(by)
    found = [*t2, *claims.figure3_claims(f3_rows), *claims.snli_claims(res, table4.examples_of(table4.example_runs(by, res)))]
    (Path(out) / "claims.md").write_text(paper_page(claims.__name__, profile, found))
    return found
TABLE2_METRICS = ("micro_f1", "macro_f1", "label_f1", "cv_objective", "micro_f1_std", "macro_f1_std")
FIGURE3_METRICS = ("mse", "js", "mse_std", "js_std")


def numbers(runs, profile: str) -> dict[str, dict[str, float]]:
    """Table 2 per (dataset, loss), Figure 3 per (K, mixture, L, loss), Table 3 per (attention, L2, seed)."""
    out = {}
    _, by = load_table2(runs, profile)
    for (d, l), r in sorted(by.items()):
        row = pick(r["metrics"], TABLE2_METRICS)
        for i, p in enumerate(r["extra"].get("per_split", [])):
            row.update({f"l2[{i}]": float(p["l2"]), f"threshold[{i}]": float(p["threshold"]),
                        f"lbfgs_iterations[{i}]": float(p["lbfgs_iterations"])})
        out[f"table2/{d}/{l}"] = row
    _, data = load_figure3(runs, profile)
    for (K, mix, L, loss), r in sorted(data.items()):
        out[f"figure3/K={K}/{mix}/L={L:g}/{loss}"] = pick(r["metrics"], FIGURE3_METRICS)
    out.update(table3.numbers(runs, profile))
    return out
