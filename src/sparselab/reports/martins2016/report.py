"""Reports of Martins & Astudillo (2016), "From Softmax to Sparsemax": Table 2 and Figure 3.

* Table 2  – micro-F1 and macro-F1 of linear multi-label classifiers trained with the logistic,
             softmax and sparsemax losses on scene, emotions, birds, CAL500 (+ Reuters RCV1-v2, not
             available here) and, as extra rows, yeast, enron, medical, bibtex, tmc2007-500;
* Figure 3 – mean squared error and Jensen-Shannon divergence of label proportions predicted with
             the softmax and sparsemax losses on synthetic documents, against the average document
             length, for K in {10, 50} labels and uniform / random mixtures;
* Table 3, Table 4 – SNLI with no / logistic / soft / sparse attention (and 1.5-entmax, learned α):
             accuracy, attention examples and heatmaps (built by :mod:`.snli`).

Each report is built in four steps: load the records, compute the cells, format the text, write the
file. Every number comes from a run record of the sweeps ``martins2016/table2_multilabel``,
``martins2016/figure3_label_proportions`` and ``martins2016/table3_snli``.
"""
from __future__ import annotations

import json
import os
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from sparselab import plots
from . import claims
from ..claims import Claim, render, table
from . import snli
from . import table2_records as t2rec
from ..profile_diff import profile_lines
from ..index import write_configs, write_index
from ..numbers import pick
from ..records import load, once_per_job
from ..reference import reference
from ..tables import NONE, best_keys, bold, md_table, pct

PAPER = "martins2016"
LOSSES = ("logistic", "softmax", "sparsemax")
FIG_LOSSES = ("softmax", "sparsemax")
PAPER_SETS = ("scene", "emotions", "birds", "cal500", "reuters_rcv1v2")
EXTRA_SETS = ("yeast", "enron", "medical", "bibtex", "tmc2007-500")
UNAVAILABLE = "reuters_rcv1v2"
T2 = f"{PAPER}/table2_multilabel"
F3 = f"{PAPER}/figure3_label_proportions"

SNLI_RUNS = "runs_snli.jsonl"
CLAIMS_OLD = "## The paper's claims, checked on these runs\n"     # the section an older report (before the claims kit) ends with
CLAIMS_HEAD = ["## The paper's claims, checked on these runs (rows of `claims.md`)", ""]
ARTIFACTS = [
    ("Claims", "claims.md", "every claim of the paper: the test, our estimate with its interval, the verdict"),
    ("Table 2 (multi-label)", "table2_multilabel.md",
     "micro-F1 / macro-F1 ± test-set bootstrap std per dataset x loss (best beyond the noise in bold), job time per "
     "dataset, mean per-label F1, chosen hyper-parameters, paper summary, claims"),
    ("Figure 3 (label proportions)", "figure3_label_proportions.png",
     "MSE and JS divergence vs average document length, {uniform, random} x {K=10, K=50}, error bars over seeds"),
    ("Figure 3 table", "figure3_label_proportions.md", "the numbers behind Figure 3 (mean ± std over seeds) and the crossover"),
    *snli.ARTIFACTS,
    ("Run configs", "runs.jsonl", "config, hash and metrics of every run used"),
    ("Table 2 run configs", t2rec.CONFIGS, "config, hash and metrics of every Table 2 run"),
    ("Table 2 run extras", t2rec.EXTRAS, "the rest of each Table 2 record (bootstrap replicates, per-split choices, "
                                         "times): --report-only rebuilds Table 2 from these two files"),
]


def profile_header(profile: str, recs: list[dict], title: str) -> list[str]:
    return [f"# {title}", "", f"Profile: **{profile}**. Runs: {len(recs)}. Every number below is read from the "
            "run records (run.json) of this profile.", ""]


def reuters_status(root: str | os.PathLike | None = None) -> str:
    """Why the paper's Reuters set has no row (the sweep does not run it), with the data root named ``<data root>``:
    where it was looked for and the registry's note. No fetch command is named: the registry has no files for it,
    so ``fetch`` refuses it."""
    from sparselab.data import mulan, registry
    from sparselab.errors import MissingDataError
    from sparselab.locations import data_root

    root = data_root() if root is None else Path(root)
    try:
        mulan.load(UNAVAILABLE, root)
    except MissingDataError:
        return (f"dataset '{UNAVAILABLE}' not found: expected <data root>/{mulan.UNAVAILABLE[UNAVAILABLE]}; "
                f"{registry.DATASETS[UNAVAILABLE]['note']}")
    return "available (unexpected)"


def paper_summary(ref: Mapping[str, Any], *keys: tuple[str, str]) -> list[str]:
    """The quoted lines of a reference entry: ``(label, key)`` per line, stripped."""
    return [f"- {label}: {str(ref.get(k, '')).strip()}" for label, k in keys]


# ================================================================ Table 2
# ---------------------------------------------------------------- load
def load_table2(runs, profile: str, out: Path | None = None) -> tuple[list[dict], dict[tuple[str, str], dict]]:
    """The finished Table 2 records (without any under ``runs``: those committed in ``out``), and the same keyed by
    (dataset, loss)."""
    recs = load(runs, profile, T2)
    if not recs and out is not None:
        recs = once_per_job(t2rec.committed(out, runs))
    return recs, {(r["config"]["data"]["name"], r["config"]["task"]["loss"]): r for r in recs}


COMMITS_PART = True     # committed() holds Table 2's records only: a clone's --report-only rebuilds that part


def committed(out: Path, runs) -> list[dict]:
    """The records a clone without run directories can rebuild from: Table 2's (see the runner)."""
    return t2rec.committed(out, runs)


# ---------------------------------------------------------------- compute
def table2_datasets(by: Mapping[tuple[str, str], dict]) -> list[str]:
    """Rows in the paper's order, then the extras; Reuters always first (as 'not available')."""
    datasets = [d for d in PAPER_SETS + EXTRA_SETS if d == UNAVAILABLE or any((d, l) in by for l in LOSSES)]
    if UNAVAILABLE not in datasets:
        datasets.insert(0, UNAVAILABLE)
    return datasets


@dataclass
class Protocol:
    """The protocol actually run, read from the records."""

    grids: set = field(default_factory=set)
    folds: set = field(default_factory=set)
    notes: dict = field(default_factory=dict)       # dataset -> split note (several outer splits, e.g. CAL500)
    removed: dict = field(default_factory=dict)     # dataset -> {file: (examples without labels removed, read)}
    reductions: list = field(default_factory=list)
    cv_objective: Any = "?"
    max_iter: Any = "?"


def table2_protocol(by: Mapping[tuple[str, str], dict]) -> Protocol:
    p = Protocol()
    red_sets = defaultdict(list)
    for (d, l), r in sorted(by.items()):
        ex = r.get("extra", {})
        p.grids.add(tuple(ex.get("l2_grid", [])))
        p.folds.add(ex.get("cv_folds"))
        for x in ex.get("reductions", []):
            what = x.split(": ", 1)[1] if x.startswith(f"{d}: ") else x
            red_sets[what].append(d)
        if len(ex.get("per_split", [])) > 1:
            p.notes[d] = ex["split"]
        if "unlabelled_removed" in ex:
            p.removed[d] = {f: (n, ex.get("examples_read", {}).get(f)) for f, n in ex["unlabelled_removed"].items()}
        else:
            p.removed.setdefault(d, None)
    order = {d: i for i, d in enumerate(PAPER_SETS + EXTRA_SETS)}
    p.reductions = [f"{what} ({', '.join(sorted(set(ds), key=order.get))})" for what, ds in sorted(red_sets.items())]
    any_rec = next(iter(by.values()), None)
    if any_rec:
        p.cv_objective = any_rec["extra"].get("cv_objective")
        p.max_iter = any_rec["extra"].get("max_iter")
    return p


@dataclass
class F1Cells:
    """The main table's rows and the best-cell counts (ties count for each tied loss)."""

    rows: list
    wins: dict
    wins_paper: dict
    cells_all: int
    cells_paper: int


def f1_cell(by, d: str, loss: str, metric: str, vals: Mapping[str, float], best: set, with_std: bool) -> str:
    """One score cell: percent ``± the test-set bootstrap std`` (records without replicates: ``± std`` over outer
    splits where there are several), bold if best."""
    if loss not in vals:
        return NONE
    s = pct(vals[loss])
    reps = t2rec.replicates(by[(d, loss)], metric)
    if reps is not None:
        s += f" ± {np.std(reps, ddof=1):.2f}"
    elif with_std and f"{metric}_std" in by[(d, loss)]["metrics"]:
        s += f" ± {pct(by[(d, loss)]['metrics'][f'{metric}_std'])}"
    return bold(s) if loss in best else s


def table2_f1_cells(by, datasets: list[str], notes: Mapping[str, str]) -> F1Cells:
    rows, wins, wins_paper = [], defaultdict(int), defaultdict(int)
    cells_all = cells_paper = 0
    for d in datasets:
        if d == UNAVAILABLE:
            rows.append([f"{d} (dataset of the paper)"] + ["data not available here"] + [""] * (2 * len(LOSSES) - 1))
            continue
        row = [d + (" (dataset of the paper)" if d in PAPER_SETS else " (extra dataset)")]
        noise = t2rec.cells(by, d, LOSSES)    # [] unless every loss ran: then the best are those no loss beats
        for i, metric in enumerate(("micro_f1", "macro_f1")):
            vals = {l: by[(d, l)]["metrics"][metric] for l in LOSSES if (d, l) in by}
            best = set(noise[i].winners) if noise else best_keys(vals)
            if vals and len(vals) == len(LOSSES):
                cells_all += 1
                cells_paper += d in PAPER_SETS
                for l in best:
                    wins[l] += 1
                    if d in PAPER_SETS:
                        wins_paper[l] += 1
            row += [f1_cell(by, d, l, metric, vals, best, d in notes) for l in LOSSES]
        rows.append(row)
    return F1Cells(rows, wins, wins_paper, cells_all, cells_paper)


def table2_label_f1_rows(by, datasets: list[str]) -> list[list[str]]:
    rows = []
    for d in datasets:
        if d == UNAVAILABLE:
            continue
        vals = {l: by[(d, l)]["metrics"]["label_f1"] for l in LOSSES if (d, l) in by}
        best = best_keys(vals)
        rows.append([d] + [NONE if l not in vals else (bold(pct(vals[l])) if l in best else pct(vals[l]))
                           for l in LOSSES])
    return rows


def table2_hyper_rows(by, datasets: list[str]) -> list[list[str]]:
    rows = []
    for d in datasets:
        for l in LOSSES:
            if (d, l) not in by:
                continue
            r = by[(d, l)]
            ex = r["extra"]
            ps = ex.get("per_split", [])
            l2 = "/".join(f"{p['l2']:g}" for p in ps)
            thr = "/".join(f"{ex['threshold_name']}={p['threshold']:.3g}" for p in ps)
            rows.append([d, l, l2, thr, f"{r['metrics']['cv_objective']:.4f}",
                         str(sum(p["lbfgs_iterations"] for p in ps))])
    return rows


# ---------------------------------------------------------------- format
def table2_protocol_lines(p: Protocol) -> list[str]:
    lines = ["## Protocol (as run)", "",
             f"- Linear models, standardised features (train statistics), scipy L-BFGS-B up to {p.max_iter} iterations, "
             "objective = mean loss + L2/2·‖W‖², L2 path warm-started from the strongest penalty.",
             f"- L2 grid(s): {', '.join(str(list(g)) for g in sorted(p.grids))}; CV folds: "
             f"{', '.join(str(f) for f in sorted(x for x in p.folds if x is not None))}.",
             "- Thresholds tuned on the pooled out-of-fold CV predictions without retraining: logistic δ ∈ {0.05..0.5}, "
             "softmax p0 ∈ {1/K..10/K}, sparsemax t ∈ {0.5..5} (support of sparsemax(t·z)).",
             f"- (L2, threshold) chosen jointly by the CV objective `{p.cv_objective}` "
             "(micro_macro_mean = (micro-F1 + macro-F1)/2).",
             "- macro-F1 = harmonic mean of macro-averaged precision and macro-averaged recall (authors' code); "
             "label-F1 = mean of per-label F1; 0/0 counts as 0.",
             "- Examples without labels are removed from train and test before anything else, as in the paper "
             "(\"For all datasets, we removed examples without labels\"); no loss trains on them and no metric "
             "scores them. Removed per dataset and file (removed of read):"]
    lines += [f"  - {d}: {removed_text(p.removed[d])}" for d in sorted(p.removed, key=dataset_order)]
    for d, note in sorted(p.notes.items()):
        lines.append(f"- {d}: {note}.")
    lines.append("- Reductions in this profile (vs the paper's protocol): "
                 + ("; ".join(p.reductions) if p.reductions else "none") + ".")
    lines.append("")
    return lines


def dataset_order(d: str) -> int:
    order = PAPER_SETS + EXTRA_SETS
    return order.index(d) if d in order else len(order)


def removed_text(files: Mapping[str, tuple[int, int | None]] | None) -> str:
    if files is None:
        return "not recorded (a run from before the removal: it kept them)"
    order = {"train": 0, "test": 1}
    return "; ".join(f"{f} {n}" + (f" of {read}" if read is not None else "")
                     for f, (n, read) in sorted(files.items(), key=lambda kv: order.get(kv[0], 2)))


def table2_claims(by: Mapping[tuple[str, str], dict], ref: Mapping[str, Any] | None = None) -> list[Claim]:
    """The paper's claims on its datasets (``ref``: papers.yaml ``table2_multilabel``), then our weaker rule."""
    datasets = [d for d in PAPER_SETS if all((d, l) in by for l in LOSSES)]
    paper_cells = [c for d in datasets for c in t2rec.cells(by, d, LOSSES)]
    scope = f"{len(datasets)} paper datasets; Reuters missing"
    old = [{l: 100 * by[(d, l)]["metrics"][m] for l in LOSSES} for d in datasets for m in ("micro_f1", "macro_f1")]
    return [claims.similar_claim(paper_cells, scope), claims.advantage_claim(paper_cells, scope, ref),
            claims.labels_claim(len(datasets)), claims.weaker_claim(old, len(datasets))]


def minutes(seconds: float | None) -> str:
    return NONE if seconds is None else f"{seconds / 60:.1f}"


def table2_time_rows(by: Mapping[tuple[str, str], dict], datasets: list[str]) -> list[list[str]]:
    """Per dataset: the protocol as run and the measured job time of its runs (all losses together)."""
    rows = []
    for d in datasets:
        rs = [by[(d, l)] for l in LOSSES if (d, l) in by]
        if not rs:
            continue
        ex = rs[0]["extra"]
        walls = [r.get("wall_time_s") for r in rs]
        cpus = [r["extra"].get("job_cpu_time_s") for r in rs]
        reductions = sorted({x.split(": ", 1)[-1] for r in rs for x in r["extra"].get("reductions", [])})
        rows.append([d, str(len(ex.get("l2_grid", []))), str(ex.get("cv_folds")), str(len(ex.get("per_split", []))),
                     str(len(rs)), minutes(sum(walls) if None not in walls else None),
                     minutes(sum(cpus) if None not in cpus else None), "; ".join(reductions) or "none"])
    return rows


def table2_text(profile: str, recs: list[dict], proto: Protocol, f1: F1Cells, label_rows: list, hyper_rows: list,
                reuters_msg: str, ref: Mapping[str, Any], profile_diff: list[str] = (),
                claim_rows: Sequence[Claim] = (), time_rows: Sequence[list[str]] = ()) -> str:
    lines = profile_header(profile, recs, "Martins & Astudillo (2016), Table 2: multi-label classification")
    lines += list(profile_diff)
    lines += table2_protocol_lines(proto)
    if time_rows:
        lines += ["## Protocol and job time per dataset", "",
                  "Job time: the engine's wall time of each run and the task's CPU time, summed over the dataset's runs "
                  "(minutes; one job at a time, on a machine shared with other jobs: wall time > CPU time).", "",
                  md_table(["dataset", "L2 values", "CV folds", "outer splits", "runs", "job time (min)",
                            "CPU time (min)", "reduction"], time_rows)]
    header = ["dataset"] + [f"micro-F1 {l}" for l in LOSSES] + [f"macro-F1 {l}" for l in LOSSES]
    lines += ["## Ours: test micro-F1 and macro-F1 (%)", "",
              "Each score ± the standard deviation of its test-set bootstrap (the noise measure: "
              f"{noise_text(recs)}; CAL500: replicate-wise mean over its 5 outer test folds). Bold: best in the cell, i.e. "
              f"no other loss is better by more than {claims.SE_FACTOR:g} standard errors of the paired bootstrap "
              "difference (every loss draws the same resamples); a tie shares the cell.", "", md_table(header, f1.rows)]
    lines.append(f"Reuters RCV1-v2: {reuters_msg}")
    lines.append("")
    fmt_w = lambda w: ", ".join(f"{l} {w[l]}" for l in LOSSES)  # noqa: E731
    lines += [f"**Best-cell count** (best beyond the noise, ties count for each tied loss): on the paper's datasets available here: "
              f"{fmt_w(f1.wins_paper)} of {f1.cells_paper} (dataset, metric) cells; on all datasets: {fmt_w(f1.wins)} "
              f"of {f1.cells_all} cells. The paper's count is in its summary (Paper (reference), below); its cells "
              f"include Reuters, which is missing here.", ""]
    lines += ["## Ours: mean per-label F1 (%)", "", md_table(["dataset"] + [f"label-F1 {l}" for l in LOSSES],
                                                             label_rows)]
    lines += ["## Chosen hyper-parameters (CV on train)", "", "CAL500: one value per outer fold.", "",
              md_table(["dataset", "loss", "L2", "threshold", "CV objective", "L-BFGS iterations"], hyper_rows)]
    lines += ["## Paper (reference)", "",
              "The paper's numeric Table 2 values are not available to this project (papers.yaml: "
              "`not_recovered: table2_values`); only its qualitative summary is quoted here.", ""]
    if ref:
        lines += paper_summary(ref, ("Reported summary", "reported_summary"), ("Protocol", "protocol"))
        lines += [f"- Datasets: {', '.join(ref.get('datasets', []))}; systems: {', '.join(ref.get('systems', []))}.",
                  f"- Metric: {ref.get('metric', '')}.", ""]
    if claim_rows:
        lines += CLAIMS_HEAD + [table(claim_rows)]
    return "\n".join(lines).rstrip() + "\n"


def noise_text(recs: Sequence[dict]) -> str:
    """How the records' bootstrap was drawn, e.g. ``500 resamples of the test examples``."""
    sizes = sorted({p["bootstrap"]["samples"] for r in recs for p in r.get("extra", {}).get("per_split", [])
                    if p.get("bootstrap")})
    if not sizes:
        return "not in these records, so every difference counts"
    return f"{'/'.join(str(n) for n in sizes)} resamples with replacement of the test examples"


# ---------------------------------------------------------------- write
def write_table2(profile: str, out: Path, runs, ref: Mapping[str, Any] | None = None,
                 reuters_msg: str | None = None) -> tuple[list[dict], list[str]]:
    """table2_multilabel.md and its committed records; returns the records used and the profile's reductions."""
    recs, by = load_table2(runs, profile, out)
    datasets = table2_datasets(by)
    proto = table2_protocol(by)
    ref2 = (reference(PAPER) if ref is None else ref).get("table2_multilabel", {})
    text = table2_text(profile, recs, proto, table2_f1_cells(by, datasets, proto.notes),
                       table2_label_f1_rows(by, datasets), table2_hyper_rows(by, datasets),
                       reuters_status() if reuters_msg is None else reuters_msg,
                       ref2, profile_lines(T2, recs, profile), table2_claims(by, ref2), table2_time_rows(by, datasets))
    (Path(out) / "table2_multilabel.md").write_text(text)
    if recs:
        t2rec.write_committed(out, recs, runs)
    return recs, proto.reductions, table2_claims(by, ref2)


# ================================================================ Figure 3
Point = tuple[int, str, float, str]      # (K, mixture, length L, loss)
# what older records drew (they do not name their sampler)
OLD_LABEL_COUNTS = "max(1, Poisson(1)) capped at K (a run from before rejection sampling)"


def load_figure3(runs, profile: str) -> tuple[list[dict], dict[Point, dict]]:
    recs = load(runs, profile, F3)
    data = {}
    for r in recs:
        c = r["config"]
        data[(int(c["data"]["num_labels"]), str(c["data"]["mixture"]), float(c["data"]["length"]),
              c["task"]["loss"])] = r
    return recs, data


def figure3_axes(data: Mapping[Point, dict]) -> tuple[list[int], list[str], list[float]]:
    Ks = sorted({k[0] for k in data})
    mixtures = [m for m in ("uniform", "random") if any(k[1] == m for k in data)]
    lengths = sorted({k[2] for k in data})
    return Ks, mixtures, lengths


def figure3_reductions(recs: list[dict]) -> list[str]:
    return sorted({x for r in recs for x in r["extra"].get("reductions", [])})


def figure3_cell(r: dict | None, metric: str) -> str:
    """``mean ± std`` over seeds (5 decimals), the mean alone with one seed, ``–`` when not run."""
    if r is None:
        return NONE
    if len(r["extra"].get("seeds", [])) > 1:
        return f"{r['metrics'][metric]:.5f} ± {r['metrics'][metric + '_std']:.5f}"
    return f"{r['metrics'][metric]:.5f}"


def figure3_rows(data: Mapping[Point, dict], K: int, mix: str, lengths: list[float]) -> list[list[str]]:
    return [[f"{L:g}"] + [figure3_cell(data.get((K, mix, L, loss)), metric)
                          for metric in ("mse", "js") for loss in FIG_LOSSES] for L in lengths]


def crossover(diffs: list[tuple[float, float]]) -> str:
    """Describe where sparsemax − softmax (per L, ascending) turns negative for good."""
    if not diffs:
        return "no data"
    better = [d < 0 for _, d in diffs]
    if all(better):
        return f"sparsemax better at every L ({diffs[0][0]:g}–{diffs[-1][0]:g})"
    if not better[-1]:
        n = sum(better)
        return f"no crossover: softmax better or equal at the largest L ({n} of {len(diffs)} L values favour sparsemax)"
    i = len(better)
    while i > 0 and better[i - 1]:
        i -= 1
    return (f"sparsemax better from L = {diffs[i][0]:g} on (softmax better or equal at L = {diffs[i - 1][0]:g}); "
            f"{sum(better)} of {len(diffs)} L values favour sparsemax")


def figure3_diffs(data, K: int, mix: str, lengths: list[float], metric: str) -> list[tuple[float, float]]:
    return [(L, data[(K, mix, L, "sparsemax")]["metrics"][metric] - data[(K, mix, L, "softmax")]["metrics"][metric])
            for L in lengths if (K, mix, L, "sparsemax") in data and (K, mix, L, "softmax") in data]


def figure3_setup_lines(recs: list[dict]) -> list[str]:
    if not recs:
        return []
    any_rec = recs[0]
    ex = any_rec["extra"]
    seeds = sorted({tuple(r["extra"].get("seeds", [])) for r in recs})
    return ["## Setup (as run)", "",
            f"- {ex['n_train']} train / {ex['n_test']} test documents per seed; vocabulary size = K; labels per "
            f"document {ex.get('label_counts', OLD_LABEL_COUNTS)}; document length Poisson(L) (≥ 1); label word "
            "distributions "
            f"Dirichlet({any_rec['config']['data'].get('word_concentration')}) over the vocabulary; mixture "
            "proportions uniform over the document's labels (uniform) or Dirichlet(1) over them (random).",
            "- Features: word counts normalised to relative frequencies, then standardised (train statistics).",
            "- Linear model trained with the softmax loss (fy_loss α=1) or the sparsemax loss (α=2) against the "
            "true proportions; prediction softmax(z) / sparsemax(z). L-BFGS up to "
            f"{any_rec['config']['task']['max_iter']} iterations.",
            f"- L2 grid {ex['l2_grid']}, chosen by {ex['cv_folds']}-fold CV on train separately for each metric.",
            "- MSE = mean over test documents of Σ_k (p_k − q_k)²; JS = mean Jensen–Shannon divergence (natural log).",
            "- Reductions in this profile (vs the paper's protocol): "
            + ("; ".join(figure3_reductions(recs)) or "none") + ".",
            f"- Seeds per point: {', '.join(str(list(s)) for s in seeds)} (each seed draws new word distributions "
            "and documents); ± is the sample std over seeds (none with one seed).", ""]


def figure3_text(profile: str, recs: list[dict], data: Mapping[Point, dict], ref: Mapping[str, Any],
                 profile_diff: list[str] = ()) -> str:
    Ks, mixtures, lengths = figure3_axes(data)
    lines = profile_header(profile, recs, "Martins & Astudillo (2016), Figure 3: label proportion estimation")
    lines += list(profile_diff)
    lines += figure3_setup_lines(recs)
    crossover_lines = []
    for K in Ks:
        for mix in mixtures:
            lines += [f"## K = {K}, {mix} mixtures", "",
                      md_table(["L", "MSE softmax", "MSE sparsemax", "JS softmax", "JS sparsemax"],
                               figure3_rows(data, K, mix, lengths))]
            for metric in ("mse", "js"):
                diffs = figure3_diffs(data, K, mix, lengths, metric)
                crossover_lines.append(f"- K={K}, {mix}, {metric.upper()}: {crossover(diffs)}")
    lines += ["## Crossover", "",
              "Where the sparsemax loss becomes better (lower mean over seeds) than the softmax loss, "
              "for every larger L in the grid:", ""] + crossover_lines + [""]
    lines += ["## Paper (reference)", "",
              "The paper's Figure 3 values are not available to this project (papers.yaml: "
              "`not_recovered: figure3_values`); only its qualitative summary is quoted here.", ""]
    if ref:
        lines += paper_summary(ref, ("Reported summary", "reported_summary"))
        lines += [f"- Setup: {ref.get('setup', '')}", ""]
    lines.append(claims.POINTER)
    return "\n".join(lines).rstrip() + "\n"


def plot_figure3(data: Mapping[Point, dict], path: Path, profile: str) -> Path:
    Ks, mixtures, lengths = figure3_axes(data)
    plt = plots.pyplot()
    panels = [(mix, K) for mix in mixtures for K in Ks]
    fig, axes = plt.subplots(2, max(1, len(panels)), figsize=(3.6 * max(1, len(panels)), 6.2), squeeze=False)
    colors = {"softmax": "tab:blue", "sparsemax": "tab:red"}
    for j, (mix, K) in enumerate(panels):
        for i, metric in enumerate(("mse", "js")):
            ax = axes[i][j]
            for loss in FIG_LOSSES:
                pts = [(L, data[(K, mix, L, loss)]["metrics"]) for L in lengths if (K, mix, L, loss) in data]
                if not pts:
                    continue
                ax.errorbar([p[0] for p in pts], [p[1][metric] for p in pts],
                            yerr=[p[1][metric + "_std"] for p in pts], marker="o", ms=3, capsize=2,
                            color=colors[loss], label=f"{loss} loss")
            ax.set_title(f"{mix}, K={K}", fontsize=10)
            ax.set_xlabel("average document length L")
            ax.set_ylabel("mean squared error" if metric == "mse" else "JS divergence")
            ax.grid(alpha=0.3)
            if i == 0 and j == 0:
                ax.legend(fontsize=8)
    fig.suptitle(f"Label proportions (Martins & Astudillo 2016, Fig. 3) — profile {profile}, error bars: std over seeds",
                 fontsize=10)
    fig.tight_layout()
    return plots.save(fig, path, dpi=110)


def write_figure3(profile: str, out: Path, runs, ref: Mapping[str, Any] | None = None) -> tuple[list[dict], list[str]]:
    """figure3_label_proportions.md and .png; returns the records used and the profile's reductions."""
    recs, data = load_figure3(runs, profile)
    ref = (reference(PAPER) if ref is None else ref).get("figure3_label_proportions", {})
    (Path(out) / "figure3_label_proportions.md").write_text(figure3_text(profile, recs, data, ref,
                                                                        profile_lines(F3, recs, profile)))
    plot_figure3(data, Path(out) / "figure3_label_proportions.png", profile)
    return recs, figure3_reductions(recs)


# ================================================================ all reports
def write_reports(profile: str, out: Path, options: Mapping[str, Any] | None = None, runs=None,
                  ref: Mapping[str, Any] | None = None, reuters_msg: str | None = None) -> list[dict]:
    """Every report file of the paper in ``out``; returns the records behind them.

    ``options["only"]`` (the pipeline's ``--only``) naming just the SNLI experiment rewrites the SNLI reports only
    (their records in ``runs_snli.jsonl``): the Table 2 / Figure 3 files and their ``runs.jsonl`` are left as an
    earlier run of the pipeline wrote them, so SNLI can be run and reported on a machine without those records.
    Naming just Table 2 (or with no ``--only`` where the runs folder holds no Figure 3 / SNLI record, as in a clone
    without run directories) rewrites Table 2 only, from its records (else those committed in ``out``), and leaves
    the Figure 3 / SNLI files as they are (:func:`write_table2_only`)."""
    from ..records import runs_root

    runs = runs_root() if runs is None else runs
    ref = reference(PAPER) if ref is None else ref
    only = list((options or {}).get("only") or [])
    if only == [T2] or (not only and not load(runs, profile, F3) and not load(runs, profile, snli.T3)):
        return write_table2_only(profile, out, runs, ref, reuters_msg)
    recs4, red4 = snli.write_snli(profile, out, runs, ref)
    snli_red = f"Table 3 / Table 4 (SNLI): {'; '.join(red4) if red4 else 'none'}."
    if list((options or {}).get("only") or []) == [snli.T3]:
        write_configs(out, recs4, runs, name=SNLI_RUNS)
        notes = (f"Profile {profile}. Table 2 and Figure 3: report files from an earlier run of the pipeline, "
                 f"unchanged by this one (`--only {snli.T3}`); their runs' configs, hashes and metrics are "
                 f"in `runs.jsonl`. {snli_red}")
        items = [*ARTIFACTS, ("SNLI run configs", SNLI_RUNS, "config, hash and metrics of every SNLI run used")]
        write_index(out, f"Martins & Astudillo (2016) — {profile}", items, recs4, notes=notes, runs=runs,
                    profile=profile)
        return recs4
    recs2, red2, t2 = write_table2(profile, out, runs, ref, reuters_msg)
    recs3, red3 = write_figure3(profile, out, runs, ref)
    recs = recs2 + recs3 + recs4
    write_configs(out, recs, runs)
    found = write_claims(out, profile, t2, recs3, recs4)
    Path(out, SNLI_RUNS).unlink(missing_ok=True)          # runs.jsonl now holds the SNLI runs too
    notes = (f"Profile {profile}. Reductions vs the paper — Table 2: {'; '.join(red2) if red2 else 'none'}. "
             f"Figure 3: {'; '.join(red3) if red3 else 'none'}. {snli_red}")
    write_index(out, f"Martins & Astudillo (2016) — {profile}", ARTIFACTS, recs, notes=notes, runs=runs,
                profile=profile, claims=found)
    return recs


def write_table2_only(profile: str, out: Path, runs, ref: Mapping[str, Any], reuters_msg: str | None) -> list[dict]:
    """Table 2 and its committed records (``runs_table2.jsonl``, ``run_extras_table2.jsonl``); ``runs.jsonl`` keeps
    the other experiments' rows only (Table 2's are in its own file now); the index is rewritten."""
    recs2, red2, t2 = write_table2(profile, out, runs, ref, reuters_msg)
    configs = Path(out) / "runs.jsonl"
    if configs.exists():
        keep = [line for line in configs.read_text().splitlines()
                if json.loads(line)["config"].get("experiment_name") != T2]
        configs.write_text("".join(line + "\n" for line in keep))
    notes = (f"Profile {profile}. Table 2: rebuilt by this run from its records (`{t2rec.CONFIGS}`, "
             f"`{t2rec.EXTRAS}`); reductions vs the paper: {'; '.join(red2) if red2 else 'none'}. Figure 3 and "
             f"Tables 3 / 4 (SNLI): report files from an earlier run of the pipeline, unchanged by this one; their "
             f"runs' configs, hashes and metrics are in `runs.jsonl`.")
    found = write_claims(out, profile, t2, claims.stored_rows(out, F3), claims.stored_rows(out, snli.T3))
    for name in ("figure3_label_proportions.md", snli.TABLE3, snli.TABLE4):   # their claims now live in claims.md
        f = Path(out) / name
        if f.exists() and CLAIMS_OLD in (text := f.read_text(encoding="utf-8")):
            f.write_text(text.split(CLAIMS_OLD)[0] + claims.POINTER, encoding="utf-8")
    write_index(out, f"Martins & Astudillo (2016) — {profile}", ARTIFACTS, recs2, notes=notes, runs=runs,
                claims=found)
    return recs2


def write_claims(out: Path, profile: str, t2: Sequence[Claim], f3_rows: Sequence[dict], snli_rows: Sequence[dict]
                 ) -> list[Claim]:
    """claims.md: every claim, Table 2's from its records, Figure 3's and SNLI's from theirs (config + metrics)."""
    res = snli.select({(r["config"]["task"]["attention"], float(r["config"]["task"]["l2"]), int(r["config"]["seed"])): r
                       for r in snli_rows})
    ex = snli.examples_of(snli.example_runs({(r["config"]["task"]["attention"], float(r["config"]["task"]["l2"]),
                                              int(r["config"]["seed"])): r for r in snli_rows}, res))
    found = [*t2, *claims.figure3_claims(f3_rows), *claims.snli_claims(res, ex)]
    (Path(out) / "claims.md").write_text(render(
        "The paper's claims, tested on our runs", f"Martins & Astudillo (2016). Profile: **{profile}**. "
        + " ".join(claims.__doc__.split("\n\n")[1].split()) + " Sentences in quotation marks are the paper's; the "
        "others restate its claim.", found))
    return found


# ================================================================ numbers behind the tables
TABLE2_METRICS = ("micro_f1", "macro_f1", "label_f1", "cv_objective", "micro_f1_std", "macro_f1_std")
FIGURE3_METRICS = ("mse", "js", "mse_std", "js_std")


def numbers(runs, profile: str) -> dict[str, dict[str, float]]:
    """Table 2 per (dataset, loss): the F1 scores, CV objective and chosen L2 / threshold per split;
    Figure 3 per (K, mixture, L, loss): MSE and JS (mean and std over seeds); Table 3 per (attention, L2,
    seed): dev / test accuracy and attention statistics."""
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
    out.update(snli.numbers(runs, profile))
    return out
