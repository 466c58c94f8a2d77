"""The W&B panels of Correia, Niculae & Martins (2019): one block list per artefact."""
from __future__ import annotations

import wandb_workspaces.reports.v2 as wr
from wandb_workspaces import expr

from sparselab.analysis.head_summary import KINDS

from .figures import TITLES as KIND_TITLES
from ..wandb_report import STEP, hist, images, runset, table

TITLE = "Correia, Niculae & Martins 2019: adaptively sparse Transformers"
# selected by task (both experiments), split by direction and by the normalizer the group `mapping` chose: attn_alpha
# 1.0 / 1.5 (softmax, 1.5-entmax), a learnable attn_normalizer (α-entmax), a learnable output_normalizer (output α)
CORREIA_TASK = "transformer_translation"
CORREIA_NORMALIZER = ["config.data.pair", "config.mapping.attn_alpha", "config.mapping.attn_normalizer.learnable",
                      "config.model.output_normalizer.learnable"]


def blocks(ctx: dict) -> list:
    runs = [runset(ctx, "correia2019", expr.Config("task.name") == CORREIA_TASK, groupby=CORREIA_NORMALIZER)]

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
        wr.PanelGrid(runsets=runs, panels=[hist(f"alpha_hist/{k}", f"α histogram: {KIND_TITLES[k]}") for k in KINDS]
                     + [table("heads/alpha_density")]),
        wr.H1("Figure 6: Jensen–Shannon head diversity per layer"),
        wr.PanelGrid(runsets=runs, panels=per_kind("js", "JS")),
        wr.H1("Figures 4 and 5: sparsity (head density per layer)"),
        wr.P("Share of nonzero attention weights among the possible cells, per layer (density/<kind>/l<layer>)."),
        wr.PanelGrid(runsets=runs, panels=per_kind("density", "head density") + [
            hist(f"density_hist/{k}", f"head density histogram: {KIND_TITLES[k]}") for k in KINDS]),
        wr.H1("Attention maps"),
        wr.P("Every head of the last layer for the first validation sentence, per attention type, at each "
             "validation."),
        wr.PanelGrid(runsets=runs, panels=[images("attention/maps", "attention maps (last layer)")]),
    ]
