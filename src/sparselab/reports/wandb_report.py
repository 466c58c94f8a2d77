"""W&B Reports of every paper's sweeps, built with ``wandb-workspaces`` (help: ``wandb_report.md``)."""
from __future__ import annotations

import argparse
import importlib
import os
import sys
from pathlib import Path
from typing import Sequence

import wandb_workspaces.reports.v2 as wr
from wandb_workspaces import expr

from sparselab.reports.runner import PROFILES, report_path
from sparselab.reports.templates import template

TEXT = template("sparselab.reports.wandb_report")      # by name: as ``python -m``, this module is __main__
STEP = "trainer/global_step"   # the x-axis of everything Lightning's WandbLogger logs
OFFLINE_MODES = ("offline", "disabled", "dryrun")


def runset(ctx: dict, name: str, *filters, groupby: Sequence[str] = ()) -> wr.Runset:
    return wr.Runset(entity=ctx["entity"], project=ctx["project"], name=name, groupby=list(groupby),
                     filters=expr.And(*filters, expr.Config("profile.name") == ctx["profile"]))


def group(ctx: dict, experiment: str, **kw) -> wr.Runset:
    return runset(ctx, experiment, expr.Metric("Group") == experiment, **kw)


def vs(x: str, y: str, title: str) -> wr.ScatterPlot:
    """A summary metric against a config value, one point per run."""
    return wr.ScatterPlot(title=title, x=wr.Config(x), y=wr.SummaryMetric(y))


def hist(key: str, title: str) -> wr.LinePlot:
    """A histogram logged at every validation: W&B draws a histogram key over steps as a heatmap."""
    return wr.LinePlot(title=title, x=STEP, y=[key])


def images(key: str, title: str) -> wr.MediaBrowser:
    return wr.MediaBrowser(title=title, media_keys=[key], num_columns=1)


def table(key: str) -> wr.WeavePanelSummaryTable:
    return wr.WeavePanelSummaryTable(table_name=key)


PAPERS = ("martins2016", "peters2019", "correia2019")     # each paper's panels: sparselab.reports.<paper>.wandb


def build(paper: str, profile: str = "cpu", entity: str = "", project: str = "sparselab") -> wr.Report:
    """The paper's Report; builds offline (nothing is resolved until it is saved)."""
    if paper not in PAPERS:
        raise ValueError(f"paper: expected one of {', '.join(PAPERS)}, got {paper!r}")
    # looked up by name, as restore does: the kit imports no paper
    panels_of = importlib.import_module(f"sparselab.reports.{paper}.wandb")
    ctx = {"entity": entity, "project": project, "profile": profile}
    return wr.Report(entity=entity, project=project, title=f"{panels_of.TITLE} ({profile})",
                     blocks=panels_of.blocks(ctx),
                     description=f"sparselab runs of profile {profile}; built by sparselab.reports.wandb_report")


# ---------------------------------------------------------------- outline
def axes(panel) -> tuple[list, list]:
    """(x, y) metrics of a panel; a LinePlot with a regex has no y metric."""
    if isinstance(panel, wr.LinePlot):
        return [panel.x], [] if panel.metric_regex else list(panel.y)
    if isinstance(panel, wr.ScatterPlot):
        return [panel.x], [panel.y]
    y = (list(panel.metrics) if isinstance(panel, wr.BarPlot) else
         [c.metric for c in panel.columns] if isinstance(panel, wr.ParallelCoordinatesPlot) else
         [panel.metric] if isinstance(panel, wr.ScalarChart) else
         list(panel.media_keys) if isinstance(panel, wr.MediaBrowser) else
         [panel.table_name] if isinstance(panel, wr.WeavePanelSummaryTable) else None)
    if y is None:
        raise TypeError(f"panel type {type(panel).__name__}: panel_keys does not know what it reads")
    return [], y


def _where(m, default: str = "") -> tuple[str, str]:
    """(config, summary or ``default``; the key) of a metric a panel reads."""
    if isinstance(m, wr.Config):
        return "config", m.name
    if isinstance(m, wr.SummaryMetric):
        return "summary", m.name
    return default, m.name if isinstance(m, wr.Metric) else str(m)


def panel_keys(panel) -> list[tuple[str, str]]:
    """``[(where, key)]`` a panel reads (config, summary, history, regex); the x-axis step left out."""
    x, y = axes(panel)
    if isinstance(panel, wr.LinePlot) and panel.metric_regex:
        return [("regex", panel.metric_regex)]
    over_steps = isinstance(panel, (wr.LinePlot, wr.MediaBrowser, wr.WeavePanelSummaryTable))
    return [_where(m, "history" if over_steps else "summary")
            for m in (x if isinstance(panel, wr.ScatterPlot) else []) + y]


def _metric(m) -> str:
    where, key = _where(m)
    return f"{where}.{key}" if where else key


def describe(panel) -> dict[str, str]:
    """``{type, title, x, y, reads}`` of a panel."""
    x, y = axes(panel)
    regex = isinstance(panel, wr.LinePlot) and panel.metric_regex
    title = panel.title if getattr(panel, "title", None) else (
        f"table {panel.table_name}" if isinstance(panel, wr.WeavePanelSummaryTable) else "")
    reads = ", ".join(f"{k} ({where})" for where, k in panel_keys(panel))
    return {"type": type(panel).__name__, "title": title, "x": ", ".join(map(_metric, x)),
            "y": f"regex {panel.metric_regex}" if regex else ", ".join(map(_metric, y)), "reads": reads}


def panels(report: wr.Report) -> list[dict[str, str]]:
    return [describe(p) for b in report.blocks if isinstance(b, wr.PanelGrid) for p in b.panels]


def outline(report: wr.Report, profile: str) -> str:
    """Markdown: the report's headings, text, run sets and panels, each with the keys it reads."""
    lines = [f"# W&B report: {report.title}", "", TEXT("outline", project=f"{report.entity or '<default entity>'}/"
             f"{report.project}", description=report.description, profile=profile), ""]
    for b in report.blocks:
        if isinstance(b, (wr.H1, wr.H2)):
            lines += [f"{'##' if isinstance(b, wr.H1) else '###'} {b.text}", ""]
        elif isinstance(b, wr.P):
            lines += [b.text if isinstance(b.text, str) else str(b.text), ""]
        elif isinstance(b, wr.PanelGrid):
            for rs in b.runsets:
                group = f"; grouped by {', '.join(f'`{g}`' for g in rs.groupby)}" if rs.groupby else ""
                lines.append(f"- run set **{rs.name}**: `{rs.filters}`{group}")
            lines += ["", "| panel | title | x | y | reads (logged key) |", "|---|---|---|---|---|"]
            lines += [f"| {d['type']} | {d['title']} | {f'`{x}`' if (x := d['x']) else '–'} | `{d['y']}` | "
                      f"{d['reads']} |" for d in map(describe, b.panels)]
            lines.append("")
    return "\n".join(lines)


def publish(report: wr.Report) -> str:
    """Save the report to W&B (needs a login) and return its URL."""
    return report.save().url


def write_outline(paper: str, profile: str, out: str | os.PathLike | None = None, **kw) -> tuple[Path, wr.Report]:
    """The report's outline in ``wandb_report.md`` of the report folder (``out``); ``kw``: :func:`build`'s."""
    report = build(paper, profile, **kw)
    folder = report_path(paper, profile, out)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "wandb_report.md"
    path.write_text(outline(report, profile) + "\n", encoding="utf-8")
    return path, report


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=TEXT("help"),
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paper", choices=list(PAPERS))
    ap.add_argument("--profile", default="cpu", choices=list(PROFILES))
    ap.add_argument("--entity", default=os.environ.get("WANDB_ENTITY", ""),
                    help="W&B entity (default: WANDB_ENTITY, else your default entity when online)")
    ap.add_argument("--project", default=os.environ.get("WANDB_PROJECT", "sparselab"))
    ap.add_argument("--out", default=None, help="outline directory (default reports/<paper>/<profile>)")
    args = ap.parse_args(argv)
    online = (os.environ.get("WANDB_MODE") or "offline").lower() not in OFFLINE_MODES   # unset or empty: offline
    path, report = write_outline(args.paper, args.profile, args.out, entity=args.entity, project=args.project)
    print(f"[{args.paper}] W&B report outline ({len(panels(report))} panels) -> {path}", flush=True)
    if not online:
        print(f"[{args.paper}] W&B offline: not published (set WANDB_MODE=online with an API key to save it)")
        return 0
    try:
        if not report.entity:
            import wandb

            report.entity = wandb.Api().default_entity
            for grid in (b for b in report.blocks if isinstance(b, wr.PanelGrid)):
                for rs in grid.runsets:
                    rs.entity = report.entity
        print(publish(report), flush=True)
    except Exception as err:
        print(f"error: could not save the W&B report ({type(err).__name__}: {err})", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
