"""Reports of Peters, Niculae & Martins (2019), "Sparse Sequence-to-Sequence Models": inflection.

* Table 1   – word accuracy on CoNLL–SIGMORPHON 2018 task 1, output α × attention α ∈ {1,1.5,2}²,
              high and medium settings, mean of the seeds ("avg") and their ensemble ("ens");
* §5 text   – share of inputs whose whole probability mass is on one sequence, and share for which
              beam search (size 5) is exact, on dev for the configuration best on dev (81%/87% high,
              66%/79% medium);
* Figure 1  – every output with nonzero probability for a few inputs (examples.md);
* sparsity  – attended source positions and output support size. Training speed is not reported from
              the training runs (jobs share the machine); the side-by-side benchmark measures it
              (``figure6_speed.md``).

Each report is built in four steps: load the records (:func:`collect`), compute the cells, format the
text, write the file. Without records under the runs root (a clone) they are those committed beside the report
(:mod:`.extras`). The profile's plan options say which settings were run and whether ensembles
were (``{"settings": [...], "ensemble": bool}``); other cells read "not run in this profile".
"""
from __future__ import annotations

import csv
from collections import defaultdict
from pathlib import Path
from typing import Any, Mapping, Sequence

from sparselab import plots
from . import claims, mt, predictions
from .extras import CONFIGS, CONFIGS_MT, EXTRAS, committed, write_extras
from ..index import write_configs, write_index
from ..numbers import pick
from ..records import load, runs_root
from ..reference import reference, table_cell
from ..tables import MISSING, NONE, NOT_RUN, delta, lr_schedule, md_table, seed_mean

NOT_RECORDED = "not recorded"

PAPER = "peters2019"
ALPHAS = (1.0, 1.5, 2.0)
SETTINGS = ("high", "medium")
KINDS = ("avg", "ens")
REF_COLUMNS = ["high_avg", "high_ens", "medium_avg", "medium_ens"]

ARTIFACTS = [
    ("Table 1", "table1.md", "accuracy, output α × attention α, high/medium, avg of seeds and ensemble, vs paper"),
    ("Sparsity and exactness", "sparsity.md",
     "single-sequence and exact-beam shares on dev vs paper; attended positions and support size"),
    ("Figure 1-style examples", "examples.md", "every nonzero-probability output of a few validation inputs"),
    ("Per-language accuracy", "per_language.csv", "accuracy and edit distance per language and configuration"),
    ("Test predictions", predictions.FOLDER, "the gzipped prediction file behind every row of per_language.csv (each "
     "seed, each ensemble, the non-neural baseline), in the shared task's format; "
     "`python -m sparselab.reports.peters2019.rescore <this folder>` re-scores them with the official evalm.py"),
    ("Accuracy by α", "accuracy_by_alpha.png", "macro accuracy against attention α, one line per output α"),
    ("Support-size histogram", "support_histogram.png", "output support size per target step (teacher forcing)"),
    ("Learning curves", "learning_curves.png", "dev accuracy at every validation, one line per configuration"),
    ("Run configs", CONFIGS, "config, hash and metrics of every run used"),
    ("Run records", EXTRAS[CONFIGS], "what the reports read of the rest of every run's record (validation curves, "
     "per-language numbers, examples): with runs.jsonl, `--report-only` rebuilds every inflection file here without "
     "run directories"),
    ("Claims", "claims.md", "each claim of the paper: holds / does not hold / untested, with numbers and rule"),
    *mt.ARTIFACTS,
]
INFLECTION_ARTIFACTS = [a for a in ARTIFACTS if a not in mt.ARTIFACTS]

Config = tuple[float, float]            # (output α, attention α)


def key(rec) -> Config:
    m = rec["config"]["mapping"]
    return float(m["alpha"]), float(m["attn_alpha"])


def setting_of(rec) -> str:
    return rec["config"]["data"]["setting"]


def restore_files(rec, report: Path) -> int:
    """A committed run's files back into its run directory (``sparselab.reports.restore``): the inflection runs'
    predictions, the MT runs' BLEU hypotheses and references."""
    from ..restore import restore_bleu_files

    exp = rec["config"].get("experiment_name", "")
    if exp == mt.EXPERIMENT:
        return restore_bleu_files(rec, Path(report), mt.bleu_file_stem)
    kind = "ensemble" if "/ensemble_" in exp else "baseline" if "/baseline_" in exp else "single"
    return predictions.restore(Path(report), kind, rec, key, setting_of)


def settings_run(options: Mapping[str, Any]) -> list[str]:
    return list(options.get("settings", []))


def is_run(options: Mapping[str, Any], setting: str, kind: str, cell: Config | None = None) -> bool:
    """Whether the profile's plan runs this column (``kind`` avg: the seeds; ens: their ensemble) for ``cell``:
    where the plan gives extra seeds to some cells (``seeded_cells``), only those are ensembled."""
    if setting not in settings_run(options) or (kind == "ens" and not options.get("ensemble")):
        return False
    seeded = options.get("seeded_cells")
    return kind == "avg" or cell is None or not seeded or all(x in seeded for x in cell)


# ---------------------------------------------------------------- load
def collect(runs, profile: str, stored: Sequence[dict] | None = None
            ) -> tuple[dict[str, list[dict]], dict[str, list[dict]]]:
    """Finished training and ensemble records per setting (``stored``: among these committed ones)."""
    train, ens = {}, {}
    for s in SETTINGS:
        train[s] = load(runs, profile, f"{PAPER}/table1_{s}", lambda r, s=s: setting_of(r) == s, stored)
        ens[s] = load(runs, profile, f"{PAPER}/ensemble_{s}", lambda r, s=s: setting_of(r) == s, stored)
    return train, ens


def collect_baseline(runs, profile: str, stored: Sequence[dict] | None = None) -> dict[str, list[dict]]:
    """Finished runs of the shared task's non-neural baseline (``peters2019/baseline_<setting>``)."""
    return {s: load(runs, profile, f"{PAPER}/baseline_{s}", lambda r, s=s: setting_of(r) == s, stored)
            for s in SETTINGS}


def same_languages(baseline: Sequence[dict], train: Sequence[dict]) -> bool:
    """Whether the baseline decoded exactly the languages and eval split of the neural runs."""
    langs = {tuple(sorted(r["extra"].get("per_language", {}))) for r in [*baseline, *train]}
    splits = {r["config"]["task"]["eval_split"] for r in [*baseline, *train]}
    return len(langs) == 1 and len(splits) == 1


def best_key(g: Mapping[Any, list[dict]]) -> Any:
    """The configuration with the highest mean dev accuracy (``val_acc_best``), first in α order on ties; never the
    test accuracy: the paper picks its best configuration on validation data."""
    return max(sorted(g), key=lambda k: seed_mean(g[k], "val_acc_best") or -1)


def by_config(recs) -> dict[Config, list[dict]]:
    out = defaultdict(list)
    for r in recs:
        out[key(r)].append(r)
    for v in out.values():
        v.sort(key=lambda r: int(r["config"]["seed"]))
    return out


def trained(train) -> list[dict]:
    return [r for s in SETTINGS for r in train[s]]


# ---------------------------------------------------------------- header
def reductions(profile: str, options: Mapping[str, Any], recs: list[dict]) -> list[str]:
    """Human-readable description of the profile's scale, read from the run configs."""
    if not recs:
        return [f"profile `{profile}`: no finished runs yet"]
    c = recs[0]["config"]
    d, m, t, tr = c["data"], c["model"], c["task"], c["trainer"]
    seeds = sorted({int(r["config"]["seed"]) for r in recs})
    n_lang = sorted({int(r["metrics"].get("n_languages", 0)) for r in recs})
    first = lambda n: "all" if int(n) == 0 else "first " + str(n)  # noqa: E731
    lines = [
        f"profile **{profile}**; settings run: {', '.join(settings_run(options))}; seeds {seeds}; "
        f"ensembles: {'yes' if options.get('ensemble') else 'no'}",
        (f"languages: {', '.join(d['languages'])} ({len(d['languages'])} of the setting; see conf/data)"
         if d.get("languages") else
         f"languages per setting: {first(d['max_languages'])} ({', '.join(map(str, n_lang))} decoded)"),
        f"training lines per language: {first(d['train_per_language'])}",
        f"model selection on dev: {first(d['val_per_language'])} "
        f"lines per language (greedy word accuracy), checked {validation_schedule(tr, t)}",
        f"reported accuracy on `{t['eval_split']}`: {first(d['eval_per_language'])} "
        f"lines per language, beam {t['beam']}",
        f"model: {m['enc_layers']}-layer BiLSTM encoder / {m['dec_layers']}-layer LSTM decoder, emb {m['emb_size']}, "
        f"hidden {m['hidden_size']}, dropout {m['dropout']} (paper: 2/2 layers, 300/300, 0.3)",
        f"training: Adam lr {t['lr']}, batch {t['batch_size']} (batches drawn from length-sorted pools), "
        f"max_epochs {tr['max_epochs']}, max_steps {tr['max_steps']}; {halving_rule(t)}",
    ]
    if profile == "cpu":                  # the rule from the paper's protocol to the cpu miniature
        lines.append(scaling_rule(recs))
    epochs = [float(r["metrics"]["train_samples"]) / int(r["extra"]["n_train"])
              for r in recs if r["metrics"].get("train_samples") and r.get("extra", {}).get("n_train")]
    if epochs:
        lines.append(f"epochs actually trained: {min(epochs):.2f}–{max(epochs):.2f} "
                     f"(paper: until dev accuracy stops improving)")
    return lines


def scaling_rule(recs: list[dict]) -> str:
    """How the profile's protocol follows from the paper's: the cadence is kept in epochs, and the
    updates between two validations it implies are read from the records."""
    c = recs[0]["config"]
    every = int(c["trainer"].get("check_val_every_n_epoch") or 1)
    n_train = [int(r["extra"]["n_train"]) for r in recs if r.get("extra", {}).get("n_train")]
    per_epoch = f"{n_train[0] / int(c['task']['batch_size']) * every:,.0f} updates" if n_train else "–"
    return ("scaling rule: fewer languages, lines and units than the paper; the protocol is the paper's in epochs: "
            f"validation (with the paper's lr-halving test) every {every} epoch{'s' if every > 1 else ''} "
            f"(here {per_epoch} between validations; the paper's 10 epochs of its whole medium set at batch 64 are "
            "about 20 times as many updates, which the cpu budget cannot hold), early stopping after "
            f"{c['task'].get('early_stopping_patience')} validations without a gain (the paper gives no patience), "
            "the epoch cap only a guard; the cadence was chosen by the diagnosis in "
            "`reports/peters2019/diagnosis/cadence.md`")


def halving_rule(t: Mapping[str, Any]) -> str:
    """The learning-rate rule of the task config (``task.lr_rule``; older records have none: "best")."""
    if t.get("lr_rule", "best") == "previous":
        return ("learning rate halved after every validation whose loss is higher than at the previous validation "
                "(the paper's rule)")
    return "learning rate halved after every validation whose loss is not the best so far"


def validation_schedule(tr: Mapping[str, Any], t: Mapping[str, Any]) -> str:
    """When validation runs and when it stops training, from the trainer and task configs."""
    vci = tr.get("val_check_interval") or t.get("val_check_interval")
    every = int(tr.get("check_val_every_n_epoch") or 1)
    when = f"every {vci} batches" if vci else ("every epoch" if every == 1 else f"every {every} epochs")
    patience = t.get("early_stopping_patience")
    delta = float(t.get("early_stopping_min_delta") or 0.0)
    by = f" by more than {delta:g} points" if delta else ""
    start = float(t.get("early_stopping_start") or 0.0)
    unit = "point" if start == 1 else "points"
    counted = (f", counted once dev accuracy is more than {start:g} {unit} above its first validation"
               if start and patience is not None else "")
    stop = (f"; training stops when it has not improved{by} for {patience} validations (early stopping{counted})"
            if patience is not None else "; no early stopping")
    return when + stop


def header(title: str, profile: str, options: Mapping[str, Any], recs) -> str:
    lines = [f"# {title}", "", f"Peters, Niculae & Martins (2019), CoNLL–SIGMORPHON 2018 task 1. Profile: **{profile}**.", ""]
    lines += ["Reductions / settings of this profile (from the run configs):", ""]
    lines += [f"- {x}" for x in reductions(profile, options, recs)]
    return "\n".join(lines) + "\n\n"


# ---------------------------------------------------------------- Table 1: compute
def table1_header() -> list[str]:
    hdr = ["output α", "attention α"]
    for s in SETTINGS:
        for kind in KINDS:
            hdr += [f"{s} {kind} (ours)", f"{s} {kind} (paper)", "Δ"]
    return hdr


def accuracy_cells(rs: Sequence[dict], ref_value: float | None, run_here: bool) -> list[Any]:
    """(ours, paper, Δ) for one configuration and column; ours = mean over the records' ``acc``."""
    if not run_here:
        return [NOT_RUN, ref_value, NONE]
    ours = seed_mean(rs, "acc")
    if ours is None:
        return [MISSING, ref_value, NONE]
    return [ours, ref_value, delta(ours, ref_value)]


def grid_rows(train, ens, cell) -> list[list[Any]]:
    """One row per (output α, attention α): the α's, then ``cell(records, setting, kind, key)`` for every
    setting × kind column (kind avg: the seeds' training runs; ens: their ensembles)."""
    groups = {"avg": {s: by_config(train[s]) for s in SETTINGS}, "ens": {s: by_config(ens[s]) for s in SETTINGS}}
    rows = []
    for a in ALPHAS:
        for b in ALPHAS:
            row = [a, b]
            for s in SETTINGS:
                for kind in KINDS:
                    row += cell(groups[kind][s].get((a, b), []), s, kind, (a, b))
            rows.append(row)
    return rows


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


# ---------------------------------------------------------------- Table 1: format
TABLE1_INTRO = (
    "Accuracy is exact-match word accuracy per language, macro-averaged over languages (as in the paper). "
    "\"avg\" = mean over the seeds' runs; \"ens\" = one decode with the seeds' models' per-step "
    "probabilities averaged. Paper columns are the published values (papers.yaml, reference only); "
    "Δ = ours − paper. Ours are computed on a reduced setup where the header says so, so Δ is not a "
    "like-for-like comparison outside the paper profile.\n\n")


def table1_context(ref: Mapping[str, Any]) -> str:
    uzh = ref.get("table1_sigmorphon2018", {}).get("shared_task_best_uzh")
    base = ref.get("sigmorphon2018_official_baseline_dev", {}).get("values")
    if not (uzh or base):
        return ""
    text = "\nContext (paper / shared task, reference only): "
    if uzh:
        text += f"best shared-task system (UZH) ens: high {uzh.get('high_ens')}, medium {uzh.get('medium_ens')}. "
    if base:
        text += f"official non-neural baseline, dev: medium {base.get('medium')}, high {base.get('high')}."
    return text + "\n"


def baseline_rows(baseline, train, options: Mapping[str, Any], ref: Mapping[str, Any] | None = None
                  ) -> list[list[Any]]:
    """Per setting run: the non-neural baseline's eval and dev accuracy, the organisers' own run of it on dev over
    all the setting's languages (papers.yaml), beside softmax/softmax and the worst of our neural configurations
    (mean over seeds), and whether both decoded the same languages and split."""
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
    """(languages, rows) for one setting: per cell the seeds' mean accuracy on each language and the macro average
    (as Table 1), then each ensemble, then the non-neural baseline."""
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
    text = ""
    for s in settings_run(options):
        langs, rows = language_table_rows(train, ens, baseline, s)
        if not rows:
            continue
        text += (f"\n## Per language, {s} setting (word accuracy %, ours)\n\n\"avg\": the mean of the seeds listed; "
                 "\"ens\": their ensemble; the last column is the macro average of Table 1 (`per_language.csv` has "
                 "every run, and `predictions/` its output).\n\n")
        text += md_table(["output α", "attention α", "kind", "seeds", *langs, "macro"], rows)
    return text


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
    return (f"{stopped} of {len(runs)} runs stopped because dev accuracy stopped improving; "
            f"{len(runs) - stopped} stopped at the step/epoch cap.")


def table1_text(profile: str, options: Mapping[str, Any], train, ens, ref: Mapping[str, Any],
                baseline: Mapping[str, list[dict]] | None = None) -> str:
    text = header("Table 1 — word accuracy (%) by output α × attention α", profile, options, trained(train))
    text += TABLE1_INTRO
    text += md_table(table1_header(), table1_rows(train, ens, options, ref))
    if baseline is not None and settings_run(options):
        text += ("\n## The shared task's non-neural baseline on the same languages and split\n\n"
                 "The organisers' prefix/suffix edit-rule system (CoNLL–SIGMORPHON 2018 task 1 baseline), "
                 "reimplemented in `sparselab.baselines.affix_rules` and run by `peters2019/baseline_<setting>` "
                 "on the languages of the neural runs: one model per language from its training file; accuracy "
                 "macro-averaged over languages. A multilingual neural model should be well above it.\n\n")
        text += md_table(["setting", "baseline, eval split", "baseline, dev",
                          "organisers' baseline.py, dev, all languages of the setting (papers.yaml)",
                          "ours: softmax/softmax", "ours: worst configuration", "same languages and split"],
                         baseline_rows(baseline, train, options, ref))
    text += "\n## Mean edit distance (macro over languages), ours\n\n"
    text += md_table(["output α", "attention α"] + [f"{s} {k}" for s in SETTINGS for k in KINDS],
                     edit_distance_rows(train, ens, options))
    text += language_table_text(train, ens, baseline, options)
    conv = convergence_rows(train, options)
    if conv:
        text += "\n## Convergence of each run\n\n" + convergence_summary(train, options) + "\n\n"
        text += md_table(["setting", "output α", "attention α", "seed", "validations", "epochs trained",
                          "best epoch", "best dev accuracy", "lr halvings", "last lr", "stopped by"], conv)
    return text + table1_context(ref)


# ---------------------------------------------------------------- sparsity: compute
def best_rows(train, options: Mapping[str, Any], ref: Mapping[str, Any]) -> list[list[Any]]:
    """Per setting: the configuration best on dev, its dev and eval-split accuracy, and its single-sequence /
    exact-beam shares on dev (``val_*_share``, where the paper measured them) beside the paper's."""
    sp_ref = ref.get("sparsity_inflection", {})
    single_ref = sp_ref.get("best_config_single_sequence_share", {})
    exact_ref = sp_ref.get("beam_exact_share", {})
    rows = []
    for s in SETTINGS:
        if s not in settings_run(options):
            rows.append([s, NOT_RUN, "", "", "", single_ref.get(s), "", exact_ref.get(s)])
            continue
        g = by_config(train[s])
        if not g:
            rows.append([s, MISSING, "", "", "", single_ref.get(s), "", exact_ref.get(s)])
            continue
        k = best_key(g)
        rows.append([s, f"output α {k[0]}, attention α {k[1]}", seed_mean(g[k], "val_acc_best"),
                     seed_mean(g[k], "acc"), dev_share(g[k], "single"), single_ref.get(s),
                     dev_share(g[k], "exact"), exact_ref.get(s)])
    return rows


def dev_share(rs: Sequence[dict], kind: str) -> Any:
    """Mean ``val_<kind>_share`` (beam decode of the validation split) over the runs; runs recorded before the task
    measured it on dev read "not recorded" (their eval-split share is not shown in its place)."""
    v = seed_mean(rs, f"val_{kind}_share")
    return NOT_RECORDED if v is None else v


def sparsity_grid_rows(g: Mapping[Config, list[dict]]) -> list[list[Any]]:
    return [[k[0], k[1], seed_mean(g[k], "attn_support"), seed_mean(g[k], "out_support"),
             dev_share(g[k], "single"), dev_share(g[k], "exact"), seed_mean(g[k], "val_acc_best"),
             seed_mean(g[k], "acc")] for k in sorted(g)]


# ---------------------------------------------------------------- sparsity: format
SPARSITY_INTRO = (
    "Shares are over the decoded dev inputs (all languages pooled), as in the paper: the validation split is "
    "beam-decoded for them, and the configuration is the one best on dev (greedy dev word accuracy of the kept "
    "state); the eval-split accuracy stays beside it for reference. *Single sequence*: the model puts all its "
    "probability on one output. *Exact beam*: the finished hypotheses of beam search (size 5, zero-probability "
    "continuations pruned) hold probability 1 (within 1e-6), so the beam contains every output of nonzero "
    "probability. Training speed is not taken from these runs (jobs share the machine, which distorts their "
    "ratios); the side-by-side benchmark `figure6_speed.md` (`make bench-mt-speed`) measures it.\n\n")


def grid_text(s: str, g: Mapping[Config, list[dict]]) -> str:
    text = f"\n## Grid, {s} setting (mean over seeds)\n\n"
    text += ("Teacher-forced validation data: *attended positions* = nonzero attention weights per target step; "
             "*support* = output symbols with nonzero probability per target step "
             f"(target vocabulary size: {g[sorted(g)[0]][0]['extra'].get('target_vocab_size', '?')}).\n\n")
    text += md_table(["output α", "attention α", "attended positions", "output support",
                      "single-sequence share (dev)", "exact-beam share (dev)", "dev accuracy", "accuracy (eval split)"],
                     sparsity_grid_rows(g))
    return text


def sparsity_text(profile: str, options: Mapping[str, Any], train, ref: Mapping[str, Any]) -> str:
    text = header("Sparsity and exactness of beam search", profile, options, trained(train))
    text += SPARSITY_INTRO
    text += md_table(["setting", "best configuration on dev (ours)", "dev accuracy", "accuracy (eval split)",
                      "single-sequence share, dev (ours)", "(paper)", "exact-beam share, dev (ours)", "(paper)"],
                     best_rows(train, options, ref))
    for s in settings_run(options):
        g = by_config(train[s])
        if g:
            text += grid_text(s, g)
    return text


# ---------------------------------------------------------------- examples
EXAMPLE_CONFIGS = [(1.0, 1.0), (1.5, 1.5), (2.0, 2.0)]


def example_rows(rec: dict) -> list[list[Any]]:
    rows = []
    for ex in rec["extra"].get("examples", []):
        outs = "; ".join(f"{o['form']!r} {o['prob']:.4g}" for o in ex["outputs"]) or "(none finished)"
        rows.append([ex["lang"], ex["lemma"], ex["tags"], ex["gold"], outs, "yes" if ex["exact"] else "no", ex["mass"]])
    return rows


def example_runs(options: Mapping[str, Any], train) -> list[tuple[str, Config, dict]]:
    """(setting, configuration, run) for each of :data:`EXAMPLE_CONFIGS` run: its lowest seed, the run shown."""
    out = []
    for s in settings_run(options):
        g = by_config(train[s])
        out += [(s, k, g[k][0]) for k in EXAMPLE_CONFIGS if k in g]
    return out


def examples_text(profile: str, options: Mapping[str, Any], train) -> str:
    text = header("Examples — every output with nonzero probability (cf. the paper's Figure 1)", profile, options,
                  trained(train))
    text += ("For the first validation (dev) input of a few languages, all finished beam hypotheses with their "
             "probabilities (beam 5). When *exact* is yes, these are all outputs with nonzero probability.\n")
    for s, k, r in example_runs(options, train):
        text += f"\n## {s} setting, output α {k[0]}, attention α {k[1]} (seed {r['config']['seed']})\n\n"
        text += md_table(["language", "lemma", "tags", "gold", "outputs (probability)", "exact", "mass"],
                         example_rows(r))
    return text


# ---------------------------------------------------------------- per-language CSV
CSV_HEADER = ["setting", "kind", "output_alpha", "attention_alpha", "seed", "language", "accuracy",
              "edit_distance", "n", "exact_share", "single_share"]


def per_language_rows(train, ens, baseline=None) -> list[list[Any]]:
    """Every run's accuracy and edit distance per language: the training runs, their ensembles, then the non-neural
    baseline (kind ``baseline``: no α's, no seed, no beam shares)."""
    rows = []
    for kind, src in (("single", train), ("ensemble", ens)):
        for s in SETTINGS:
            for r in sorted(src[s], key=lambda r: (key(r), int(r["config"]["seed"]))):
                a, b = key(r)
                seed = r["config"]["seed"] if kind == "single" else "+".join(
                    str(m["seed"]) for m in r["extra"].get("members", []))
                for lang, v in sorted(r["extra"].get("per_language", {}).items()):
                    rows.append([s, kind, a, b, seed, lang, f"{v['accuracy']:.2f}", f"{v['edit_distance']:.4f}",
                                 v["n"], f"{v['exact_share']:.4f}", f"{v['single_share']:.4f}"])
    for s in SETTINGS:
        for r in (baseline or {}).get(s, []):
            for lang, v in sorted(r["extra"].get("per_language", {}).items()):
                rows.append([s, "baseline", "", "", "", lang, f"{v['accuracy']:.2f}", f"{v['edit_distance']:.4f}",
                             v["n"], "", ""])
    return rows


def write_per_language_csv(path: Path, train, ens, baseline=None) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(CSV_HEADER)
        w.writerows(per_language_rows(train, ens, baseline))
    return Path(path)


# ---------------------------------------------------------------- figures
def plot_accuracy_by_alpha(path: Path, profile: str, options: Mapping[str, Any], train) -> Path:
    plt = plots.pyplot()
    settings = settings_run(options)
    fig, axes = plt.subplots(1, len(settings), figsize=(5 * len(settings), 4), squeeze=False)
    for ax, s in zip(axes[0], settings):
        g = by_config(train[s])
        for a in ALPHAS:
            xs = [b for b in ALPHAS if (a, b) in g]
            ax.plot(xs, [seed_mean(g[(a, b)], "acc") for b in xs], marker="o", label=f"output α={a}")
        ax.set_xlabel("attention α")
        ax.set_ylabel("word accuracy (%)")
        ax.set_title(f"{s} setting ({profile})")
        ax.set_xticks(list(ALPHAS))
        ax.legend()
    fig.tight_layout()
    return plots.save(fig, path, dpi=100)


def support_histogram(g: Mapping[Config, list[dict]], a: float) -> dict[int, int]:
    """Output support size -> target steps, pooled over attention α and seeds, for output α ``a``."""
    hist = defaultdict(int)
    for b in ALPHAS:
        for r in g.get((a, b), []):
            for size, n in r["extra"].get("support_histogram", {}).items():
                hist[int(size)] += int(n)
    return dict(hist)


def plot_support_histogram(path: Path, profile: str, options: Mapping[str, Any], train) -> Path:
    plt = plots.pyplot()
    fig, ax = plt.subplots(figsize=(6, 4))
    s = settings_run(options)[-1]
    g = by_config(train[s])
    for a in ALPHAS:
        hist = support_histogram(g, a)
        if not hist:
            continue
        tot = sum(hist.values())
        xs = sorted(hist)
        ax.step(xs, [hist[x] / tot for x in xs], where="mid", label=f"output α={a}")
    ax.set_xscale("log")
    ax.set_xlabel("output support size (symbols with nonzero probability)")
    ax.set_ylabel("share of target steps")
    ax.set_title(f"support size, {s} setting, all attention α ({profile})")
    ax.legend()
    fig.tight_layout()
    return plots.save(fig, path, dpi=100)


def plot_learning_curves(path: Path, profile: str, options: Mapping[str, Any], train) -> Path:
    """Dev accuracy at every validation against epoch: colour = output α, line style = attention α."""
    plt = plots.pyplot()
    settings = settings_run(options)
    fig, axes = plt.subplots(1, len(settings), figsize=(6 * len(settings), 4.5), squeeze=False)
    colours = dict(zip(ALPHAS, ("tab:blue", "tab:orange", "tab:green")))
    styles = dict(zip(ALPHAS, ("-", "--", ":")))
    for ax, s in zip(axes[0], settings):
        for r in sorted(train[s], key=lambda r: (key(r), int(r["config"]["seed"]))):
            a, b = key(r)
            hist = r["extra"].get("history", [])
            xs = [h["epoch"] + 1 for h in hist]
            ys = [h.get("val_acc") for h in hist]
            ax.plot(xs, ys, color=colours.get(a), linestyle=styles.get(b, "-"), marker=".",
                    label=f"out α={a}, attn α={b}, seed {r['config']['seed']}")
        ax.set_xlabel("epoch")
        ax.set_ylabel("dev word accuracy (%), greedy")
        ax.set_title(f"learning curves, {s} setting ({profile})")
        ax.legend(fontsize=7)
    fig.tight_layout()
    return plots.save(fig, path, dpi=100)


# ---------------------------------------------------------------- all reports
def write_reports(profile: str, out: Path, options: Mapping[str, Any], runs=None,
                  ref: Mapping[str, Any] | None = None) -> list[dict]:
    """Every report file of the paper in ``out``; returns the records behind them.

    ``options["only"]`` (the pipeline's ``--only``) naming just the MT experiment rewrites the MT reports only: the
    inflection files in ``out`` (and their ``runs.jsonl``) are left as an earlier run of the pipeline wrote them, so
    the translation part can be run and reported on a machine that does not hold the inflection run records."""
    runs = runs_root() if runs is None else runs
    ref = reference(PAPER) if ref is None else ref
    out = Path(out)
    mt_only = bool(options.get("mt")) and list(options.get("only") or []) == [mt.EXPERIMENT]
    train, ens, baseline, mt_recs, live = gather(runs, profile, options, out)
    recs = [r for s in SETTINGS for r in train[s] + ens[s] + (baseline or {}).get(s, [])]
    if mt_only:
        note = ("report files from an earlier run of the pipeline, unchanged by this one (`--only "
                f"{mt.EXPERIMENT}`); the configs, hashes and metrics of their runs are in `runs.jsonl`")
    else:
        write_inflection(profile, out, options, runs, ref, train, ens, baseline, recs)
        note = "; ".join(reductions(profile, options, trained(train)))
    items, title = INFLECTION_ARTIFACTS, "inflection"
    if options.get("mt"):             # the plan runs the MT experiments too
        mt_recs = mt.write_reports(profile, out, options, runs, ref, mt_recs, live)
        items, title = ARTIFACTS, "inflection and machine translation"
        note = f"Inflection: {note}\n\n{mt.notes(profile, options, mt_recs)}"
    if not mt_only:                   # the claims need the inflection records too
        groups = {s: by_config(train[s]) for s in settings_run(options)}
        ensembles = {s: by_config(ens[s]) for s in settings_run(options)} if options.get("ensemble") else None
        found = claims.claims(out, groups, mt_recs if options.get("mt") else None, ref, ensembles)
        (out / "claims.md").write_text(claims.claims_text(profile, found))
    else:
        found = ()
    write_index(out, f"Peters, Niculae & Martins (2019) — {title}, profile {profile}", items, recs + mt_recs,
                notes=note, runs=runs, profile=profile, claims=found)
    return recs + mt_recs


def gather(runs, profile: str, options: Mapping[str, Any], out: Path) -> tuple:
    """(training, ensemble, baseline records per setting (None: no baseline in the plan), MT records, live): from the
    runs folder; with none of the paper's there (a clone), from the records committed in ``out`` (``live`` False)."""
    def records(stored=None):
        train, ens = collect(runs, profile, stored)
        baseline = collect_baseline(runs, profile, stored) if options.get("baseline") else None
        mt_recs = mt.collect(runs, profile, stored) if options.get("mt") else []
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
    """The inflection report files: Table 1, sparsity, examples, per-language CSV, figures, runs.jsonl and its
    extras."""
    (out / "table1.md").write_text(table1_text(profile, options, train, ens, ref, baseline))
    (out / "sparsity.md").write_text(sparsity_text(profile, options, train, ref))
    (out / "examples.md").write_text(examples_text(profile, options, train))
    write_per_language_csv(out / "per_language.csv", train, ens, baseline)
    kinds = (("single", train), ("ensemble", ens), ("baseline", baseline or {}))
    predictions.write(out, [(kind, r) for kind, src in kinds for s in SETTINGS for r in src.get(s, [])], key, setting_of)
    if settings_run(options):
        plot_accuracy_by_alpha(out / "accuracy_by_alpha.png", profile, options, train)
        plot_support_histogram(out / "support_histogram.png", profile, options, train)
        plot_learning_curves(out / "learning_curves.png", profile, options, train)
    write_configs(out, recs, runs, name=CONFIGS)
    write_extras(out, CONFIGS, recs, runs, shown=[r for _, _, r in example_runs(options, train)])


# ---------------------------------------------------------------- numbers behind the tables
TABLE_METRICS = ("acc", "edit_distance", "exact_share", "single_share", "attn_support", "out_support",
                 "train_samples", "members_mean_acc")
LANGUAGE_METRICS = ("accuracy", "edit_distance", "n", "exact_share", "single_share")


def numbers(runs, profile: str) -> dict[str, dict[str, float]]:
    """Per run (setting, α, attention α, seed; or the ensemble): the metrics Table 1 and the sparsity
    report read, and per language the values of per_language.csv. Timings are left out."""
    train, ens = collect(runs, profile)
    out = {}
    for kind, src in (("table1", train), ("ensemble", ens)):
        for s in SETTINGS:
            for r in src[s]:
                a, b = key(r)
                row = f"{kind}_{s}/alpha={a},attn_alpha={b}" + (f",seed={r['config']['seed']}" if kind == "table1" else "")
                out[row] = pick(r["metrics"], TABLE_METRICS)
                for lang, v in sorted(r["extra"].get("per_language", {}).items()):
                    out[f"{row}/{lang}"] = pick(v, LANGUAGE_METRICS)
    return out
