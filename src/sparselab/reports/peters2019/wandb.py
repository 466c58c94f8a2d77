"""The W&B panels of Peters, Niculae & Martins (2019): one block list per artefact."""
from __future__ import annotations

import wandb_workspaces.reports.v2 as wr

from ..wandb_report import STEP, group, hist, images, table, vs

TITLE = "Peters, Niculae & Martins 2019: sparse seq2seq"


def blocks(ctx: dict) -> list:
    table1 = [group(ctx, f"peters2019/table1_{s}", groupby=["config.mapping.alpha", "config.mapping.attn_alpha"])
              for s in ("medium", "high")]
    mt = [group(ctx, "peters2019/table2_mt", groupby=["config.data.pair", "config.mapping.alpha"])]
    return [
        wr.H1("Table 1: inflection accuracy against α"),
        wr.P("Word accuracy (test, mean over languages) for output α (loss) and attention α in {1, 1.5, 2}."),
        wr.PanelGrid(runsets=table1, panels=[
            vs("mapping.attn_alpha", "acc", "accuracy vs attention α"),
            vs("mapping.alpha", "acc", "accuracy vs output α"),
            wr.ParallelCoordinatesPlot(title="output α, attention α, accuracy", columns=[
                wr.ParallelCoordinatesPlotColumn(metric=wr.Config("mapping.alpha")),
                wr.ParallelCoordinatesPlotColumn(metric=wr.Config("mapping.attn_alpha")),
                wr.ParallelCoordinatesPlotColumn(metric=wr.SummaryMetric("acc"))]),
            wr.LinePlot(title="dev accuracy (learning curves)", x=STEP, y=["val_acc"]),
            wr.LinePlot(title="dev loss", x=STEP, y=["val_loss"])]),
        wr.H2("Sparsity"),
        wr.P("Attended source positions per target step, output support size, share of exact beams."),
        wr.PanelGrid(runsets=table1, panels=[
            vs("mapping.attn_alpha", "attn_support", "attended positions vs attention α"),
            vs("mapping.alpha", "out_support", "output support vs output α"),
            vs("mapping.alpha", "exact_share", "exact beam share vs output α"),
            hist("attn_support_hist", "attended positions per target character (validation)"),
            hist("out_support_hist", "output support per target character (validation)"),
            images("attention/maps", "attention maps of fixed validation words"),
            wr.LinePlot(title="learned attention α (mapping=learnable)", x=STEP, y=["alpha/attention.normalizer"])]),
        wr.H2("Figure 1: output sets of inflection examples"),
        wr.P("Every form the beam finished for the first dev word of each language, with its probability."),
        wr.PanelGrid(runsets=table1, panels=[table("examples/inflection")]),
        wr.H1("Table 2: translation BLEU against α"),
        wr.PanelGrid(runsets=mt, panels=[
            vs("mapping.alpha", "bleu", "BLEU vs α"),
            wr.BarPlot(title="BLEU by direction and α", metrics=["bleu"]),
            vs("mapping.alpha", "attn_support", "attended positions vs α"),
            vs("mapping.alpha", "out_support", "output support vs α"),
            vs("mapping.alpha", "train_tgt_tokens_per_s", "training target tokens/s vs α"),
            wr.LinePlot(title="dev token accuracy", x=STEP, y=["val_acc"]),
            hist("attn_support_hist", "attended positions per target token (validation)"),
            hist("out_support_hist", "output support per target token (validation)")]),
        wr.H2("Figure 2: autocomplete sets"),
        wr.P("At each step of a forced test reference, every target token with nonzero probability."),
        wr.PanelGrid(runsets=mt, panels=[table("examples/autocomplete")]),
    ]
