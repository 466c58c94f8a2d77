"""Table 2 of Martins & Astudillo (2016): micro/macro-F1 of multi-label classifiers (``table2_multilabel.md``)."""
from __future__ import annotations

import os
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from . import claims
from .header import paper_summary, profile_header
from .runs import EXTRA_SETS, LOSSES, PAPER, PAPER_SETS, T2, UNAVAILABLE, load_table2, replicates, write_committed
from ..claims import Claim, table
from ..profile_diff import profile_lines
from ..reference import reference
from ..tables import NONE, best_keys, bold, md_table, pct
from ..templates import template

text = template(__name__)
ORDER = PAPER_SETS + EXTRA_SETS
CLAIMS_HEAD = ["## The paper's claims, checked on these runs (rows of `claims.md`)", ""]


def reuters_status(root: str | os.PathLike | None = None) -> str:
    """Why Reuters has no row: where it was looked for and the registry's note (no fetch command exists)."""
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


def table2_datasets(by: Mapping[tuple[str, str], dict]) -> list[str]:
    """Rows in the paper's order, then the extras; Reuters always (as 'not available')."""
    return [d for d in ORDER if d == UNAVAILABLE or any((d, l) in by for l in LOSSES)]


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
    order = {d: i for i, d in enumerate(ORDER)}
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
    """One score cell: percent ± the bootstrap std (else the std over outer splits), bold if best."""
    if loss not in vals:
        return NONE
    s = pct(vals[loss])
    reps = replicates(by[(d, loss)], metric)
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
        noise = claims.cells(by, d, LOSSES)    # [] unless every loss ran: then the best are those no loss beats
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
    for d in (d for d in datasets if d != UNAVAILABLE):
        vals = {l: by[(d, l)]["metrics"]["label_f1"] for l in LOSSES if (d, l) in by}
        best = best_keys(vals)
        rows.append([d] + [NONE if l not in vals else (bold(pct(vals[l])) if l in best else pct(vals[l]))
                           for l in LOSSES])
    return rows


def table2_hyper_rows(by, datasets: list[str]) -> list[list[str]]:
    rows = []
    for d, l in ((d, l) for d in datasets for l in LOSSES if (d, l) in by):
        r = by[(d, l)]
        ex = r["extra"]
        ps = ex.get("per_split", [])
        rows.append([d, l, "/".join(f"{p['l2']:g}" for p in ps),
                     "/".join(f"{ex['threshold_name']}={p['threshold']:.3g}" for p in ps),
                     f"{r['metrics']['cv_objective']:.4f}", str(sum(p["lbfgs_iterations"] for p in ps))])
    return rows


def table2_protocol_lines(p: Protocol) -> list[str]:
    lines = text("protocol", max_iter=p.max_iter, grids=", ".join(str(list(g)) for g in sorted(p.grids)),
                 folds=", ".join(str(f) for f in sorted(x for x in p.folds if x is not None)),
                 cv_objective=p.cv_objective).split("\n")
    lines += [f"  - {d}: {removed_text(p.removed[d])}"
              for d in sorted(p.removed, key=lambda d: ORDER.index(d) if d in ORDER else len(ORDER))]
    for d, note in sorted(p.notes.items()):
        lines.append(f"- {d}: {note}.")
    lines.append("- Reductions in this profile (vs the paper's protocol): "
                 + ("; ".join(p.reductions) if p.reductions else "none") + ".")
    lines.append("")
    return lines


def removed_text(files: Mapping[str, tuple[int, int | None]] | None) -> str:
    if files is None:
        return "not recorded (a run from before the removal: it kept them)"
    order = {"train": 0, "test": 1}
    return "; ".join(f"{f} {n}" + (f" of {read}" if read is not None else "")
                     for f, (n, read) in sorted(files.items(), key=lambda kv: order.get(kv[0], 2)))


def table2_claims(by: Mapping[tuple[str, str], dict], ref: Mapping[str, Any] | None = None) -> list[Claim]:
    """The paper's claims on its datasets (``ref``: papers.yaml ``table2_multilabel``), then our weaker rule."""
    datasets = [d for d in PAPER_SETS if all((d, l) in by for l in LOSSES)]
    paper_cells = [c for d in datasets for c in claims.cells(by, d, LOSSES)]
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
        lines += text("time").split("\n") + ["", md_table(["dataset", "L2 values", "CV folds", "outer splits", "runs",
                                                        "job time (min)", "CPU time (min)", "reduction"], time_rows)]
    header = ["dataset"] + [f"micro-F1 {l}" for l in LOSSES] + [f"macro-F1 {l}" for l in LOSSES]
    lines += text("scores", noise=noise_text(recs), se=claims.SE_FACTOR).split("\n") + ["", md_table(header, f1.rows)]
    fmt_w = lambda w: ", ".join(f"{l} {w[l]}" for l in LOSSES)  # noqa: E731
    lines += text("count", reuters=reuters_msg, wins_paper=fmt_w(f1.wins_paper), cells_paper=f1.cells_paper,
                  wins=fmt_w(f1.wins), cells_all=f1.cells_all).split("\n")
    lines += ["", md_table(["dataset"] + [f"label-F1 {l}" for l in LOSSES], label_rows)]
    lines += text("hyper").split("\n") + ["", md_table(["dataset", "loss", "L2", "threshold", "CV objective",
                                                        "L-BFGS iterations"], hyper_rows)]
    lines += text("paper").split("\n") + [""]
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


def write_table2(profile: str, out: Path, runs, ref: Mapping[str, Any] | None = None,
                 reuters_msg: str | None = None) -> tuple[list[dict], list[str]]:
    """table2_multilabel.md and its committed records; returns the records used and the profile's reductions."""
    recs, by = load_table2(runs, profile, out)
    datasets = table2_datasets(by)
    proto = table2_protocol(by)
    ref2 = (reference(PAPER) if ref is None else ref).get("table2_multilabel", {})
    found = table2_claims(by, ref2)
    text = table2_text(profile, recs, proto, table2_f1_cells(by, datasets, proto.notes),
                       table2_label_f1_rows(by, datasets), table2_hyper_rows(by, datasets),
                       reuters_status() if reuters_msg is None else reuters_msg,
                       ref2, profile_lines(T2, recs, profile), found, table2_time_rows(by, datasets))
    (Path(out) / "table2_multilabel.md").write_text(text)
    if recs:
        write_committed(out, recs, runs)
    return recs, proto.reductions, found
