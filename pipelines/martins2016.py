"""Martins & Astudillo (2016), "From Softmax to Sparsemax": multi-label and label-proportion experiments.

Usage: ``python pipelines/martins2016.py --profile {smoke,cpu,paper} [--out DIR] [--report-only] [--jobs N]``

Artefacts of the paper reproduced here:
  * Table 2  – micro-F1 and macro-F1 of linear multi-label classifiers trained with the logistic,
               softmax and sparsemax losses on scene, emotions, birds, CAL500 (+ Reuters RCV1-v2, not
               available here) and, as extra rows, yeast, enron, medical, bibtex, tmc2007-500;
  * Figure 3 – mean squared error and Jensen-Shannon divergence of label proportions predicted with
               the softmax and sparsemax losses on synthetic documents, against the average document
               length, for K in {10, 50} labels and uniform / random mixtures.

Runs (resumable: finished jobs are skipped) the sweeps ``martins2016/table2_multilabel`` and
``martins2016/figure3_label_proportions``, then writes ``reports/martins2016/<profile>/`` from the
run records only (every number comes from a run.json).
"""
from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import (choose_profile, launcher_overrides, md_table, records, reference, report_dir, sweep,  # noqa: E402
                    write_configs, write_index)

PAPER = "martins2016"
LOSSES = ("logistic", "softmax", "sparsemax")
FIG_LOSSES = ("softmax", "sparsemax")
PAPER_SETS = ("scene", "emotions", "birds", "cal500", "reuters_rcv1v2")
EXTRA_SETS = ("yeast", "enron", "medical", "bibtex", "tmc2007-500")
T2 = f"{PAPER}/table2_multilabel"
F3 = f"{PAPER}/figure3_label_proportions"

# What each profile runs beyond the experiment configs' own sweeps (grids, folds and seeds are
# profile-dependent in conf/task/*.yaml through ${by_profile:...}).
PLAN = {
    "smoke": {"table2": ["data.name=emotions,scene"], "figure3": ["data.length=200,1000"], "launcher": None},
    "cpu": {"table2": [], "figure3": [], "launcher": "parallel"},
    "paper": {"table2": [], "figure3": [], "launcher": None},
}

ARTIFACTS = [
    ("Table 2 (multi-label)", "table2_multilabel.md",
     "micro-F1 / macro-F1 per dataset x loss (best in bold), mean per-label F1, chosen hyper-parameters, paper summary"),
    ("Figure 3 (label proportions)", "figure3_label_proportions.png",
     "MSE and JS divergence vs average document length, {uniform, random} x {K=10, K=50}, error bars over seeds"),
    ("Figure 3 table", "figure3_label_proportions.md", "the numbers behind Figure 3 (mean ± std over seeds) and the crossover"),
    ("Run configs", "runs.jsonl", "config, hash and metrics of every run used"),
]


def run_all(profile: str, jobs: int | None) -> None:
    plan = PLAN[profile]
    launcher = launcher_overrides(plan["launcher"], jobs)
    sweep(T2, profile, [*plan["table2"], *launcher])
    sweep(F3, profile, [*plan["figure3"], *launcher])


# ---------------------------------------------------------------- helpers
def reuters_status() -> str:
    """The MissingDataError message for the paper's Reuters set (the sweep does not run it)."""
    from sparselab.data import mulan
    from sparselab.data.errors import MissingDataError
    from sparselab.data.root import data_root

    try:
        mulan.load("reuters_rcv1v2", data_root())
    except MissingDataError as err:
        return str(err)
    return "available (unexpected)"


def pct(x: float) -> str:
    return f"{100 * x:.2f}"


def profile_header(profile: str, recs: list[dict], title: str) -> list[str]:
    lines = [f"# {title}", "", f"Profile: **{profile}**. Runs: {len(recs)}. Every number below is read from the "
             "run records (run.json) of this profile.", ""]
    return lines


# ---------------------------------------------------------------- Table 2
def table2(profile: str, out: Path) -> tuple[list[dict], list[str]]:
    recs = records(profile, T2)
    by = {}
    for r in recs:
        by[(r["config"]["data"]["name"], r["config"]["task"]["loss"])] = r
    datasets = [d for d in PAPER_SETS + EXTRA_SETS if d == "reuters_rcv1v2" or any((d, l) in by for l in LOSSES)]
    if "reuters_rcv1v2" not in datasets:
        datasets.insert(0, "reuters_rcv1v2")
    reuters_msg = reuters_status()
    lines = profile_header(profile, recs, "Martins & Astudillo (2016), Table 2: multi-label classification")

    # protocol actually run, from the records
    grids, folds, notes = set(), set(), {}
    red_sets = defaultdict(list)
    for (d, l), r in sorted(by.items()):
        ex = r.get("extra", {})
        grids.add(tuple(ex.get("l2_grid", [])))
        folds.add(ex.get("cv_folds"))
        for x in ex.get("reductions", []):
            what = x.split(": ", 1)[1] if x.startswith(f"{d}: ") else x
            red_sets[what].append(d)
        if len(ex.get("per_split", [])) > 1:
            notes[d] = ex["split"]
    order = {d: i for i, d in enumerate(PAPER_SETS + EXTRA_SETS)}
    reductions = [f"{what} ({', '.join(sorted(set(ds), key=order.get))})" for what, ds in sorted(red_sets.items())]
    any_rec = next(iter(by.values()), None)
    cv_obj = any_rec["extra"].get("cv_objective") if any_rec else "?"
    max_iter = any_rec["extra"].get("max_iter") if any_rec else "?"
    lines += ["## Protocol (as run)", "",
              f"- Linear models, standardised features (train statistics), scipy L-BFGS-B up to {max_iter} iterations, "
              "objective = mean loss + L2/2·‖W‖², L2 path warm-started from the strongest penalty.",
              f"- L2 grid(s): {', '.join(str(list(g)) for g in sorted(grids))}; CV folds: "
              f"{', '.join(str(f) for f in sorted(x for x in folds if x is not None))}.",
              "- Thresholds tuned on the pooled out-of-fold CV predictions without retraining: logistic δ ∈ {0.05..0.5}, "
              "softmax p0 ∈ {1/K..10/K}, sparsemax t ∈ {0.5..5} (support of sparsemax(t·z)).",
              f"- (L2, threshold) chosen jointly by the CV objective `{cv_obj}` "
              "(micro_macro_mean = (micro-F1 + macro-F1)/2).",
              "- macro-F1 = harmonic mean of macro-averaged precision and macro-averaged recall (authors' code); "
              "label-F1 = mean of per-label F1; 0/0 counts as 0.",
              "- Training rows with no gold label are skipped by the softmax and sparsemax losses (no target "
              "distribution); all rows are evaluated."]
    for d, note in sorted(notes.items()):
        lines.append(f"- {d}: {note}.")
    lines.append("- Reductions in this profile (vs the paper's protocol): "
                 + ("; ".join(reductions) if reductions else "none") + ".")
    lines.append("")

    # main table
    header = ["dataset"] + [f"micro-F1 {l}" for l in LOSSES] + [f"macro-F1 {l}" for l in LOSSES]
    rows, wins, wins_paper = [], defaultdict(int), defaultdict(int)
    cells_all = cells_paper = 0
    for d in datasets:
        if d == "reuters_rcv1v2":
            rows.append([f"{d} (paper)"] + ["data not available here"] + [""] * (2 * len(LOSSES) - 1))
            continue
        row = [d + (" (paper)" if d in PAPER_SETS else " (extra)")]
        for metric in ("micro_f1", "macro_f1"):
            vals = {l: by[(d, l)]["metrics"][metric] for l in LOSSES if (d, l) in by}
            top = max(vals.values()) if vals else None
            if vals and len(vals) == len(LOSSES):
                cells_all += 1
                cells_paper += d in PAPER_SETS
                for l, v in vals.items():
                    if round(v, 6) == round(top, 6):
                        wins[l] += 1
                        if d in PAPER_SETS:
                            wins_paper[l] += 1
            for l in LOSSES:
                if l not in vals:
                    row.append("–")
                else:
                    s = pct(vals[l])
                    if (d, l) in by and d in notes and f"{metric}_std" in by[(d, l)]["metrics"]:
                        s += f" ± {pct(by[(d, l)]['metrics'][f'{metric}_std'])}"
                    row.append(f"**{s}**" if round(vals[l], 6) == round(top, 6) else s)
        rows.append(row)
    lines += ["## Ours: test micro-F1 and macro-F1 (%)", "", "Best per dataset and metric in bold "
              "(CAL500: mean ± std over its 5 test folds).", "", md_table(header, rows)]
    lines.append(f"Reuters RCV1-v2: {reuters_msg}")
    lines.append("")
    fmt_w = lambda w: ", ".join(f"{l} {w[l]}" for l in LOSSES)  # noqa: E731
    lines += [f"**Best-cell count** (ties count for each tied loss): on the paper's datasets available here: "
              f"{fmt_w(wins_paper)} of {cells_paper} (dataset, metric) cells; on all datasets: {fmt_w(wins)} of "
              f"{cells_all} cells. Paper: sparsemax best in 4 of 10 cells, logistic and softmax in 3 each "
              f"(its 10 cells include Reuters, which is missing here).", ""]

    # per-label F1 and chosen hyper-parameters
    header2 = ["dataset"] + [f"label-F1 {l}" for l in LOSSES]
    rows2 = []
    for d in datasets:
        if d == "reuters_rcv1v2":
            continue
        vals = {l: by[(d, l)]["metrics"]["label_f1"] for l in LOSSES if (d, l) in by}
        top = max(vals.values()) if vals else None
        rows2.append([d] + [("–" if l not in vals else (f"**{pct(vals[l])}**" if round(vals[l], 6) == round(top, 6)
                                                             else pct(vals[l]))) for l in LOSSES])
    lines += ["## Ours: mean per-label F1 (%)", "", md_table(header2, rows2)]
    header3 = ["dataset", "loss", "L2", "threshold", "CV objective", "L-BFGS iterations"]
    rows3 = []
    for d in datasets:
        for l in LOSSES:
            if (d, l) not in by:
                continue
            r = by[(d, l)]
            ex = r["extra"]
            ps = ex.get("per_split", [])
            l2 = "/".join(f"{p['l2']:g}" for p in ps)
            thr = "/".join(f"{ex['threshold_name']}={p['threshold']:.3g}" for p in ps)
            rows3.append([d, l, l2, thr, f"{r['metrics']['cv_objective']:.4f}",
                          str(sum(p["lbfgs_iterations"] for p in ps))])
    lines += ["## Chosen hyper-parameters (CV on train)", "", "CAL500: one value per outer fold.", "",
              md_table(header3, rows3)]

    ref = reference(PAPER).get("table2_multilabel", {})
    lines += ["## Paper (reference)", "",
              "The paper's numeric Table 2 values are not available to this project (papers.yaml: "
              "`not_recovered: table2_values`); only its qualitative summary is quoted here.", ""]
    if ref:
        lines += [f"- Reported summary: {ref.get('reported_summary', '').strip()}",
                  f"- Protocol: {ref.get('protocol', '').strip()}",
                  f"- Datasets: {', '.join(ref.get('datasets', []))}; systems: {', '.join(ref.get('systems', []))}.",
                  f"- Metric: {ref.get('metric', '')}.", ""]
    (out / "table2_multilabel.md").write_text("\n".join(lines).rstrip() + "\n")
    return recs, reductions


# ---------------------------------------------------------------- Figure 3
def figure3(profile: str, out: Path) -> tuple[list[dict], list[str]]:
    recs = records(profile, F3)
    data = {}
    for r in recs:
        c = r["config"]
        key = (int(c["data"]["num_labels"]), str(c["data"]["mixture"]), float(c["data"]["length"]), c["task"]["loss"])
        data[key] = r
    Ks = sorted({k[0] for k in data})
    mixtures = [m for m in ("uniform", "random") if any(k[1] == m for k in data)]
    lengths = sorted({k[2] for k in data})
    seeds = sorted({tuple(r["extra"].get("seeds", [])) for r in recs})
    lines = profile_header(profile, recs, "Martins & Astudillo (2016), Figure 3: label proportion estimation")
    any_rec = recs[0] if recs else None
    if any_rec:
        ex = any_rec["extra"]
        lines += ["## Setup (as run)", "",
                  f"- {ex['n_train']} train / {ex['n_test']} test documents per seed; vocabulary size = K; labels per "
                  "document max(1, Poisson(1)); document length Poisson(L) (≥ 1); label word distributions "
                  f"Dirichlet({any_rec['config']['data'].get('word_concentration')}) over the vocabulary; mixture "
                  "proportions uniform over the document's labels (uniform) or Dirichlet(1) over them (random).",
                  "- Features: word counts normalised to relative frequencies, then standardised (train statistics).",
                  "- Linear model trained with the softmax loss (fy_loss α=1) or the sparsemax loss (α=2) against the "
                  "true proportions; prediction softmax(z) / sparsemax(z). L-BFGS up to "
                  f"{any_rec['config']['task']['max_iter']} iterations.",
                  f"- L2 grid {ex['l2_grid']}, chosen by {ex['cv_folds']}-fold CV on train separately for each metric.",
                  "- MSE = mean over test documents of Σ_k (p_k − q_k)²; JS = mean Jensen–Shannon divergence (natural log).",
                  "- Reductions in this profile (vs the paper's protocol): "
                  + ("; ".join(sorted({x for r in recs for x in r["extra"].get("reductions", [])})) or "none") + ".",
                  f"- Seeds per point: {', '.join(str(list(s)) for s in seeds)} (each seed draws new word distributions "
                  "and documents); ± is the sample std over seeds (none with one seed).", ""]
    crossover_lines = []
    for K in Ks:
        for mix in mixtures:
            header = ["L", "MSE softmax", "MSE sparsemax", "JS softmax", "JS sparsemax"]
            rows = []
            for L in lengths:
                row = [f"{L:g}"]
                for metric in ("mse", "js"):
                    for loss in FIG_LOSSES:
                        r = data.get((K, mix, L, loss))
                        if r is None:
                            row.append("–")
                        elif len(r["extra"].get("seeds", [])) > 1:
                            row.append(f"{r['metrics'][metric]:.5f} ± {r['metrics'][metric + '_std']:.5f}")
                        else:
                            row.append(f"{r['metrics'][metric]:.5f}")
                rows.append(row)
            lines += [f"## K = {K}, {mix} mixtures", "", md_table(header, rows)]
            for metric in ("mse", "js"):
                diffs = [(L, data[(K, mix, L, "sparsemax")]["metrics"][metric] -
                          data[(K, mix, L, "softmax")]["metrics"][metric])
                         for L in lengths if (K, mix, L, "sparsemax") in data and (K, mix, L, "softmax") in data]
                crossover_lines.append(f"- K={K}, {mix}, {metric.upper()}: {crossover(diffs)}")
    lines += ["## Crossover", "",
              "Where the sparsemax loss becomes better (lower mean over seeds) than the softmax loss, "
              "for every larger L in the grid:", ""] + crossover_lines + [""]
    ref = reference(PAPER).get("figure3_label_proportions", {})
    lines += ["## Paper (reference)", "",
              "The paper's Figure 3 values are not available to this project (papers.yaml: "
              "`not_recovered: figure3_values`); only its qualitative summary is quoted here.", ""]
    if ref:
        lines += [f"- Reported summary: {ref.get('reported_summary', '').strip()}",
                  f"- Setup: {ref.get('setup', '')}", ""]
    (out / "figure3_label_proportions.md").write_text("\n".join(lines).rstrip() + "\n")
    plot_figure3(data, Ks, mixtures, lengths, out / "figure3_label_proportions.png", profile)
    return recs, sorted({x for r in recs for x in r["extra"].get("reductions", [])})


def crossover(diffs: list[tuple[float, float]]) -> str:
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


def plot_figure3(data, Ks, mixtures, lengths, path: Path, profile: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

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
                xs = [p[0] for p in pts]
                ys = [p[1][metric] for p in pts]
                es = [p[1][metric + "_std"] for p in pts]
                ax.errorbar(xs, ys, yerr=es, marker="o", ms=3, capsize=2, color=colors[loss], label=f"{loss} loss")
            ax.set_title(f"{mix}, K={K}", fontsize=10)
            ax.set_xlabel("average document length L")
            ax.set_ylabel("mean squared error" if metric == "mse" else "JS divergence")
            ax.grid(alpha=0.3)
            if i == 0 and j == 0:
                ax.legend(fontsize=8)
    fig.suptitle(f"Label proportions (Martins & Astudillo 2016, Fig. 3) — profile {profile}, error bars: std over seeds",
                 fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(fig)


# ---------------------------------------------------------------- main
def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--profile", choices=["smoke", "cpu", "paper"], default=None)
    ap.add_argument("--out", default=None, help="report directory (default reports/martins2016/<profile>)")
    ap.add_argument("--report-only", action="store_true", help="do not run sweeps, only write reports")
    ap.add_argument("--jobs", type=int, default=None, help="parallel jobs for profiles that use the parallel launcher")
    args = ap.parse_args(argv)
    profile = choose_profile(args.profile)
    print("[martins2016] artefacts: " + "; ".join(f"{t} -> {p}" for t, p, _ in ARTIFACTS), flush=True)
    if not args.report_only:
        run_all(profile, args.jobs)
    out = report_dir(PAPER, profile, args.out)
    recs2, reductions = table2(profile, out)
    recs3, red3 = figure3(profile, out)
    write_configs(out, recs2 + recs3)
    notes = (f"Profile {profile}. Reductions vs the paper — Table 2: {'; '.join(reductions) if reductions else 'none'}. "
             f"Figure 3: {'; '.join(red3) if red3 else 'none'}.")
    write_index(out, f"Martins & Astudillo (2016) — {profile}", ARTIFACTS, recs2 + recs3, notes=notes)
    print(f"[martins2016] wrote {out}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
