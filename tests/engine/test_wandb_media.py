"""The tables a finished run's record holds, the media sinks and the read-back of an offline W&B run (issue 23)."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pytest
from omegaconf import OmegaConf

from sparselab.engine import media, wandb_run
from sparselab.engine.context import RunContext
from sparselab.training import validation_media
from support import logged_keys


def test_inflection_table_has_every_output_with_its_probability():
    extra = {"examples": [{"lang": "xx", "lemma": "go", "tags": "V;PST", "gold": "went", "exact": True, "mass": 1.0,
                           "outputs": [{"form": "went", "prob": 0.75}, {"form": "goed", "prob": 0.25}]}]}
    cols, rows = media.record_tables(extra)["examples/inflection"]
    got = [dict(zip(cols, r)) for r in rows]
    assert [(g["rank"], g["output"], g["prob"], g["correct"]) for g in got] == [(1, "went", 0.75, True),
                                                                                (2, "goed", 0.25, False)]
    assert {g["set_size"] for g in got} == {2} and all(g["exact"] for g in got)


def test_autocomplete_snli_label_proportion_and_heads_tables():
    auto = [{"index": 3, "src": "ein Hund", "steps": [
        {"gold": "a", "gold_prob": 0.9, "support": 2, "candidates": [["a", 0.9], ["the", 0.1]]},
        {"gold": "dog", "gold_prob": 1.0, "support": 1, "candidates": [["dog", 1.0]]}]}]
    cols, rows = media.record_tables({"autocomplete": auto})["examples/autocomplete"]
    assert [r[cols.index("prefix")] for r in rows] == ["", "a"]
    assert rows[0][cols.index("candidates")] == "a 0.9 · the 0.1" and rows[1][cols.index("support")] == 1

    snli = [{"split": "dev", "pair_id": "p1", "premise": ["a", "dog"], "hypothesis": ["an", "animal"],
             "gold": "entailment", "pred": "entailment", "weights": [0.0, 1.0]},
            {"split": "dev", "pair_id": "p2", "premise": ["x"], "hypothesis": ["y"], "gold": "neutral",
             "pred": "neutral", "weights": None}]
    cols, rows = media.record_tables({"examples": snli})["examples/snli_attention"]
    assert len(rows) == 1 and rows[0][cols.index("premise_weights")] == "a:0.00 dog:1.00"
    assert rows[0][cols.index("attended_words")] == 1
    # no attention (task.attention=none): no table at all
    assert media.record_tables({"examples": [dict(snli[1])]}) == {}

    lp = {"K": 10, "length": 200.0, "mixture": "uniform", "loss": "sparsemax",
          "per_seed": [{"seed": 0, "mse": 0.1, "js": 0.2, "l2_mse": 1e-3, "l2_js": 1e-2}]}
    assert media.record_tables(lp)["label_proportions/per_seed"][1] == [[10, 200.0, "uniform", "sparsemax", 0, 0.1,
                                                                          0.2, 1e-3, 1e-2]]

    heads = {"heads": {"density": {"enc_self": {"0": [0.5, 1.0]}}},
             "alpha_trajectory": {"history": [{"step": 0, "alpha": {"enc_self/l0": [1.5, 1.6]}},
                                              {"step": 40, "alpha": {"enc_self/l0": [1.4, 1.9]}}]}}
    cols, rows = media.record_tables(heads)["heads/alpha_density"]
    assert rows == [["enc_self", 0, 0, 1.5, 1.4, 0.5], ["enc_self", 0, 1, 1.6, 1.9, 1.0]]
    softmax = {"heads": {"density": {"enc_self": {"0": [0.5]}}}, "alpha_trajectory": {"history": []}}
    assert media.record_tables(softmax)["heads/alpha_density"][1] == [["enc_self", 0, 0, None, None, 0.5]]


def test_heatmap_grid_places_each_map_in_its_cell():
    grid = media.heatmap_grid([[np.eye(2)], [np.zeros((3, 3)), np.ones((1, 5))]], cell=4, gap=1)
    assert grid.shape == (2 * 5 + 1, 2 * 5 + 1, 3) and grid.dtype == np.uint8
    assert (grid[0] == 255).all() and (grid[1:5, 6:10] == 255).all()      # gaps and the missing map stay white
    top_left, off_diag = grid[1, 1], grid[1, 3]                            # eye(2): weight 1 then 0
    assert top_left.sum() < off_diag.sum()                                 # darker where the weight is higher
    assert (grid[6:10, 6:10] == grid[6, 6]).all()                          # a constant map is one colour


def test_markdown_escapes_cells():
    assert media.markdown(["a", "b"], [["x|y", "1\n2"]]).splitlines()[2] == "| x\\|y | 1 2 |"


def test_no_logger_no_media_callbacks(tmp_path):
    fns = wandb_run.context_loggers(OmegaConf.create({"logger": {"backend": "none", "mode": "disabled"}}), tmp_path,
                                    None)
    assert validation_media.for_run(RunContext(tmp_path, **fns)) == [] and fns["lightning_logger_fn"]() is None


def test_media_sinks_into_an_offline_wandb_run_read_back(tmp_path):
    """Histogram, figure, image file and table through a WandbLogger; logged_keys reads each back with its type."""
    import wandb
    from lightning.pytorch.loggers import WandbLogger

    run = wandb.init(mode="offline", dir=str(tmp_path), project="t", settings=wandb.Settings(console="off"))
    try:
        fns = wandb_run.context_loggers(OmegaConf.create({"logger": {"backend": "wandb", "mode": "offline"}}),
                                        tmp_path, run)
        logger = fns["lightning_logger_fn"]()
        assert isinstance(logger, WandbLogger) and fns["lightning_logger_fn"]() is logger   # one per run
        assert [type(c).__name__ for c in validation_media.for_run(RunContext(tmp_path, **fns))] == ["ValidationMedia"]
        media.log_histogram([logger], "h", [1, 2, 2, 3], step=5)
        grid = media.heatmap_grid([[np.eye(3)], [np.zeros((2, 4)), np.ones((1, 1))]], cell=4, gap=1)
        media.log_media([logger], {"empty": media.Histogram([]), "fig": media.Picture(grid, "c"), "s": 0.5}, step=6)
        png = tmp_path / "x.png"
        plt.imsave(png, [[0.0, 1.0], [1.0, 0.0]])
        media.log_image_file([logger], "img", png)
        media.log_table([logger], "tab", ["a", "b"], [[1, "x"], [2, "y"]])
        fns["log_fn"]({"final_metric": 1.0}, None)
    finally:
        run.finish()
    [run_dir] = tmp_path.glob("wandb/offline-run-*")
    keys = logged_keys(run_dir)
    assert keys["h"] >= {"history", "histogram"} and "empty" not in keys
    assert keys["fig"] >= {"history", "image-file"} and keys["img"] >= {"history", "image-file"}
    assert "history" in keys["s"]
    assert keys["tab"] >= {"history", "table-file"} and "history" in keys["final_metric"]
    assert "history" in keys["trainer/global_step"]


def test_logged_keys_of_a_folder_that_is_no_run_fails(tmp_path):
    import subprocess

    with pytest.raises(subprocess.CalledProcessError):
        logged_keys(tmp_path)


RECORD_WITHOUT_LIGHTNING = """
import sys
from pathlib import Path
import wandb
from omegaconf import OmegaConf
from sparselab.engine import wandb_run
from sparselab.engine.context import RunContext

out = Path(sys.argv[1])
rec = {"metrics": {"mse": 0.25}, "extra": {"K": 3, "length": 20, "mixture": "m", "loss": "sparsemax",
                                          "per_seed": [{"seed": 0, "mse": 0.25, "js": 0.1}]}}
run = wandb.init(mode="offline", dir=str(out / "w"), project="t", settings=wandb.Settings(console="off"))
fns = wandb_run.context_loggers(OmegaConf.create({"logger": {"backend": "wandb", "mode": "offline"}}), out / "w", run)
wandb_run.log_record(RunContext(out / "w", **fns), run, rec)
run.finish()
fns = wandb_run.context_loggers(OmegaConf.create({"logger": {"backend": "tensorboard"}}), out / "tb", None)
ctx = RunContext(out / "tb", **fns)
ctx.log_metrics({"loss": 1.0}, 3)
wandb_run.log_record(ctx, None, rec)
assert "lightning" not in sys.modules, "a run that trained without Lightning imported it to log its record"
"""


def test_a_record_is_logged_without_importing_lightning(tmp_path):
    """A task that trains without Lightning (L-BFGS, the affix baseline) logs its record to W&B and to TensorBoard
    through the direct sinks: its table and final metric are there, and Lightning (4 CPU-s to import) never is."""
    import os
    import subprocess
    import sys

    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    proc = subprocess.run([sys.executable, "-c", RECORD_WITHOUT_LIGHTNING, str(tmp_path)], capture_output=True,
                          text=True, timeout=300, env={**os.environ, "WANDB_SILENT": "true"})
    assert proc.returncode == 0, proc.stderr[-3000:]
    [run_dir] = tmp_path.glob("w/wandb/offline-run-*")
    keys = logged_keys(run_dir)
    assert keys["label_proportions/per_seed"] >= {"history", "table-file"} and "summary" in keys["mse"]
    events = EventAccumulator(str(tmp_path / "tb" / "tensorboard"), size_guidance={"tensors": 0}).Reload()
    tags = events.Tags()
    assert {"loss", "mse"} <= set(tags["scalars"]) and "label_proportions/per_seed/text_summary" in tags["tensors"]
    assert len(list((tmp_path / "tb" / "tensorboard").glob("events.out.tfevents.*"))) == 1
