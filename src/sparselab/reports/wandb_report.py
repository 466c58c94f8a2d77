"""W&B Reports of every paper's sweeps, built with the official ``wandb-workspaces`` library.

``python -m sparselab.reports.wandb_report <paper> [--profile P] [--entity E] [--project P] [--out DIR]``
(``make wandb-report PAPER=peters2019 PROFILE=cpu``)

* Offline (``WANDB_MODE`` unset, ``offline`` or ``disabled``; the project's default): builds the
  ``wandb_workspaces.reports.v2.Report`` and writes an outline of its blocks and panels to
  ``reports/<paper>/<profile>/wandb_report.md``. Serialising or saving a report resolves its run sets through the
  W&B API, which needs a login (STACK.md), so offline the outline is all there is.
* Online (``WANDB_MODE=online`` and an API key): writes the outline too, saves the report and prints its URL.

Run sets select runs by W&B group (the experiment name, ``engine.wandb_run``) and ``profile.name``. The panels
plot what the runs log: Lightning logs ``train_loss``, ``val_loss``, ``val_acc`` against ``trainer/global_step``;
the engine copies a record's final metrics into the run summary (``acc``, ``bleu``, ``attn_support``, ``mse`` ...);
the Martins tasks log ``test/<metric>``; the Correia task (``transformer_translation``) logs ``val_acc`` and
``val_loss`` at every validation (Lightning), with ``js/<kind>/l<layer>`` and ``density/<kind>/l<layer>``
(:class:`sparselab.training.transformer_module.TransformerModule`), ``alpha/<kind>/l<layer>/h<head>``
(:class:`sparselab.training.alpha_trajectory.AlphaTrajectory`) and, once at the end, ``final/<metric>`` of the
record (``final/bleu``, ``final/bleu_tok``, ``final/output_alpha``, ``final/val_acc_best`` ...).
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Callable, Sequence

import wandb_workspaces.reports.v2 as wr
from wandb_workspaces import expr

from sparselab.analysis.heads import KINDS
from sparselab.reports.runner import PROFILES, report_dir

STEP = "trainer/global_step"   # the x-axis of everything Lightning's WandbLogger logs
OFFLINE_MODES = ("offline", "disabled", "dryrun")
# The Correia runs are selected by task (correia2019/table1_bleu and correia2019/output_alpha) and split by
# direction and normalizer, which the Hydra group `mapping` chooses: softmax and 1.5-entmax differ in
# mapping.attn_alpha (1.0, 1.5), α-entmax has attn_alpha null and mapping.attn_normalizer.learnable; the
# output-α runs (beyond the paper) add model.output_normalizer.learnable.
CORREIA_TASK = "transformer_translation"
CORREIA_NORMALIZER = ["config.data.pair", "config.mapping.attn_alpha", "config.mapping.attn_normalizer.learnable",
                      "config.model.output_normalizer.learnable"]
KIND_TITLES = {"enc_self": "encoder self-attention", "dec_self": "decoder self-attention", "context": "context attention"}


def _runset(ctx: dict, name: str, *filters, groupby: Sequence[str] = ()) -> wr.Runset:
    return wr.Runset(entity=ctx["entity"], project=ctx["project"], name=name, groupby=list(groupby),
                     filters=expr.And(*filters, expr.Config("profile.name") == ctx["profile"]))


def _group(ctx: dict, experiment: str, **kw) -> wr.Runset:
    return _runset(ctx, experiment, expr.Metric("Group") == experiment, **kw)


def _vs(x: str, y: str, title: str) -> wr.ScatterPlot:
    """A summary metric against a config value, one point per run."""
    return wr.ScatterPlot(title=title, x=wr.Config(x), y=wr.SummaryMetric(y))


# ---------------------------------------------------------------- the papers
def martins2016(ctx: dict) -> list:
    table2 = "martins2016/table2_multilabel"
    fig3 = "martins2016/figure3_label_proportions"
    blocks = [wr.H1("Table 2: multi-label classification"),
              wr.P("Test micro- and macro-F1 per dataset, one bar per (dataset, loss): logistic, softmax, sparsemax."),
              wr.PanelGrid(runsets=[_group(ctx, table2, groupby=["config.data.name", "config.task.loss"])], panels=[
                  wr.BarPlot(title="micro-F1 by dataset and loss", metrics=["test/micro_f1"]),
                  wr.BarPlot(title="macro-F1 by dataset and loss", metrics=["test/macro_f1"]),
                  wr.ParallelCoordinatesPlot(title="dataset, loss, F1", columns=[
                      wr.ParallelCoordinatesPlotColumn(metric=wr.Config(c)) for c in ("data.name", "task.loss")] + [
                      wr.ParallelCoordinatesPlotColumn(metric=wr.SummaryMetric(m)) for m in ("micro_f1", "macro_f1")]),
              ]),
              wr.H1("Figure 3: label proportions against document length"),
              wr.P("Mean over seeds of the test MSE and JS divergence, softmax against sparsemax loss.")]
    for K in (10, 50):
        rs = _runset(ctx, f"{fig3} K={K}", expr.Metric("Group") == fig3, expr.Config("data.num_labels") == K,
                     groupby=["config.task.loss", "config.data.mixture"])
        blocks.append(wr.PanelGrid(runsets=[rs], panels=[
            _vs("data.length", "mse", f"K={K}: MSE vs length"), _vs("data.length", "js", f"K={K}: JS vs length")]))
    snli = [_group(ctx, "martins2016/table3_snli", groupby=["config.task.attention", "config.task.l2"])]
    blocks += [wr.H1("Table 3: SNLI accuracy by attention"),
               wr.P("No, logistic, soft (softmax), sparse (sparsemax), 1.5-entmax and learned-α attention; the L2 "
                    "is chosen per variant on dev accuracy by the Markdown report."),
               wr.PanelGrid(runsets=snli, panels=[
                   wr.BarPlot(title="SNLI test accuracy by attention and L2", metrics=["test_acc"]),
                   wr.BarPlot(title="SNLI dev accuracy by attention and L2", metrics=["dev_acc"]),
                   _vs("task.l2", "attended_words", "attended premise words vs L2"),
                   wr.LinePlot(title="SNLI dev accuracy (learning curves)", x=STEP, y=["val_acc"])])]
    return blocks


def peters2019(ctx: dict) -> list:
    table1 = [_group(ctx, f"peters2019/table1_{s}", groupby=["config.mapping.alpha", "config.mapping.attn_alpha"])
              for s in ("medium", "high")]
    mt = [_group(ctx, "peters2019/table2_mt", groupby=["config.data.pair", "config.mapping.alpha"])]
    return [
        wr.H1("Table 1: inflection accuracy against α"),
        wr.P("Word accuracy (test, mean over languages) for output α (loss) and attention α in {1, 1.5, 2}."),
        wr.PanelGrid(runsets=table1, panels=[
            _vs("mapping.attn_alpha", "acc", "accuracy vs attention α"),
            _vs("mapping.alpha", "acc", "accuracy vs output α"),
            wr.ParallelCoordinatesPlot(title="output α, attention α, accuracy", columns=[
                wr.ParallelCoordinatesPlotColumn(metric=wr.Config("mapping.alpha")),
                wr.ParallelCoordinatesPlotColumn(metric=wr.Config("mapping.attn_alpha")),
                wr.ParallelCoordinatesPlotColumn(metric=wr.SummaryMetric("acc"))]),
            wr.LinePlot(title="dev accuracy (learning curves)", x=STEP, y=["val_acc"]),
            wr.LinePlot(title="dev loss", x=STEP, y=["val_loss"])]),
        wr.H2("Sparsity"),
        wr.P("Attended source positions per target step, output support size, share of exact beams."),
        wr.PanelGrid(runsets=table1, panels=[
            _vs("mapping.attn_alpha", "attn_support", "attended positions vs attention α"),
            _vs("mapping.alpha", "out_support", "output support vs output α"),
            _vs("mapping.alpha", "exact_share", "exact beam share vs output α")]),
        wr.H1("Table 2: translation BLEU against α"),
        wr.PanelGrid(runsets=mt, panels=[
            _vs("mapping.alpha", "bleu", "BLEU vs α"),
            wr.BarPlot(title="BLEU by direction and α", metrics=["bleu"]),
            _vs("mapping.alpha", "attn_support", "attended positions vs α"),
            _vs("mapping.alpha", "out_support", "output support vs α"),
            _vs("mapping.alpha", "train_tgt_tokens_per_s", "training target tokens/s vs α"),
            wr.LinePlot(title="dev token accuracy", x=STEP, y=["val_acc"])]),
    ]


def correia2019(ctx: dict) -> list:
    runs = [_runset(ctx, "correia2019", expr.Config("task.name") == CORREIA_TASK, groupby=CORREIA_NORMALIZER)]

    def per_kind(prefix: str, what: str) -> list:
        return [wr.LinePlot(title=f"{what}: {KIND_TITLES[k]}", x=STEP, metric_regex=f"^{prefix}/{k}/.*")
                for k in KINDS]

    return [
        wr.H1("Table 1: BLEU by attention normalizer"),
        wr.P("softmax, 1.5-entmax and α-entmax (learned α per head) attention with a softmax output, and α-entmax "
             "with a learned output α (beyond the paper); runs grouped by direction, attention α, learnable "
             "attention α and learnable output α."),
        wr.PanelGrid(runsets=runs, panels=[
            wr.BarPlot(title="test tokenized BLEU by normalizer", metrics=["final/bleu_tok"]),
            wr.BarPlot(title="test SacreBLEU by normalizer", metrics=["final/bleu"]),
            wr.LinePlot(title="validation loss", x=STEP, y=["val_loss"]),
            wr.LinePlot(title="validation accuracy", x=STEP, y=["val_acc"]),
            wr.ScatterPlot(title="test tokenized BLEU vs output α", x=wr.SummaryMetric("final/output_alpha"),
                           y=wr.SummaryMetric("final/bleu_tok")),
            wr.ScatterPlot(title="best validation accuracy vs output α", x=wr.SummaryMetric("final/output_alpha"),
                           y=wr.SummaryMetric("final/val_acc_best"))]),
        wr.H1("Figure 2: α trajectories"),
        wr.P("Every head's learned α over training steps (alpha/<kind>/l<layer>/h<head>)."),
        wr.PanelGrid(runsets=runs, panels=per_kind("alpha", "α")),
        wr.H1("Figure 6: Jensen–Shannon head diversity per layer"),
        wr.PanelGrid(runsets=runs, panels=per_kind("js", "JS")),
        wr.H1("Figures 4 and 5: sparsity (head density per layer)"),
        wr.P("Share of nonzero attention weights among the possible cells, per layer (density/<kind>/l<layer>)."),
        wr.PanelGrid(runsets=runs, panels=per_kind("density", "head density")),
    ]


PAPERS: dict[str, tuple[str, Callable[[dict], list]]] = {
    "martins2016": ("Martins & Astudillo 2016: sparsemax loss", martins2016),
    "peters2019": ("Peters, Niculae & Martins 2019: sparse seq2seq", peters2019),
    "correia2019": ("Correia, Niculae & Martins 2019: adaptively sparse Transformers", correia2019),
}


def build(paper: str, profile: str = "cpu", entity: str = "", project: str = "sparselab") -> wr.Report:
    """The paper's Report; builds offline (nothing is resolved until it is saved)."""
    if paper not in PAPERS:
        raise ValueError(f"paper: expected one of {', '.join(PAPERS)}, got {paper!r}")
    title, blocks = PAPERS[paper]
    ctx = {"entity": entity, "project": project, "profile": profile}
    return wr.Report(entity=entity, project=project, title=f"{title} ({profile})", blocks=blocks(ctx),
                     description=f"sparselab runs of profile {profile}; built by sparselab.reports.wandb_report")


# ---------------------------------------------------------------- outline
def _metric(m) -> str:
    if isinstance(m, wr.Config):
        return f"config.{m.name}"
    if isinstance(m, wr.SummaryMetric):
        return f"summary.{m.name}"
    return m.name if isinstance(m, wr.Metric) else str(m)


def describe(panel) -> dict[str, str]:
    """``{type, title, x, y}`` of a panel: what it plots, with metric names as the runs log them."""
    kind = type(panel).__name__
    x, y = "", ""
    if isinstance(panel, wr.LinePlot):
        x = _metric(panel.x)
        y = f"regex {panel.metric_regex}" if panel.metric_regex else ", ".join(map(_metric, panel.y))
    elif isinstance(panel, wr.ScatterPlot):
        x, y = _metric(panel.x), _metric(panel.y)
    elif isinstance(panel, wr.BarPlot):
        y = ", ".join(map(_metric, panel.metrics))
    elif isinstance(panel, wr.ParallelCoordinatesPlot):
        y = ", ".join(_metric(c.metric) for c in panel.columns)
    elif isinstance(panel, wr.ScalarChart):
        y = _metric(panel.metric)
    return {"type": kind, "title": panel.title or "", "x": x, "y": y}


def panels(report: wr.Report) -> list[dict[str, str]]:
    return [describe(p) for b in report.blocks if isinstance(b, wr.PanelGrid) for p in b.panels]


def outline(report: wr.Report, profile: str) -> str:
    """Markdown: the report's headings, text, run sets (filters, grouping) and panels, in order."""
    lines = [f"# W&B report: {report.title}", "",
             f"Project `{report.entity or '<default entity>'}/{report.project}`. {report.description}. This is the "
             "offline outline of the report; `WANDB_MODE=online` with an API key saves it to W&B "
             f"(`python -m sparselab.reports.wandb_report <paper> --profile {profile}`).", ""]
    for b in report.blocks:
        if isinstance(b, (wr.H1, wr.H2)):
            lines += [f"{'##' if isinstance(b, wr.H1) else '###'} {b.text}", ""]
        elif isinstance(b, wr.P):
            lines += [b.text if isinstance(b.text, str) else str(b.text), ""]
        elif isinstance(b, wr.PanelGrid):
            for rs in b.runsets:
                group = f"; grouped by {', '.join(f'`{g}`' for g in rs.groupby)}" if rs.groupby else ""
                lines.append(f"- run set **{rs.name}**: `{rs.filters}`{group}")
            lines += ["", "| panel | title | x | y |", "|---|---|---|---|"]
            lines += [f"| {d['type']} | {d['title']} | `{d['x']}` | `{d['y']}` |" if d["x"]
                      else f"| {d['type']} | {d['title']} | – | `{d['y']}` |" for d in map(describe, b.panels)]
            lines.append("")
    return "\n".join(lines)


def publish(report: wr.Report) -> str:
    """Save the report to W&B (needs a login) and return its URL."""
    return report.save().url


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paper", choices=list(PAPERS))
    ap.add_argument("--profile", default="cpu", choices=list(PROFILES))
    ap.add_argument("--entity", default=os.environ.get("WANDB_ENTITY", ""),
                    help="W&B entity (default: WANDB_ENTITY, else your default entity when online)")
    ap.add_argument("--project", default=os.environ.get("WANDB_PROJECT", "sparselab"))
    ap.add_argument("--out", default=None, help="outline directory (default reports/<paper>/<profile>)")
    args = ap.parse_args(argv)
    online = os.environ.get("WANDB_MODE", "offline").lower() not in OFFLINE_MODES
    report = build(args.paper, args.profile, args.entity, args.project)
    path = Path(report_dir(args.paper, args.profile, args.out)) / "wandb_report.md"
    path.write_text(outline(report, args.profile) + "\n", encoding="utf-8")
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
    except Exception as err:  # noqa: BLE001 - any W&B failure: say so, the outline is written
        print(f"error: could not save the W&B report ({type(err).__name__}: {err})", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
