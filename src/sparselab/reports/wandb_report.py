"""W&B Reports of every paper's sweeps, built with the official ``wandb-workspaces`` library.

``python -m sparselab.reports.wandb_report <paper> [--profile P] [--entity E] [--project P] [--out DIR]``
(``make wandb-report PAPER=peters2019 PROFILE=cpu``)

* Offline (``WANDB_MODE`` unset, ``offline`` or ``disabled``; the project's default): builds the
  ``wandb_workspaces.reports.v2.Report`` and writes an outline of its blocks and panels to
  ``reports/<paper>/<profile>/wandb_report.md``. Serialising or saving a report resolves its run sets through the
  W&B API, which needs a login (STACK.md), so offline the outline is all there is.
* Online (``WANDB_MODE=online`` and an API key): writes the outline too, saves the report and prints its URL.

Run sets select runs by W&B group (the experiment name, ``engine.wandb_run``) and ``profile.name``. The panels
plot what the runs log, one key per quantity: Lightning logs ``train_loss``, ``val_loss``, ``val_acc`` against
``trainer/global_step``; the engine writes a record's final metrics into the run summary (``acc``, ``bleu``,
``bleu_tok``, ``attn_support``, ``mse``, ``micro_f1`` ...) and its example tables (``examples/inflection``,
``examples/autocomplete``, ``examples/snli_attention``, ``label_proportions/per_seed``) and the SNLI attention
figure (``attention/examples``) at the end (``sparselab.engine.media``); at every validation
:class:`sparselab.training.validation_media.ValidationMedia` logs histograms (``alpha_hist/<kind>``, ``density_hist/<kind>``,
``attn_support_hist``, ``out_support_hist``, ``attended_words_hist``), the attention maps of fixed validation
sentences (``attention/maps``) and a learned attention α (``alpha/attention.normalizer``); the Correia task logs
``js/<kind>/l<layer>`` and ``density/<kind>/l<layer>``
(:class:`sparselab.training.transformer_module.TransformerModule`) and ``alpha/<kind>/l<layer>/h<head>``
(:class:`sparselab.training.alpha_trajectory.AlphaTrajectory`).

:func:`panel_keys` names the logged key each panel reads (the outline lists them);
``tests/test_wandb_panels.py`` checks every one against offline smoke runs (:func:`logged_keys` reads a run's
``.wandb`` file back with ``wandb leet inspect --json``).
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Callable, Sequence

import wandb_workspaces.reports.v2 as wr
from wandb_workspaces import expr

from sparselab.analysis.head_summary import KINDS
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


def _hist(key: str, title: str) -> wr.LinePlot:
    """A histogram logged at every validation: W&B draws a histogram key over steps as a heatmap."""
    return wr.LinePlot(title=title, x=STEP, y=[key])


def _images(key: str, title: str) -> wr.MediaBrowser:
    return wr.MediaBrowser(title=title, media_keys=[key], num_columns=1)


def _table(key: str) -> wr.WeavePanelSummaryTable:
    return wr.WeavePanelSummaryTable(table_name=key)


# ---------------------------------------------------------------- the papers
def martins2016(ctx: dict) -> list:
    table2 = "martins2016/table2_multilabel"
    fig3 = "martins2016/figure3_label_proportions"
    blocks = [wr.H1("Table 2: multi-label classification"),
              wr.P("Test micro- and macro-F1 per dataset, one bar per (dataset, loss): logistic, softmax, sparsemax."),
              wr.PanelGrid(runsets=[_group(ctx, table2, groupby=["config.data.name", "config.task.loss"])], panels=[
                  wr.BarPlot(title="micro-F1 by dataset and loss", metrics=["micro_f1"]),
                  wr.BarPlot(title="macro-F1 by dataset and loss", metrics=["macro_f1"]),
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
            _vs("data.length", "mse", f"K={K}: MSE vs length"), _vs("data.length", "js", f"K={K}: JS vs length"),
            _table("label_proportions/per_seed")]))
    snli = [_group(ctx, "martins2016/table3_snli", groupby=["config.task.attention", "config.task.l2"])]
    blocks += [wr.H1("Table 3: SNLI accuracy by attention"),
               wr.P("No, logistic, soft (softmax), sparse (sparsemax), 1.5-entmax and learned-α attention; the L2 "
                    "is chosen per variant on dev accuracy by the Markdown report."),
               wr.PanelGrid(runsets=snli, panels=[
                   wr.BarPlot(title="SNLI test accuracy by attention and L2", metrics=["test_acc"]),
                   wr.BarPlot(title="SNLI dev accuracy by attention and L2", metrics=["dev_acc"]),
                   _vs("task.l2", "attended_words", "attended premise words vs L2"),
                   wr.LinePlot(title="SNLI dev accuracy (learning curves)", x=STEP, y=["val_acc"]),
                   _hist("attended_words_hist", "attended premise words per pair (validation)"),
                   wr.LinePlot(title="learned attention α", x=STEP, y=["alpha/attention.normalizer"])]),
               wr.H2("Table 4: attention over the premise, example pairs"),
               wr.P("The paper's four dev pairs and the first test pairs: every premise word with its weight."),
               wr.PanelGrid(runsets=snli, panels=[_table("examples/snli_attention"),
                                                 _images("attention/examples", "attention heatmaps")])]
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
            _vs("mapping.alpha", "exact_share", "exact beam share vs output α"),
            _hist("attn_support_hist", "attended positions per target character (validation)"),
            _hist("out_support_hist", "output support per target character (validation)"),
            _images("attention/maps", "attention maps of fixed validation words"),
            wr.LinePlot(title="learned attention α (mapping=learnable)", x=STEP, y=["alpha/attention.normalizer"])]),
        wr.H2("Figure 1: output sets of inflection examples"),
        wr.P("Every form the beam finished for the first dev word of each language, with its probability."),
        wr.PanelGrid(runsets=table1, panels=[_table("examples/inflection")]),
        wr.H1("Table 2: translation BLEU against α"),
        wr.PanelGrid(runsets=mt, panels=[
            _vs("mapping.alpha", "bleu", "BLEU vs α"),
            wr.BarPlot(title="BLEU by direction and α", metrics=["bleu"]),
            _vs("mapping.alpha", "attn_support", "attended positions vs α"),
            _vs("mapping.alpha", "out_support", "output support vs α"),
            _vs("mapping.alpha", "train_tgt_tokens_per_s", "training target tokens/s vs α"),
            wr.LinePlot(title="dev token accuracy", x=STEP, y=["val_acc"]),
            _hist("attn_support_hist", "attended positions per target token (validation)"),
            _hist("out_support_hist", "output support per target token (validation)")]),
        wr.H2("Figure 2: autocomplete sets"),
        wr.P("At each step of a forced test reference, every target token with nonzero probability."),
        wr.PanelGrid(runsets=mt, panels=[_table("examples/autocomplete")]),
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
            wr.BarPlot(title="test tokenized BLEU by normalizer", metrics=["bleu_tok"]),
            wr.BarPlot(title="test SacreBLEU by normalizer", metrics=["bleu"]),
            wr.LinePlot(title="validation loss", x=STEP, y=["val_loss"]),
            wr.LinePlot(title="validation accuracy", x=STEP, y=["val_acc"]),
            wr.ScatterPlot(title="test tokenized BLEU vs output α", x=wr.SummaryMetric("output_alpha"),
                           y=wr.SummaryMetric("bleu_tok")),
            wr.ScatterPlot(title="best validation accuracy vs output α", x=wr.SummaryMetric("output_alpha"),
                           y=wr.SummaryMetric("val_acc_best"))]),
        wr.H1("Figure 2: α trajectories"),
        wr.P("Every head's learned α over training steps (alpha/<kind>/l<layer>/h<head>)."),
        wr.PanelGrid(runsets=runs, panels=per_kind("alpha", "α")),
        wr.H1("Figure 3: learned α histograms"),
        wr.P("Every head's α per attention type, at each validation (alpha_hist/<kind>); the table has every "
             "head's α at the start and the end of training and its density after training."),
        wr.PanelGrid(runsets=runs, panels=[_hist(f"alpha_hist/{k}", f"α histogram: {KIND_TITLES[k]}") for k in KINDS]
                     + [_table("heads/alpha_density")]),
        wr.H1("Figure 6: Jensen–Shannon head diversity per layer"),
        wr.PanelGrid(runsets=runs, panels=per_kind("js", "JS")),
        wr.H1("Figures 4 and 5: sparsity (head density per layer)"),
        wr.P("Share of nonzero attention weights among the possible cells, per layer (density/<kind>/l<layer>)."),
        wr.PanelGrid(runsets=runs, panels=per_kind("density", "head density") + [
            _hist(f"density_hist/{k}", f"head density histogram: {KIND_TITLES[k]}") for k in KINDS]),
        wr.H1("Attention maps"),
        wr.P("Every head of the last layer for the first validation sentence, per attention type, at each "
             "validation."),
        wr.PanelGrid(runsets=runs, panels=[_images("attention/maps", "attention maps (last layer)")]),
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
def panel_keys(panel) -> list[tuple[str, str]]:
    """``[(where, key)]`` a panel reads: ``where`` is ``config`` (a config value), ``summary`` (the run summary),
    ``history`` (logged over steps: scalars, histograms, images, tables) or ``regex`` (every history key that
    matches). The x-axis ``trainer/global_step`` is Lightning's and left out."""
    def one(m, default: str) -> tuple[str, str]:
        if isinstance(m, wr.Config):
            return "config", m.name
        if isinstance(m, wr.SummaryMetric):
            return "summary", m.name
        return default, m.name if isinstance(m, wr.Metric) else str(m)

    if isinstance(panel, wr.LinePlot):
        return [("regex", panel.metric_regex)] if panel.metric_regex else [one(y, "history") for y in panel.y]
    if isinstance(panel, wr.ScatterPlot):
        return [one(panel.x, "summary"), one(panel.y, "summary")]
    if isinstance(panel, wr.BarPlot):
        return [one(m, "summary") for m in panel.metrics]
    if isinstance(panel, wr.ParallelCoordinatesPlot):
        return [one(c.metric, "summary") for c in panel.columns]
    if isinstance(panel, wr.ScalarChart):
        return [one(panel.metric, "summary")]
    if isinstance(panel, wr.MediaBrowser):
        return [("history", k) for k in panel.media_keys]
    if isinstance(panel, wr.WeavePanelSummaryTable):
        return [("history", panel.table_name)]
    raise TypeError(f"panel type {type(panel).__name__}: panel_keys does not know what it reads")


def _metric(m) -> str:
    if isinstance(m, wr.Config):
        return f"config.{m.name}"
    if isinstance(m, wr.SummaryMetric):
        return f"summary.{m.name}"
    return m.name if isinstance(m, wr.Metric) else str(m)


def describe(panel) -> dict[str, str]:
    """``{type, title, x, y, reads}`` of a panel: what it plots, with metric names as the runs log them, and the
    logged keys it reads (:func:`panel_keys`)."""
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
    elif isinstance(panel, wr.MediaBrowser):
        y = ", ".join(panel.media_keys)
    elif isinstance(panel, wr.WeavePanelSummaryTable):
        y = panel.table_name
    title = panel.title if getattr(panel, "title", None) else (
        f"table {panel.table_name}" if isinstance(panel, wr.WeavePanelSummaryTable) else "")
    reads = ", ".join(f"{k} ({where})" for where, k in panel_keys(panel))
    return {"type": kind, "title": title, "x": x, "y": y, "reads": reads}


def panels(report: wr.Report) -> list[dict[str, str]]:
    return [describe(p) for b in report.blocks if isinstance(b, wr.PanelGrid) for p in b.panels]


def outline(report: wr.Report, profile: str) -> str:
    """Markdown: the report's headings, text, run sets (filters, grouping) and panels, in order, each panel with
    the logged keys it reads."""
    lines = [f"# W&B report: {report.title}", "",
             f"Project `{report.entity or '<default entity>'}/{report.project}`. {report.description}. This is the "
             "offline outline of the report; `WANDB_MODE=online` with an API key saves it to W&B "
             f"(`.venv/bin/python -m sparselab.reports.wandb_report <paper> --profile {profile}`), after the offline "
             "runs are synced (`.venv/bin/wandb sync <runs folder>/<profile>/*/*/*/wandb/offline-run-*`). The last "
             "column names each panel's logged keys: history (logged over steps), summary (a run's final metrics), "
             "config.", ""]
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


# ---------------------------------------------------------------- what an offline run logged
def logged_keys(run_dir: str | Path) -> dict[str, set[str]]:
    """``{key: kinds}`` of what an offline W&B run (``.../wandb/offline-run-*``) logged, read back from its
    ``.wandb`` file with ``wandb leet inspect --json`` (the CLI's record dump). Kinds: ``config`` (every leaf of
    the run config, dotted), ``summary``, ``history`` (any key logged over steps), and the media type of a
    history value (``image-file``, ``histogram``, ``table-file``). Media values come flattened in the dump
    (``<key>._type``, ``<key>.path``, ...) and are read back as their key."""
    import json
    import subprocess

    exe = Path(sys.executable).with_name("wandb")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "wandb"]
    out = subprocess.run([*cmd, "leet", "inspect", "--json", str(run_dir)], capture_output=True, text=True,
                         check=True, timeout=120).stdout
    keys: dict[str, set[str]] = {}

    def add(key: str, kind: str) -> None:
        keys.setdefault(key, set()).add(kind)

    def config(d: dict, prefix: str = "") -> None:
        for k, v in d.items():
            if isinstance(v, dict) and v and not k.startswith("_"):
                config(v, f"{prefix}{k}.")
            elif not k.startswith("_"):
                add(f"{prefix}{k}", "config")

    for line in out.splitlines():
        rec = json.loads(line)
        kind = rec.get("type")
        if kind == "run":
            config((rec["run"].get("config") or {}).get("update") or {})
        elif kind == "config":
            config(rec["config"].get("update") or {})
        elif kind in ("history", "summary"):
            item = rec[kind].get("item") or rec[kind].get("update") or {}
            # the dump flattens a media value into "<key>._type", "<key>.path", ...: one key of that media type
            media = {k[: -len("._type")]: v for k, v in item.items() if k.endswith("._type")}
            for k in item:
                base = next((m for m in media if k.startswith(m + ".")), None)
                if not k.startswith("_") and base is None:
                    add(k, kind)
            for k, v in media.items():
                add(k, kind)
                add(k, str(v))
    return keys


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
    online = (os.environ.get("WANDB_MODE") or "offline").lower() not in OFFLINE_MODES   # unset or empty: offline
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
    except Exception as err:
        print(f"error: could not save the W&B report ({type(err).__name__}: {err})", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
