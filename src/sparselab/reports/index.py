"""What a report directory shows beside its tables: provenance, ``runs.jsonl`` and ``index.html``."""
from __future__ import annotations

import csv
import html
import json
import os
import re
from pathlib import Path
from typing import Any, Sequence

import markdown

from sparselab.engine.record import identity

from .records import other_runs, relative_run, scrub, selection
from .templates import snippets

TEXT = snippets(__package__, "index")     # the page's style sheet and fixed prose (``index.md``)


def public_config(cfg: dict[str, Any] | None) -> dict[str, Any]:
    """A run's config without machine-specific entries (``paths``; an explicit ``data.root``)."""
    out = {k: v for k, v in (cfg or {}).items() if k != "paths"}
    if isinstance(out.get("data"), dict) and out["data"].get("root"):
        out["data"] = {**out["data"], "root": "<data root>"}
    return out


def provenance(recs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Commits, versions and dates of the runs behind a report."""
    commits = sorted({r.get("git_commit") or "unknown" for r in recs})
    dates = sorted(r.get("finished_at", "") for r in recs if r.get("finished_at"))
    return {"runs": len(recs), "commits": commits, "first": dates[0] if dates else None,
            "last": dates[-1] if dates else None, "versions": recs[0].get("versions", {}) if recs else {},
            "device": sorted({r.get("device", "?") for r in recs}),
            "config_hashes": len({r.get("config_hash") for r in recs}),
            "total_wall_time_s": round(sum(r.get("wall_time_s", 0) or 0 for r in recs), 1)}


def write_configs(out_dir: Path, recs: Sequence[dict[str, Any]], runs: str | os.PathLike,
                  name: str = "runs.jsonl") -> Path:
    """Store every run's config, hash (and its identity version) and metrics beside the report that used them."""
    rows = []
    for r in sorted(recs, key=lambda r: r["run_dir"]):
        # scrub: config values under the runs root (data.cache_dir = ${paths.runs}/.cache/mt) hold its path
        row = {"run": relative_run(r["run_dir"], runs), "config_hash": r.get("config_hash"),
               "config": public_config(r.get("config")), "metrics": r.get("metrics"), "best": r.get("best")}
        if "identity_version" in r:   # records from before versions have none (version 1): their rows stay as they were
            row["identity_version"] = r["identity_version"]
        rows.append(scrub(json.dumps(row, sort_keys=True), runs))
    path = Path(out_dir) / name
    path.write_text("\n".join(rows) + ("\n" if rows else ""))
    return path


# ---------------------------------------------------------------- HTML pieces
def render_markdown(text: str, shift: int = 0) -> str:
    """Markdown to HTML (tables included); headings demoted by ``shift`` levels (at most h6)."""
    out = markdown.markdown(text, extensions=["tables"], output_format="html")
    if shift:
        out = re.sub(r"<(/?)h([1-6])\b", lambda m: f"<{m.group(1)}h{min(6, int(m.group(2)) + shift)}", out)
    return out


def html_table(header: Sequence[Any], rows: Sequence[Sequence[Any]]) -> str:
    esc = html.escape
    head = "<table><thead><tr>" + "".join(f"<th>{esc(str(h))}</th>" for h in header) + "</tr></thead><tbody>"
    body = ["<tr>" + "".join(f"<td>{esc(str(c))}</td>" for c in row) + "</tr>" for row in rows]
    return "\n".join([head, *body, "</tbody></table>"])


def _artifact_body(path: Path, rel: str, name: str, desc: str) -> str:
    esc = html.escape
    if rel.endswith(".md"):
        return render_markdown(path.read_text(encoding="utf-8"), shift=2)
    if rel.endswith(".png"):
        return f"<figure><img src='{esc(rel)}' alt='{esc(name)}'><figcaption>{esc(desc)}</figcaption></figure>"
    if rel.endswith(".csv"):
        with open(path, newline="", encoding="utf-8") as fh:
            rows = list(csv.reader(fh))
        if not rows:
            return "<p><em>empty</em></p>"
        return (f"<details><summary>{len(rows) - 1} rows (click to show)</summary>"
                f"{html_table(rows[0], rows[1:])}</details>")
    if rel.endswith(".jsonl"):
        n = sum(1 for line in path.read_text().splitlines() if line.strip())
        return f"<p>{n} runs, one JSON object per line: <a href='{esc(rel)}'>{esc(rel)}</a>.</p>"
    return f"<p><a href='{esc(rel)}'>{esc(rel)}</a></p>"


LABELS = {"runs": "runs", "commits": "git commits", "first": "first run finished", "last": "last run finished",
          "versions": "package versions (first run)", "device": "devices", "config_hashes": "distinct config hashes",
          "total_wall_time_s": "total wall time (s)"}


def provenance_html(recs: Sequence[dict[str, Any]], runs: str | os.PathLike) -> str:
    esc = html.escape
    prov = provenance(recs)
    parts = ["<table>"]
    for k, v in prov.items():
        shown = ", ".join(map(str, v)) if isinstance(v, list) else (
            ", ".join(f"{p} {ver}" for p, ver in v.items()) if isinstance(v, dict) else v)
        parts.append(f"<tr><th align=left>{esc(LABELS.get(k, k))}</th><td><code>{esc(str(shown))}</code></td></tr>")
    parts.append("</table>")
    if recs:
        rows = [[relative_run(r["run_dir"], runs), r.get("experiment") or "", r.get("config_hash") or "",
                 r.get("git_commit") or "unknown", r.get("finished_at") or "", r.get("wall_time_s", "")]
                for r in sorted(recs, key=lambda r: r["run_dir"])]
        parts.append(f"<details><summary>every run ({len(rows)}): directory under the runs root, config hash, "
                     "commit, date</summary>")
        parts.append(html_table(["run directory", "experiment", "config hash", "commit", "finished", "wall time (s)"],
                                rows))
        parts.append("</details>")
        first = min(recs, key=lambda r: r["run_dir"])
        cfg = json.dumps(public_config(first.get("config")), indent=1, sort_keys=True)
        parts.append(f"<details><summary>config of the first run ({esc(relative_run(first['run_dir'], runs))})"
                     f"</summary><pre>{esc(cfg)}</pre></details>")
    return "\n".join(parts)


def planned_html() -> str:
    """How many of the plan's jobs have a finished record ("" outside a pipeline run)."""
    sel = selection()
    if sel is None or not sel.planned:
        return ""
    missing = sel.planned - sel.finished
    return (f"<p><strong>{sel.finished} of {sel.planned} planned jobs have a finished record</strong>"
            + (f"; {missing} missing (shown as missing in the tables)" if missing else "") + ".</p>")


def other_runs_html(runs: str | os.PathLike) -> str:
    """The finished records of the runs folder that are not jobs of this report's plan (none enters a table)."""
    others = other_runs()
    if not others:
        return ""
    rows = [[relative_run(r["run_dir"], runs), r.get("experiment") or "", identity(r) or "",
             r.get("finished_at") or ""] for r in others]
    return TEXT["others"].format(n=len(rows)) + html_table(["run directory", "experiment", "job", "finished"], rows)


# ---------------------------------------------------------------- summary
def summary_html(items: Sequence[tuple[str, str, str]], claims: Sequence[Any], profile: str | None) -> str:
    """The top of the index: the smoke caveat, the planned jobs found, and the typed claims' verdicts."""
    from .claims import counts
    esc = html.escape
    parts = ["<section id='summary'><h2>Summary</h2>"]
    if profile == "smoke":
        parts.append(TEXT["smoke"])
    parts.append(planned_html())
    where = next((i for i, (_, rel, _) in enumerate(items) if rel == "claims.md"), None)
    if claims:
        parts.append(f"<p>{len(claims)} claims, each decided by the test in its row of claims.md: "
                     + ", ".join(f"{n} {v}" for v, n in counts(claims).items()) + ".</p>")
        link = f"<a href='#a{where}'>claims.md</a>" if where is not None else "claims.md"
        rows = "".join(f"<tr><td>{esc(c.row()[0])}</td><td>{esc(c.label)}</td><td>{link}</td></tr>" for c in claims)
        parts.append("<table><thead><tr><th>claim</th><th>verdict</th><th>where</th></tr></thead><tbody>"
                     f"{rows}</tbody></table>")
    else:
        parts.append("<p>No claim has a verdict in these reports.</p>")
    parts.append("</section>")
    return "\n".join(p for p in parts if p)


def write_index(out_dir: Path, title: str, items: Sequence[tuple[str, str, str]],
                recs: Sequence[dict[str, Any]], notes: str = "", *, runs: str | os.PathLike,
                profile: str | None = None, claims: Sequence[Any] = ()) -> Path:
    """index.html: the summary, every report file inline with its runs' provenance; ``notes``: Markdown.

    An item whose file is not in ``out_dir`` gets no section: it is named once under "not in this folder"."""
    out_dir = Path(out_dir)
    esc = html.escape
    absent = [(name, rel) for name, rel, _ in items if not (out_dir / rel).exists()]
    items = [item for item in items if (out_dir / item[1]).exists()]
    parts = ["<!doctype html>", "<html lang='en'><head><meta charset='utf-8'>",
             f"<title>{esc(title)}</title><style>{TEXT['style']}</style></head><body>", f"<h1>{esc(title)}</h1>",
             summary_html(items, claims, profile)]
    if notes:
        parts.append(f"<div class='notes'>{render_markdown(notes)}</div>")
    parts.append("<nav><h2>Contents</h2><ul><li><a href='#summary'>Summary</a> — claims, verdicts, runs found</li>")
    for i, (name, rel, desc) in enumerate(items):
        parts.append(f"<li><a href='#a{i}'>{esc(name)}</a> — {esc(desc)} (<a href='{esc(rel)}'>{esc(rel)}</a>)</li>")
    parts.append("<li><a href='#provenance'>Provenance</a> — the runs behind these reports</li></ul>")
    if absent:
        parts.append("<p class='desc'>Not in this folder (not written by this profile or run of the pipeline): "
                     + "; ".join(f"{esc(name)} ({esc(rel)})" for name, rel in absent) + ".</p>")
    parts.append("</nav>")
    for i, (name, rel, desc) in enumerate(items):
        parts.append(f"<section id='a{i}'><h2>{esc(name)}</h2>"
                     f"<p class='desc'>{esc(desc)} — <a href='{esc(rel)}'>{esc(rel)}</a></p>")
        parts.append(_artifact_body(out_dir / rel, rel, name, desc))
        parts.append("</section>")
    parts.append("<section id='provenance'><h2>Provenance</h2>")
    parts.append(provenance_html(recs, runs))
    others = other_runs_html(runs)
    parts += [others] if others else []
    parts.append("</section></body></html>")
    path = out_dir / "index.html"
    path.write_text(scrub("\n".join(parts) + "\n", runs, html=True), encoding="utf-8")
    return path
