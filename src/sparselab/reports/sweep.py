"""A table and a plot per metric for any hand sweep, from its run records alone (help: ``sweep.md``)."""
from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import pandas as pd

from sparselab.engine import identity, record
from sparselab import plots
from sparselab.reports.records import relative_run
from sparselab.reports.tables import NONE, md_table
from sparselab.reports.templates import template

TEXT = template("sparselab.reports.sweep")     # by name: as ``python -m``, this module is __main__
SEED = "seed"
# Keys that name where or how a run was written, not what it computed: never "pooled", never "varying".
NON_SEMANTIC = identity.machinery_keys()


class SweepError(ValueError):
    """A user error: printed as one ``error: …`` line, exit 2."""


def flatten(d: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """``{"mapping": {"alpha": 1.5}}`` -> ``{"mapping.alpha": 1.5}`` (empty dicts stay leaves)."""
    out: dict[str, Any] = {}
    for k, v in d.items():
        if isinstance(v, dict) and v:
            out.update(flatten(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


def _hashable(v: Any) -> Any:
    return json.dumps(v, sort_keys=True) if isinstance(v, (list, dict)) else v


def _order(v: Any) -> tuple:
    """Numbers in numeric order, then text, then None (a key some records lack)."""
    if _is_number(v):
        return (0, float(v), "")
    return (2, 0.0, "") if v is None else (1, 0.0, str(v))


def _md(v: Any) -> str:
    """Text for a Markdown cell: a ``|`` (in an error message, say) would split the cell."""
    return str(v).replace("|", "\\|")


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


@dataclass
class Sweep:
    root: Path
    by: list[str]
    runs: list[dict[str, Any]]        # one per record: key, seed, status, run, error, metrics, config
    metrics: list[str]
    groups: dict[tuple, list[dict[str, Any]]] = field(default_factory=dict)
    unreadable: list[tuple[str, str]] = field(default_factory=list)   # (run.json path, why)

    def finished(self, key: tuple) -> list[dict[str, Any]]:
        return [r for r in self.groups[key] if r["status"] == "finished"]


def varying(configs: Sequence[dict[str, Any]]) -> list[str]:
    """The flattened config keys whose value differs across ``configs`` (a missing key counts as a value)."""
    keys = sorted({k for c in configs for k in c if not any(k == x or k.startswith(x + ".") for x in NON_SEMANTIC)})
    return [k for k in keys if len({_hashable(c.get(k)) for c in configs}) > 1]


def collect(root: str | Path, by: Sequence[str], metrics: Sequence[str] | None = None) -> Sweep:
    root = Path(root)
    if not root.is_dir():
        raise SweepError(f"{root}: no such folder")
    recs = record.find(root, status=None)
    bad = record.find_unreadable(root)
    if not recs:
        raise SweepError(f"{root}: no run records (run.json) under this folder"
                         + (" that can be read; unreadable: " + "; ".join(f"{p} ({why})" for p, why in bad)
                            if bad else ""))
    configs = [flatten(r.get("config") or {}) for r in recs]
    unknown = [k for k in by if not any(k in c for c in configs)]
    if unknown:
        vary = ", ".join(varying(configs)) or "none"
        raise SweepError(f"--by {', '.join(unknown)}: not a config key of these runs; keys that vary across "
                         f"the {len(recs)} records: {vary}")
    runs = [{"key": tuple(_hashable(cfg.get(k)) for k in by), "seed": cfg.get(SEED), "status": rec.get("status"),
             "run": relative_run(rec["run_dir"], root),
             "error": str(rec.get("error") or "").splitlines()[0] if rec.get("error") else "",
             "metrics": {m: float(v) for m, v in (rec.get("metrics") or {}).items() if _is_number(v)}, "config": cfg}
            for rec, cfg in zip(recs, configs)]
    found = sorted({m for r in runs if r["status"] == "finished" for m in r["metrics"]})
    if metrics:
        missing = [m for m in metrics if m not in found]
        if missing:
            raise SweepError(f"--metric {', '.join(missing)}: not a metric of the finished runs; they have: "
                             f"{', '.join(found) or 'none'}")
        found = list(metrics)
    sweep = Sweep(root, list(by), runs, found, unreadable=bad)
    for r in runs:
        sweep.groups.setdefault(r["key"], []).append(r)
    sweep.groups = {k: sweep.groups[k] for k in sorted(sweep.groups, key=lambda t: tuple(map(_order, t)))}
    return sweep


def summary(sweep: Sweep) -> pd.DataFrame:
    """One row per group: the --by values, n (finished runs), and <metric>_mean / _std / _n."""
    rows = []
    for key in sweep.groups:
        fin = sweep.finished(key)
        row: dict[str, Any] = dict(zip(sweep.by, key))
        row["n"] = len(fin)
        for m in sweep.metrics:
            s = pd.Series([r["metrics"][m] for r in fin if m in r["metrics"]], dtype=float)
            # sample std (ddof 1): NaN for a single run, shown as "–"
            row.update({f"{m}_mean": s.mean(), f"{m}_std": s.std(), f"{m}_n": int(s.count())})
        rows.append(row)
    return pd.DataFrame(rows, columns=[*sweep.by, "n", *(f"{m}_{s}" for m in sweep.metrics
                                                          for s in ("mean", "std", "n"))])


def cell(mean: float, std: float, n: int, group_n: int) -> str:
    """``mean ± std`` with 4 significant digits; ``–`` with no value; ``(n=k)`` when fewer runs have the metric."""
    if n == 0 or math.isnan(mean):
        return NONE
    text = f"{mean:.4g}" + ("" if math.isnan(std) else f" ± {std:.4g}")
    return text if n == group_n else f"{text} (n={n})"


def pooled(sweep: Sweep) -> dict[str, list[Any]]:
    """Keys other than the seed whose value differs between runs of one group, with their values."""
    out: dict[str, set] = {}
    for runs in sweep.groups.values():
        for k in varying([r["config"] for r in runs]):
            if k != SEED and k not in sweep.by:
                out.setdefault(k, set()).update(_hashable(r["config"].get(k)) for r in runs)
    return {k: sorted(v, key=_order) for k, v in sorted(out.items())}


def not_finished(sweep: Sweep) -> list[list[str]]:
    """Rows for records not finished, and grid points (swept values × seeds seen) with no record."""
    rows = [[*map(_md, r["key"]), _md(r["seed"]), r["status"] if r["status"] != "running" else
             "running (or killed)", _md(r["run"]), _md(r["error"] or NONE)]
            for r in sweep.runs if r["status"] != "finished"]
    if SEED not in sweep.by:
        values = [sorted({r["key"][i] for r in sweep.runs}, key=_order) for i in range(len(sweep.by))]
        seeds = sorted({_hashable(r["seed"]) for r in sweep.runs}, key=_order)
        have = {(r["key"], _hashable(r["seed"])) for r in sweep.runs}
        for key in itertools.product(*values):
            for seed in seeds:
                if (key, seed) not in have:
                    rows.append([*map(_md, key), _md(seed), "no record", NONE, NONE])
    return rows


def constant(sweep: Sweep, metric: str) -> bool:
    """True when two or more finished runs have ``metric`` and all the same value (a flat line: not plotted)."""
    vals = [r["metrics"][metric] for key in sweep.groups for r in sweep.finished(key) if metric in r["metrics"]]
    return len(vals) > 1 and len(set(vals)) == 1


def markdown(sweep: Sweep, table: pd.DataFrame, folder: str) -> str:
    n_fin = sum(r["status"] == "finished" for r in sweep.runs)
    lines = [f"# Sweep over {', '.join(sweep.by)}", "", TEXT("intro", n=len(sweep.runs), folder=folder, n_fin=n_fin),
             ""]
    pool = pooled(sweep)
    if pool:
        lines += ["Rows pool runs that also differ in: " + "; ".join(
            f"`{k}` ({', '.join(map(str, v))})" for k, v in pool.items()) + " — add `--by` to split them.", ""]
    flat = [m for m in sweep.metrics if constant(sweep, m)]
    if flat:
        lines += ["The same in every finished run, so not plotted: " + ", ".join(f"`{m}`" for m in flat) + ".", ""]
    header = [*sweep.by, "n", *sweep.metrics]
    # the --by values from the group keys, not from the frame, whose rows turn ints into floats
    rows = [[*map(_md, key), int(row["n"]),
             *(cell(row[f"{m}_mean"], row[f"{m}_std"], int(row[f"{m}_n"]), int(row["n"])) for m in sweep.metrics)]
            for key, row in zip(sweep.groups, table.to_dict("records"))]
    lines.append(md_table(header, rows))
    bad = not_finished(sweep)
    lines += ["## Failed, running or missing runs", ""]
    lines.append(md_table([*sweep.by, SEED, "status", "run", "error"], bad) if bad else "None.\n")
    if sweep.unreadable:
        lines += ["## Unreadable run records", "", TEXT("unreadable"), ""]
        lines += [f"- `{relative_run(p, sweep.root)}`: {why}" for p, why in sweep.unreadable] + [""]
    return "\n".join(lines)


def plot(sweep: Sweep, metric: str, path: Path) -> Path:
    """``metric`` against the first --by key, one line per other value: mean ± std, each run a dot."""
    plt = plots.pyplot()
    xs = sorted({k[0] for k in sweep.groups}, key=_order)
    numeric = all(_is_number(x) for x in xs)
    pos = {x: (x if numeric else i) for i, x in enumerate(xs)}
    fig, ax = plt.subplots(figsize=(5, 3.5))
    lines: dict[tuple, list[tuple]] = {}
    for key in sweep.groups:
        lines.setdefault(key[1:], []).append(key)
    for rest, keys in lines.items():
        label = ", ".join(f"{k}={v}" for k, v in zip(sweep.by[1:], rest)) or None
        pts = []
        for key in keys:
            vals = pd.Series([r["metrics"][metric] for r in sweep.finished(key) if metric in r["metrics"]],
                             dtype=float)
            if vals.count():
                pts.append((pos[key[0]], vals.mean(), 0.0 if vals.count() < 2 else vals.std(), vals))
        if not pts:
            continue
        bars = ax.errorbar([p[0] for p in pts], [p[1] for p in pts], yerr=[p[2] for p in pts], marker="o",
                           capsize=3, label=label)
        for x, _, _, vals in pts:
            ax.plot([x] * len(vals), vals, ".", color=bars[0].get_color(), alpha=0.4)
    if not numeric:
        ax.set_xticks(range(len(xs)), [str(x) for x in xs])
    ax.set(xlabel=sweep.by[0], ylabel=metric)
    if len(lines) > 1:
        ax.legend(fontsize="small")
    fig.tight_layout()
    return plots.save(fig, path)


def write(sweep: Sweep, out: Path, folder: str) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    table = summary(sweep)
    md = out / "sweep.md"
    md.write_text(markdown(sweep, table, folder), encoding="utf-8")
    csv = out / "sweep.csv"
    table.to_csv(csv, index=False)
    pngs = [plot(sweep, m, out / f"{m.replace('/', '_')}.png") for m in sweep.metrics if not constant(sweep, m)]
    return [md, csv, *pngs]


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m sparselab.reports.sweep",
                                 description=TEXT("help"),
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", help=TEXT("folder"))
    ap.add_argument("--by", action="append", required=True, metavar="KEY", help=TEXT("by"))
    ap.add_argument("--metric", action="append", default=[], metavar="NAME", help=TEXT("metric"))
    ap.add_argument("--out", default=None, help=TEXT("out"))
    args = ap.parse_args(argv)
    try:
        sweep = collect(args.folder, args.by, args.metric)
    except SweepError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    out = Path(args.out) if args.out else Path(args.folder) / "sweep"
    try:
        paths = write(sweep, out, args.folder)
    except OSError as err:
        print(f"error: cannot write the sweep report into {out}: {err.strerror or err}"
              f"{f' ({err.filename})' if err.filename else ''}; choose another folder with --out", file=sys.stderr)
        return 2
    n_bad = len(not_finished(sweep)) + len(sweep.unreadable)
    print(f"{len(sweep.runs)} records, {len(sweep.groups)} groups by {', '.join(sweep.by)}"
          f"{f', {n_bad} failed/running/missing' if n_bad else ''} -> {paths[0]} (+ {paths[1].name}, "
          f"{len(paths) - 2} PNGs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
