"""The W&B panels of Martins & Astudillo (2016): one block list per artefact."""
from __future__ import annotations

import wandb_workspaces.reports.v2 as wr
from wandb_workspaces import expr

from ..wandb_report import STEP, group, hist, images, runset, table, vs

TITLE = "Martins & Astudillo 2016: sparsemax loss"


def blocks(ctx: dict) -> list:
    table2 = "martins2016/table2_multilabel"
    fig3 = "martins2016/figure3_label_proportions"
    blocks = [wr.H1("Table 2: multi-label classification"),
              wr.P("Test micro- and macro-F1 per dataset, one bar per (dataset, loss): logistic, softmax, sparsemax."),
              wr.PanelGrid(runsets=[group(ctx, table2, groupby=["config.data.name", "config.task.loss"])], panels=[
                  wr.BarPlot(title="micro-F1 by dataset and loss", metrics=["micro_f1"]),
                  wr.BarPlot(title="macro-F1 by dataset and loss", metrics=["macro_f1"]),
                  wr.ParallelCoordinatesPlot(title="dataset, loss, F1", columns=[
                      wr.ParallelCoordinatesPlotColumn(metric=wr.Config(c)) for c in ("data.name", "task.loss")] + [
                      wr.ParallelCoordinatesPlotColumn(metric=wr.SummaryMetric(m)) for m in ("micro_f1", "macro_f1")]),
              ]),
              wr.H1("Figure 3: label proportions against document length"),
              wr.P("Mean over seeds of the test MSE and JS divergence, softmax against sparsemax loss.")]
    for K in (10, 50):
        rs = runset(ctx, f"{fig3} K={K}", expr.Metric("Group") == fig3, expr.Config("data.num_labels") == K,
                     groupby=["config.task.loss", "config.data.mixture"])
        blocks.append(wr.PanelGrid(runsets=[rs], panels=[
            vs("data.length", "mse", f"K={K}: MSE vs length"), vs("data.length", "js", f"K={K}: JS vs length"),
            table("label_proportions/per_seed")]))
    snli = [group(ctx, "martins2016/table3_snli", groupby=["config.task.attention", "config.task.l2"])]
    blocks += [wr.H1("Table 3: SNLI accuracy by attention"),
               wr.P("No, logistic, soft (softmax), sparse (sparsemax), 1.5-entmax and learned-α attention; the L2 "
                    "is chosen per variant on dev accuracy by the Markdown report."),
               wr.PanelGrid(runsets=snli, panels=[
                   wr.BarPlot(title="SNLI test accuracy by attention and L2", metrics=["test_acc"]),
                   wr.BarPlot(title="SNLI dev accuracy by attention and L2", metrics=["dev_acc"]),
                   vs("task.l2", "attended_words", "attended premise words vs L2"),
                   wr.LinePlot(title="SNLI dev accuracy (learning curves)", x=STEP, y=["val_acc"]),
                   hist("attended_words_hist", "attended premise words per pair (validation)"),
                   wr.LinePlot(title="learned attention α", x=STEP, y=["alpha/attention.normalizer"])]),
               wr.H2("Table 4: attention over the premise, example pairs"),
               wr.P("The paper's four dev pairs and the first test pairs: every premise word with its weight."),
               wr.PanelGrid(runsets=snli, panels=[table("examples/snli_attention"),
                                                 images("attention/examples", "attention heatmaps")])]
    return blocks
