"""The front door of the Correia, Niculae & Martins (2019) reports: which records, modules and files."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from . import alpha_rule, analysis, claims, header, heads, table1
from .runs import (CONFIGS, EXTRAS, PAPER, alpha_lr_controls, analysed, bleu_file_stem, collect, committed, seed_of,
                   split, variant_of, write_extras)
from .. import mt_common
from ..claims import paper_page, table
from ..index import write_configs, write_index
from ..mt_common import BLEU_DIR, pair_of
from ..numbers import pick
from ..records import relative_run, scrub
from ..reference import reference
from ..templates import artifacts

__all__ = ["ARTIFACTS", "PAPER", "committed", "numbers", "restore_files", "write_reports"]
ARTIFACTS = artifacts(__package__)


def restore_files(rec, report: Path) -> int:
    """A committed run's BLEU files back into its run directory (``sparselab.reports.restore``)."""
    from ..restore import restore_bleu_files

    return restore_bleu_files(rec, Path(report), bleu_file_stem)


def index_items(out: Path) -> list[tuple[str, str, str]]:
    # speed.md is the benchmark's (make reproduce-correia2019 runs it first); write_index names it when absent
    return ARTIFACTS + [(f"Attention maps: {p.stem.removeprefix('attention_maps_')}", p.name,
                     "one example sentence, every head of every layer (exact zeros white)")
                    for p in sorted(out.glob("attention_maps_*.png"))]


def write_reports(profile: str, out: Path, options: Mapping[str, Any], runs,
                  ref: Mapping[str, Any] | None = None) -> list[dict]:
    """Every report file of the paper in ``out``; returns the records behind them."""
    ref = reference(PAPER) if ref is None else ref
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    alpha_lr = options.get("alpha_lr")
    recs, others = collect(runs, profile, alpha_lr)
    live = bool(recs or others)
    if not live:
        # a clone without run directories: the records committed beside the report (runs.jsonl + run_extras.jsonl)
        recs, others = split(committed(out, runs), alpha_lr)
        if recs:
            print(f"[{PAPER}] no run records of profile {profile} under the runs root: reports rebuilt from the "
                  f"committed {CONFIGS} and {EXTRAS} ({len(recs)} runs)", flush=True)
    controls = alpha_lr_controls(others, alpha_lr)
    others = [r for r in others if not any(r is c for c in controls)]
    file_rows = mt_common.copy_bleu_files(out, [*recs, *controls], bleu_file_stem, copy=live)
    rule = alpha_rule.rows(out / BLEU_DIR, [r for r in recs if variant_of(r) == "alpha_entmax"], controls,
                           bleu_file_stem)
    left_out = [relative_run(r["run_dir"], runs) for r in others]
    speed_note = table1.speed_model_check(out, recs)
    analysed_runs = analysed(options, recs)
    found = claims.claims(out / BLEU_DIR, recs, bleu_file_stem, analysed_runs, ref)
    (out / "claims.md").write_text(scrub(paper_page(claims.__name__, profile, found), runs))
    (out / "table1_bleu.md").write_text(scrub(table1.table1_text(profile, options, recs, ref, file_rows, left_out, speed_note,
                                                          rule)
                                              + "\n## The paper's claims on BLEU (rows of `claims.md`)\n\n"
                                              + table([c for c in found if c.section == claims.S4]), runs))
    rule_line = alpha_rule.summary(rule, alpha_lr) if rule else ""
    settings = header.reductions(profile, options, recs, ref, rule_line)     # composes the paper profile: once
    alpha_lines = [x for x in settings if x.startswith(("scaling rule — α", "α rule"))]
    text = analysis.write(out, profile, options, recs, ref, alpha_lines)
    text += claims.per_head_section(analysed_runs) + ("\nThe claims these numbers test: `claims.md`. The paper's §5 "
                                                      "analyses are on en-de WMT14; ours on de-en Multi30k.\n")
    (out / "analysis.md").write_text(scrub(text, runs))
    (out / "head_roles.md").write_text(scrub(heads.head_roles_text(profile, options, recs, ref), runs))
    from ..wandb_report import write_outline      # the W&B report's outline (offline it cannot be saved)

    write_outline(PAPER, profile, out)
    # the left-out runs too: the table names them, and --report-only from these files names them again
    write_configs(out, [*recs, *controls, *others], runs)
    write_extras(out, [*recs, *controls, *others], runs)
    note = "; ".join(settings)
    write_index(out, f"Correia, Niculae & Martins (2019) — adaptively sparse Transformers, profile {profile}",
                index_items(out), recs, notes=note, runs=runs, profile=profile, claims=found)
    return recs


def numbers(runs, profile: str) -> dict[str, dict[str, float]]:
    """Per run (direction, attention, seed): the metrics the tables read (timings left out)."""
    names = ("bleu", "bleu_tok", "val_acc_best", "output_alpha", "density_enc_self", "density_dec_self",
             "density_context")
    out = {}
    for r in collect(runs, profile)[0]:
        extra = [f"{m}_{n}" for n in r.get("extra", {}).get("extra_test", {}) for m in ("bleu", "bleu_tok")]
        js = sorted(k for k in r["metrics"] if k.startswith("js_"))
        out[f"table1_bleu/{pair_of(r)},{variant_of(r)},seed={seed_of(r)}"] = pick(r["metrics"], [*names, *extra, *js])
    return out
