"""What every paper pipeline shares: run a sweep (resumably), read its records,
and write Markdown tables and an HTML index.

Numbers reach ``reports/`` only through ``records()``: the run.json files the
engine wrote. Nothing here invents or edits a metric.
"""
from __future__ import annotations

import html
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterable, Sequence

import yaml

PROJECT = Path(__file__).resolve().parents[1]
REFERENCE = PROJECT.parent / "shared" / "reference" / "papers.yaml"


def runs_root() -> Path:
    return Path(os.environ.get("SPARSELAB_RUNS", PROJECT / "runs"))


def choose_profile(arg: str | None) -> str:
    """The profile the user asked for; else `cpu` without a GPU and `paper` with one."""
    if arg:
        return arg
    try:
        import torch

        profile = "paper" if torch.cuda.is_available() else "cpu"
    except ImportError:
        profile = "cpu"
    print(f"[sparselab] no PROFILE given: using '{profile}' "
          f"({'GPU found' if profile == 'paper' else 'no GPU found'})", flush=True)
    return profile


def launcher_overrides(launcher: str | None, jobs: int | None) -> list[str]:
    """Hydra launcher overrides for a pipeline's plan; ``--jobs 1`` means the in-process basic launcher."""
    if not launcher or (jobs is not None and jobs <= 1):
        return []
    return [f"hydra/launcher={launcher}"] + ([f"hydra.launcher.n_jobs={jobs}"] if jobs else [])


def sweep(experiment: str, profile: str, overrides: Sequence[str] = (), multirun: bool = True) -> None:
    """Run (or resume) an experiment's sweep in a subprocess.

    Finished jobs with an unchanged config hash are skipped by the engine, so
    calling this again after an interruption only runs what is missing.
    """
    cmd = [sys.executable, "-m", "sparselab.run"]
    if multirun:
        cmd.append("-m")
    cmd += [f"experiment={experiment}", f"profile={profile}", f"paths.runs={runs_root()}", *overrides]
    print("[sparselab] $", " ".join(cmd), flush=True)
    env = dict(os.environ)
    env.setdefault("OMP_NUM_THREADS", "1")
    env.setdefault("HYDRA_FULL_ERROR", "1")
    subprocess.run(cmd, check=True, cwd=PROJECT, env=env)


def records(profile: str, experiment_name: str, status: str | None = "finished") -> list[dict[str, Any]]:
    """Run records under runs/<profile>/<experiment_name>/, sorted by run dir."""
    base = runs_root() / profile / experiment_name
    out = []
    for path in sorted(base.rglob("run.json")):
        try:
            rec = json.loads(path.read_text())
        except json.JSONDecodeError:
            continue
        if status is None or rec.get("status") == status:
            rec["run_dir"] = str(path.parent)
            out.append(rec)
    return out


def report_dir(paper: str, profile: str, out: str | os.PathLike | None = None) -> Path:
    d = Path(out) if out else PROJECT / "reports" / paper / profile
    d.mkdir(parents=True, exist_ok=True)
    return d


def reference(paper: str) -> dict[str, Any]:
    """The paper's reported numbers (reference columns only), from shared/reference."""
    if not REFERENCE.exists():
        return {}
    return yaml.safe_load(REFERENCE.read_text()).get(paper, {})


def fmt(x: Any, digits: int = 2) -> str:
    if x is None:
        return "–"
    if isinstance(x, float):
        return f"{x:.{digits}f}"
    return str(x)


def md_table(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    lines = ["| " + " | ".join(map(str, header)) + " |", "|" + "---|" * len(header)]
    for row in rows:
        lines.append("| " + " | ".join(fmt(c) for c in row) + " |")
    return "\n".join(lines) + "\n"


def provenance(recs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Commits, versions and dates of the runs behind a report."""
    commits = sorted({r.get("git_commit") or "unknown" for r in recs})
    dates = sorted(r.get("finished_at", "") for r in recs if r.get("finished_at"))
    versions = recs[0].get("versions", {}) if recs else {}
    return {
        "runs": len(recs),
        "commits": commits,
        "first": dates[0] if dates else None,
        "last": dates[-1] if dates else None,
        "versions": versions,
        "device": sorted({r.get("device", "?") for r in recs}),
        "total_wall_time_s": round(sum(r.get("wall_time_s", 0) for r in recs), 1),
    }


def write_index(out_dir: Path, title: str, items: Sequence[tuple[str, str, str]],
                recs: Sequence[dict[str, Any]], notes: str = "") -> Path:
    """index.html: every report file of a pipeline, with the provenance of its runs."""
    prov = provenance(recs)
    esc = html.escape
    parts = [f"<!doctype html><meta charset='utf-8'><title>{esc(title)}</title>",
             "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto}"
             "img{max-width:100%}code,pre{background:#f4f4f4}td,th{padding:2px 8px}</style>",
             f"<h1>{esc(title)}</h1>"]
    if notes:
        parts.append(f"<p>{esc(notes)}</p>")
    parts.append("<ul>")
    for name, rel, desc in items:
        parts.append(f"<li><a href='{esc(rel)}'>{esc(name)}</a> — {esc(desc)}</li>")
    parts.append("</ul>")
    for name, rel, _ in items:
        if rel.endswith(".png"):
            parts.append(f"<h3>{esc(name)}</h3><img src='{esc(rel)}' alt='{esc(name)}'>")
    parts.append("<h2>Provenance</h2><table>")
    for k, v in prov.items():
        parts.append(f"<tr><th align=left>{esc(k)}</th><td><code>{esc(json.dumps(v))}</code></td></tr>")
    parts.append(f"<tr><th align=left>report written</th><td>{esc(time.strftime('%Y-%m-%d %H:%M %Z'))}</td></tr>")
    parts.append("</table>")
    if recs:
        cfg = json.dumps(recs[0].get("config", {}), indent=1, sort_keys=True)
        parts.append(f"<details><summary>config of the first run ({esc(recs[0]['run_dir'])})</summary>"
                     f"<pre>{esc(cfg)}</pre></details>")
    path = Path(out_dir) / "index.html"
    path.write_text("\n".join(parts) + "\n")
    return path


def write_configs(out_dir: Path, recs: Sequence[dict[str, Any]], name: str = "runs.jsonl") -> Path:
    """Store every run's config, hash and metrics beside the report that used them."""
    path = Path(out_dir) / name
    rows = []
    runs = runs_root()
    for r in sorted(recs, key=lambda r: r["run_dir"]):
        try:
            rel = str(Path(r["run_dir"]).relative_to(runs))
        except ValueError:
            rel = r["run_dir"]
        cfg = {k: v for k, v in (r.get("config") or {}).items() if k != "paths"}  # machine-specific
        rows.append(json.dumps({"run": rel, "config_hash": r.get("config_hash"), "config": cfg,
                                "metrics": r.get("metrics"), "best": r.get("best")}, sort_keys=True))
    path.write_text("\n".join(rows) + ("\n" if rows else ""))
    return path
