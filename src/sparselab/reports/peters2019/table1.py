"""Table 1 of Peters et al. (2019): word accuracy on CoNLL–SIGMORPHON 2018 task 1 (``table1.md``)."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from . import header
from .runs import ALPHAS, KINDS, SETTINGS, by_config, is_run, key, same_languages, settings_run, trained
from ..reference import table_cell
from ..tables import MISSING, NONE, NOT_RUN, delta, lr_schedule, md_table, seed_mean
from ..templates import template

text = template(__name__)
REF_COLUMNS = ["high_avg", "high_ens", "medium_avg", "medium_ens"]


def accuracy_cells(rs: Sequence[dict], ref_value: float | None, run_here: bool) -> list[Any]:
    """(ours, paper, Δ) for one configuration and column; ours = mean over the records' ``acc``."""
    if not run_here:
        return [NOT_RUN, ref_value, NONE]
    ours = seed_mean(rs, "acc")
    if ours is None:
        return [MISSING, ref_value, NONE]
    return [ours, ref_value, delta(ours, ref_value)]


def grid_rows(train, ens, cell) -> list[list[Any]]:
    """One row per (output α, attention α): the α's, then ``cell(...)`` per setting × kind column."""
    groups = {"avg": {s: by_config(train[s]) for s in SETTINGS}, "ens": {s: by_config(ens[s]) for s in SETTINGS}}
    return [[a, b, *(x for s in SETTINGS for kind in KINDS for x in cell(groups[kind][s].get((a, b), []), s, kind, (a, b)))]
            for a in ALPHAS for b in ALPHAS]


def table1_rows(train, ens, options: Mapping[str, Any], ref: Mapping[str, Any]) -> list[list[Any]]:
    def cell(rs, s, kind, k):
        rv = table_cell(ref, "table1_sigmorphon2018", f"{k[0]:.1f},{k[1]:.1f}", f"{s}_{kind}", REF_COLUMNS)
        return accuracy_cells(rs, rv, is_run(options, s, kind, k))
    return grid_rows(train, ens, cell)


def edit_distance_rows(train, ens, options: Mapping[str, Any]) -> list[list[Any]]:
    def cell(rs, s, kind, k):
        if not is_run(options, s, kind, k):
            return [NOT_RUN]
        v = seed_mean(rs, "edit_distance")
        return [MISSING if v is None else v]
    return grid_rows(train, ens, cell)


def table1_context(ref: Mapping[str, Any]) -> str:
    uzh = ref.get("table1_sigmorphon2018", {}).get("shared_task_best_uzh")
    base = ref.get("sigmorphon2018_official_baseline_dev", {}).get("values")
    if not (uzh or base):
        return ""
    out = "\nContext (paper / shared task, reference only): "
    if uzh:
        out += text("context_uzh", high=uzh.get("high_ens"), medium=uzh.get("medium_ens")) + " "
    if base:
        out += text("context_baseline", medium=base.get("medium"), high=base.get("high"))
    return out + "\n"


def baseline_rows(baseline, train, options: Mapping[str, Any], ref: Mapping[str, Any] | None = None
                  ) -> list[list[Any]]:
    """Per setting: the non-neural baseline beside softmax/softmax and our worst configuration."""
    official = ((ref or {}).get("sigmorphon2018_official_baseline_dev") or {}).get("values") or {}
    rows = []
    for s in settings_run(options):
        b = baseline.get(s, [])
        g = by_config(train[s])
        accs = [seed_mean(v, "acc") for v in g.values()]
        accs = [a for a in accs if a is not None]
        if not b:
            rows.append([s, MISSING, MISSING, official.get(s), max(accs, default=None), min(accs, default=None),
                         NONE])
            continue
        soft = seed_mean(g.get((1.0, 1.0), []), "acc")
        rows.append([s, seed_mean(b, "acc"), seed_mean(b, "dev_acc"), official.get(s), soft, min(accs, default=None),
                     "yes" if same_languages(b, train[s]) else "no"])
    return rows


def language_table_rows(train, ens, baseline, setting: str) -> tuple[list[str], list[list[Any]]]:
    """(languages, rows) of one setting: per cell, ensemble and baseline, accuracy per language."""
    recs = [*train[setting], *ens[setting], *(baseline or {}).get(setting, [])]
    langs = sorted({lang for r in recs for lang in r["extra"].get("per_language", {})})

    def row(label: list[Any], rs: Sequence[dict]) -> list[Any]:
        per = [[r["extra"]["per_language"][lang]["accuracy"] for r in rs if lang in r["extra"].get("per_language", {})]
               for lang in langs]
        return [*label, *[sum(v) / len(v) if v else MISSING for v in per], seed_mean(rs, "acc")]

    rows = []
    for kind, src in (("avg", train), ("ens", ens)):
        for k, rs in sorted(by_config(src[setting]).items()):
            seeds = (",".join(str(r["config"]["seed"]) for r in rs) if kind == "avg" else
                     "+".join(str(m["seed"]) for m in rs[0]["extra"].get("members", [])))
            rows.append(row([f"{k[0]:.2f}", f"{k[1]:.2f}", kind, seeds], rs))
    if (baseline or {}).get(setting):
        rows.append(row(["non-neural baseline", "", "", ""], baseline[setting]))
    return langs, rows


def language_table_text(train, ens, baseline, options: Mapping[str, Any]) -> str:
    out = ""
    for s in settings_run(options):
        langs, rows = language_table_rows(train, ens, baseline, s)
        if rows:
            out += "\n" + text("per_language", setting=s) + "\n\n"
            out += md_table(["output α", "attention α", "kind", "seeds", *langs, "macro"], rows)
    return out


def convergence_rows(train, options: Mapping[str, Any]) -> list[list[Any]]:
    """Per run: validations, epochs trained, best epoch and dev accuracy, and why training stopped."""
    rows = []
    for s in settings_run(options):
        for r in sorted(train[s], key=lambda r: (key(r), int(r["config"]["seed"]))):
            hist = r["extra"].get("history", [])
            epochs = (float(r["metrics"]["train_samples"]) / int(r["extra"]["n_train"])
                      if r["metrics"].get("train_samples") and r["extra"].get("n_train") else None)
            stopped = r["extra"].get("stopped_early")
            why = {True: "early stopping (patience reached)", False: "step/epoch cap"}.get(stopped, "not recorded")
            halvings, last_lr = lr_schedule(r)
            rows.append([s, *key(r), r["config"]["seed"], len(hist), epochs, r["metrics"].get("best_epoch"),
                         r["metrics"].get("val_acc_best"), halvings, last_lr, why])
    return rows


def convergence_summary(train, options: Mapping[str, Any]) -> str:
    runs = [r for s in settings_run(options) for r in train[s]]
    if not runs:
        return ""
    stopped = sum(1 for r in runs if r["extra"].get("stopped_early"))
    return text("convergence_summary", stopped=stopped, n=len(runs), cap=len(runs) - stopped)


def table1_text(profile: str, options: Mapping[str, Any], train, ens, ref: Mapping[str, Any],
                baseline: Mapping[str, list[dict]] | None = None) -> str:
    out = header.inflection("Table 1 — word accuracy (%) by output α × attention α", profile, options, trained(train))
    out += text("intro") + "\n\n"
    out += md_table(["output α", "attention α", *(c for s in SETTINGS for k in KINDS
                                                  for c in (f"{s} {k} (ours)", f"{s} {k} (paper)", "Δ"))],
                    table1_rows(train, ens, options, ref))
    if baseline is not None and settings_run(options):
        out += "\n" + text("baseline") + "\n\n"
        out += md_table(["setting", "baseline, eval split", "baseline, dev",
                         "organisers' baseline.py, dev, all languages of the setting (papers.yaml)",
                         "ours: softmax/softmax", "ours: worst configuration", "same languages and split"],
                        baseline_rows(baseline, train, options, ref))
    out += "\n## Mean edit distance (macro over languages), ours\n\n"
    out += md_table(["output α", "attention α"] + [f"{s} {k}" for s in SETTINGS for k in KINDS],
                    edit_distance_rows(train, ens, options))
    out += language_table_text(train, ens, baseline, options)
    conv = convergence_rows(train, options)
    if conv:
        out += "\n## Convergence of each run\n\n" + convergence_summary(train, options) + "\n\n"
        out += md_table(["setting", "output α", "attention α", "seed", "validations", "epochs trained",
                         "best epoch", "best dev accuracy", "lr halvings", "last lr", "stopped by"], conv)
    return out + table1_context(ref)
