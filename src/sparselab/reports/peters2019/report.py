"""The front door of the Peters, Niculae & Martins (2019) reports: which records, modules and files."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from . import claims, figure2, figure4, figures, predictions, runs as R, table2, table3
from .examples import example_runs, examples_text
from .header import mt_reductions, reductions
from .per_language import write_per_language_csv
from .runs import CONFIGS, CONFIGS_MT, EXPERIMENT, EXTRAS, PAPER, SETTINGS, committed, settings_run, write_extras
from .significance import significance_rows
from .sparsity import sparsity_text
from .table1 import table1_text
from .. import mt_common
from ..claims import paper_page
from ..index import write_configs, write_index
from ..numbers import pick
from ..records import scrub
from ..reference import reference
from ..templates import artifacts

INFLECTION_ARTIFACTS, MT_ARTIFACTS = artifacts(__package__, "inflection"), artifacts(__package__, "mt")
ARTIFACTS = INFLECTION_ARTIFACTS + MT_ARTIFACTS


def restore_files(rec, report: Path) -> int:
    """A committed run's files back in its run dir: predictions (inflection), BLEU files (MT)."""
    from ..restore import restore_bleu_files

    exp = rec["config"].get("experiment_name", "")
    if exp == EXPERIMENT:
        return restore_bleu_files(rec, Path(report), R.bleu_file_stem)
    kind = "ensemble" if "/ensemble_" in exp else "baseline" if "/baseline_" in exp else "single"
    return predictions.restore(Path(report), kind, rec, R.key, R.setting_of)


def write_reports(profile: str, out: Path, options: Mapping[str, Any], runs,
                  ref: Mapping[str, Any] | None = None) -> list[dict]:
    """Every report file in ``out``; returns the records. ``--only`` MT leaves the inflection files alone."""
    ref = reference(PAPER) if ref is None else ref
    out = Path(out)
    mt_only = bool(options.get("mt")) and list(options.get("only") or []) == [EXPERIMENT]
    train, ens, baseline, mt_recs, live = gather(runs, profile, options, out)
    recs = [r for s in SETTINGS for r in train[s] + ens[s] + (baseline or {}).get(s, [])]
    if mt_only:
        note = ("report files from an earlier run of the pipeline, unchanged by this one (`--only "
                f"{EXPERIMENT}`); the configs, hashes and metrics of their runs are in `runs.jsonl`")
    else:
        write_inflection(profile, out, options, runs, ref, train, ens, baseline, recs)
        note = "; ".join(reductions(profile, options, R.trained(train)))
    items, title = INFLECTION_ARTIFACTS, "inflection"
    if options.get("mt"):             # the plan runs the MT experiments too
        mt_recs = write_mt(profile, out, options, runs, ref, mt_recs, live)
        items, title = ARTIFACTS, "inflection and machine translation"
        note = f"Inflection: {note}\n\nMT: " + "; ".join(mt_reductions(profile, options, mt_recs))
    found = ()
    if not mt_only:                   # the claims need the inflection records too
        groups = {s: R.by_config(train[s]) for s in settings_run(options)}
        ensembles = {s: R.by_config(ens[s]) for s in settings_run(options)} if options.get("ensemble") else None
        found = claims.claims(out, groups, mt_recs if options.get("mt") else None, ref, ensembles)
        (out / "claims.md").write_text(paper_page(claims.__name__, profile, found))
    write_index(out, f"Peters, Niculae & Martins (2019) — {title}, profile {profile}", items, recs + mt_recs,
                notes=note, runs=runs, profile=profile, claims=found)
    return recs + mt_recs


def gather(runs, profile: str, options: Mapping[str, Any], out: Path) -> tuple:
    """(train, ensemble, baseline per setting, MT records, live) from the runs folder, else committed ones."""
    def records(stored=None):
        train, ens = R.collect(runs, profile, stored)
        baseline = R.per_setting(runs, profile, "baseline", stored) if options.get("baseline") else None
        mt_recs = R.collect_mt(runs, profile, stored) if options.get("mt") else []
        return train, ens, baseline, mt_recs

    got = records()
    if got[3] or any(rs for per_setting in got[:3] for rs in (per_setting or {}).values()):
        return (*got, True)
    stored = committed(out, runs)
    if stored:
        print(f"[{PAPER}] no run records of profile {profile} under the runs root: reports rebuilt from the committed "
              f"{CONFIGS} + {EXTRAS[CONFIGS]} and {CONFIGS_MT} + {EXTRAS[CONFIGS_MT]} ({len(stored)} runs)", flush=True)
        got = records(stored)
    return (*got, not stored)


def write_inflection(profile: str, out: Path, options: Mapping[str, Any], runs, ref, train, ens, baseline,
                     recs) -> None:
    """The inflection report files, ``runs.jsonl`` and its extras."""
    (out / "table1.md").write_text(table1_text(profile, options, train, ens, ref, baseline))
    (out / "sparsity.md").write_text(sparsity_text(profile, options, train, ref))
    (out / "examples.md").write_text(examples_text(profile, options, train))
    write_per_language_csv(out / "per_language.csv", train, ens, baseline)
    kinds = (("single", train), ("ensemble", ens), ("baseline", baseline or {}))
    predictions.write(out, [(kind, r) for kind, src in kinds for s in SETTINGS for r in src.get(s, [])], R.key,
                      R.setting_of)
    if settings_run(options):
        figures.plot_accuracy_by_alpha(out / "accuracy_by_alpha.png", profile, options, train)
        figures.plot_support_histogram(out / "support_histogram.png", profile, options, train)
        figures.plot_learning_curves(out / "learning_curves.png", profile, options, train)
    write_configs(out, recs, runs, name=CONFIGS)
    write_extras(out, CONFIGS, recs, runs, shown=[r for _, _, r in example_runs(options, train)])


def write_mt(profile: str, out: Path, options: Mapping[str, Any], runs, ref: Mapping[str, Any], recs: list[dict],
             live: bool) -> list[dict]:
    """Every MT report file but ``figure6_speed.md``; ``live=False``: ``recs`` are committed ones."""
    out.mkdir(parents=True, exist_ok=True)
    file_rows = mt_common.copy_bleu_files(out, R.table2_records(recs), R.bleu_file_stem, copy=live)
    text = table2.table2_text(profile, options, recs, ref, file_rows, significance_rows(out, recs))
    (out / "table2_mt.md").write_text(scrub(text, runs))
    (out / "table3_sparsity.md").write_text(scrub(table3.table3_text(profile, options, recs, ref), runs))
    (out / "figure4_alpha_grid.md").write_text(scrub(figure4.figure4_text(profile, options, recs, ref), runs))
    figure4.plot_figure4(out / "figure4_alpha_grid.png", profile, recs, ref)
    mt_common.plot_learning_curves(out / "mt_learning_curves.png", recs, R.curve_label, "LSTM NMT")
    (out / "autocomplete_examples.md").write_text(figure2.autocomplete_text(profile, options, recs))
    write_configs(out, recs, runs, name=CONFIGS_MT)
    write_extras(out, CONFIGS_MT, recs, runs, shown=[r for _, _, r in figure2.autocomplete_runs(recs)])
    return recs


# ---------------------------------------------------------------- numbers behind the tables
TABLE_METRICS = ("acc", "edit_distance", "exact_share", "single_share", "attn_support", "out_support",
                 "train_samples", "members_mean_acc")
LANGUAGE_METRICS = ("accuracy", "edit_distance", "n", "exact_share", "single_share")
MT_METRICS = ("bleu", "bleu_tok", "exact_share", "single_share", "attn_support", "out_support", "val_acc_best")


def numbers(runs, profile: str) -> dict[str, dict[str, float]]:
    """Per run (or ensemble): Table 1's and the sparsity report's metrics, per language too; no timings."""
    train, ens = R.collect(runs, profile)
    out = {}
    for kind, src in (("table1", train), ("ensemble", ens)):
        for s in SETTINGS:
            for r in src[s]:
                a, b = R.key(r)
                row = f"{kind}_{s}/alpha={a},attn_alpha={b}" + (f",seed={r['config']['seed']}" if kind == "table1" else "")
                out[row] = pick(r["metrics"], TABLE_METRICS)
                for lang, v in sorted(r["extra"].get("per_language", {}).items()):
                    out[f"{row}/{lang}"] = pick(v, LANGUAGE_METRICS)
    return out


def mt_numbers(runs, profile: str) -> dict[str, dict[str, float]]:
    """Per run (direction, α's, seed): the metrics the MT tables read (timings left out)."""
    out = {}
    for r in R.collect_mt(runs, profile):
        p, a, b = R.mt_key(r)
        extra = [f"{m}_{n}" for n in sorted(r.get("extra", {}).get("extra_test", {})) for m in ("bleu", "bleu_tok")]
        out[f"table2_mt/{p},alpha={a},attn_alpha={b},seed={R.seed_of(r)}"] = pick(r["metrics"], [*MT_METRICS, *extra])
    return out
