"""Histograms, images and tables into the run's loggers (W&B or TensorBoard: Lightning's, or the direct sinks below
for what the engine logs itself), and the tables a finished run's record holds.

:func:`log_media` writes one validation's histograms, pictures and scalars to every logger it is given, each in
that logger's own form (W&B: ``wandb.Histogram`` / ``wandb.Image`` in one row at ``trainer/global_step``;
TensorBoard: ``add_histogram`` / ``add_image`` / ``add_scalar``); :func:`log_table` writes a table (W&B: a
``wandb.Table``; TensorBoard: ``add_text`` of the table as Markdown), :func:`log_image_file` a PNG the run wrote.
Attention maps become a picture without a plotting library's figure (:func:`heatmap_grid`: a few milliseconds).
Any other logger gets nothing. :func:`record_tables` reads the example tables of a finished run from its
record's ``extra`` (inflection output sets, MT autocomplete sets, SNLI attention, label proportions per seed,
the Transformer's heads);
:func:`log_record` writes them, with the attention figure the SNLI task saved, at the end of the run
(``sparselab.engine.wandb_run.log_record``). Media at validation come from
:class:`sparselab.training.validation_media.ValidationMedia`.
"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np

# the SNLI task's attention figure of its example pairs (tasks/snli.py HEATMAP), logged under this key
FIGURE_FILES = {"heatmap": "attention/examples"}


class WandbSink:
    """A W&B run as a logger without Lightning, with ``WandbLogger``'s forms (a step goes in as
    ``trainer/global_step``), so that a task that trains without Lightning never imports it (4 CPU-s a process)."""

    def __init__(self, run):
        self.run = run

    def log_metrics(self, metrics: dict, step: int | None = None) -> None:
        self.run.log(dict(metrics) if step is None else {**metrics, "trainer/global_step": step})

    def log_table(self, key: str, columns: list, data: list, step: int | None = None) -> None:
        import wandb

        self.log_metrics({key: wandb.Table(columns=columns, data=data)}, step)

    def finalize(self, status: str) -> None:
        """The run is finished by the engine (``wandb_run.finish``), as with ``WandbLogger``."""


class TensorBoardSink:
    """TensorBoard event files in ``log_dir`` without Lightning: the ``SummaryWriter`` that ``TensorBoardLogger``
    would open there (``.experiment``), and its scalar logging."""

    def __init__(self, log_dir: Path):
        from torch.utils.tensorboard import SummaryWriter

        self.experiment = SummaryWriter(log_dir=str(log_dir))

    def log_metrics(self, metrics: dict, step: int | None = None) -> None:
        for key, value in metrics.items():
            self.experiment.add_scalar(key, float(value), global_step=step)

    def finalize(self, status: str) -> None:
        self.experiment.flush()
        self.experiment.close()


def _kind(logger) -> str | None:
    if isinstance(logger, WandbSink):
        return "wandb"
    if isinstance(logger, TensorBoardSink):
        return "tensorboard"
    loggers = sys.modules.get("lightning.pytorch.loggers")    # a Lightning logger exists only once it is imported
    if loggers is None:
        return None
    if isinstance(logger, loggers.WandbLogger):
        return "wandb"
    if isinstance(logger, loggers.TensorBoardLogger):
        return "tensorboard"
    return None


@dataclass
class Histogram:
    values: Any


@dataclass
class Picture:
    """An RGB image as an (H, W, 3) uint8 array (W&B saves a float array in [0, 1] as a black PNG, STACK.md)."""
    array: np.ndarray
    caption: str = ""


def log_media(loggers: Iterable, items: dict[str, Any], step: int) -> None:
    """Histograms, pictures and scalars of one validation, as one W&B row (one ``log`` call: cheaper than one per
    key, and every key sits at the same ``trainer/global_step``). An empty histogram is left out."""
    items = {k: v for k, v in items.items()
             if not (isinstance(v, Histogram) and np.asarray(v.values).size == 0)}
    if not items:
        return
    for lg in loggers:
        kind = _kind(lg)
        if kind == "wandb":
            import wandb

            row = {}
            for key, v in items.items():
                if isinstance(v, Histogram):
                    values = np.asarray(v.values, dtype=np.float64).reshape(-1)
                    # few distinct values (supports, α of a few heads): one bin per value
                    row[key] = wandb.Histogram(values, num_bins=min(64, max(1, len(np.unique(values)))))
                elif isinstance(v, Picture):
                    row[key] = wandb.Image(v.array, caption=v.caption or None)
                else:
                    row[key] = v
            lg.log_metrics(row, step=step)
        elif kind == "tensorboard":
            w = lg.experiment
            for key, v in items.items():
                if isinstance(v, Histogram):
                    w.add_histogram(key, np.asarray(v.values, dtype=np.float64).reshape(-1), global_step=step)
                elif isinstance(v, Picture):
                    w.add_image(key, v.array, global_step=step, dataformats="HWC")
                else:
                    w.add_scalar(key, float(v), global_step=step)


def log_histogram(loggers: Iterable, key: str, values, step: int) -> None:
    """A histogram of ``values`` (any array-like of numbers; nothing is logged when it is empty)."""
    log_media(loggers, {key: Histogram(values)}, step)


def heatmap_grid(rows: Sequence[Sequence[np.ndarray]], cell: int = 64, gap: int = 2, cmap: str = "Blues") -> np.ndarray:
    """Attention maps as one RGB uint8 picture, without a plotting library's figure: row r, column c is the map
    ``rows[r][c]`` (weights in [0, 1]) scaled to ``cell`` × ``cell`` pixels (nearest neighbour), on white."""
    import matplotlib

    colormap = matplotlib.colormaps[cmap]
    n_cols = max(len(r) for r in rows)
    out = np.full((len(rows) * (cell + gap) + gap, n_cols * (cell + gap) + gap, 3), 255, dtype=np.uint8)
    for i, maps in enumerate(rows):
        for j, m in enumerate(maps):
            m = np.asarray(m, dtype=np.float64)
            if m.size == 0:
                continue
            ys = np.arange(cell) * m.shape[0] // cell
            xs = np.arange(cell) * m.shape[1] // cell
            rgb = colormap(np.clip(m[np.ix_(ys, xs)], 0.0, 1.0))[..., :3]
            y0, x0 = gap + i * (cell + gap), gap + j * (cell + gap)
            out[y0:y0 + cell, x0:x0 + cell] = (255 * rgb).round().astype(np.uint8)
    return out


def log_image_file(loggers: Iterable, key: str, path: Path, step: int | None = None) -> None:
    """A PNG the run wrote, as an image."""
    if not Path(path).is_file():
        return
    for lg in loggers:
        kind = _kind(lg)
        if kind == "wandb":
            import wandb

            lg.log_metrics({key: wandb.Image(str(path))}, step=step)
        elif kind == "tensorboard":
            import matplotlib.image as mpimg

            img = mpimg.imread(path)[..., :3]    # RGB floats in [0, 1]
            lg.experiment.add_image(key, img, global_step=step or 0, dataformats="HWC")


def markdown(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    cell = lambda v: str(v).replace("|", "\\|").replace("\n", " ")  # noqa: E731
    lines = ["| " + " | ".join(map(cell, columns)) + " |", "|" + "---|" * len(columns)]
    return "\n".join(lines + ["| " + " | ".join(map(cell, r)) + " |" for r in rows])


def log_table(loggers: Iterable, key: str, columns: Sequence[str], rows: Sequence[Sequence[Any]],
              step: int | None = None) -> None:
    if not rows:
        return
    for lg in loggers:
        kind = _kind(lg)
        if kind == "wandb":
            lg.log_table(key=key, columns=list(columns), data=[list(r) for r in rows], step=step)
        elif kind == "tensorboard":
            lg.experiment.add_text(key, markdown(columns, rows), global_step=step or 0)


# ---------------------------------------------------------------- the tables of a finished run's record
def _prob(p: float) -> str:
    return f"{p:.4g}"


def inflection_table(examples: list[dict]) -> tuple[list[str], list[list]]:
    """Peters et al. 2019, Figure 1: every output the beam finished, with its probability, one row each."""
    cols = ["lang", "lemma", "tags", "gold", "rank", "output", "prob", "correct", "exact", "set_size"]
    rows = [[e["lang"], e["lemma"], e["tags"], e["gold"], r, o["form"], o["prob"], o["form"] == e["gold"],
             bool(e.get("exact")), len(e["outputs"])]
            for e in examples for r, o in enumerate(e["outputs"], 1)]
    return cols, rows


def autocomplete_table(examples: list[dict]) -> tuple[list[str], list[list]]:
    """Peters et al. 2019, Figure 2: at each step of a forced reference, every token with nonzero probability."""
    cols = ["sentence", "source", "step", "prefix", "gold", "gold_prob", "support", "candidates"]
    rows = []
    for e in examples:
        prefix: list[str] = []
        for i, s in enumerate(e["steps"]):
            cands = " · ".join(f"{tok} {_prob(p)}" for tok, p in s["candidates"])
            rows.append([e["index"], e["src"], i, " ".join(prefix), s["gold"], s["gold_prob"], s["support"], cands])
            prefix.append(s["gold"])
    return cols, rows


def snli_table(examples: list[dict]) -> tuple[list[str], list[list]]:
    """Martins & Astudillo 2016, Table 4: each premise word with its attention weight."""
    cols = ["split", "pair_id", "hypothesis", "gold", "pred", "attended_words", "premise_weights"]
    rows = [[e["split"], e["pair_id"], " ".join(e["hypothesis"]), e["gold"], e["pred"],
             sum(1 for w in e["weights"] if w > 0),
             " ".join(f"{word}:{w:.2f}" for word, w in zip(e["premise"], e["weights"]))]
            for e in examples if e.get("weights") is not None]
    return cols, rows


def label_proportions_table(extra: dict) -> tuple[list[str], list[list]]:
    """Martins & Astudillo 2016, Figure 3: this run's point of the curves (test MSE and JS per seed)."""
    cols = ["K", "length", "mixture", "loss", "seed", "mse", "js", "l2_mse", "l2_js"]
    rows = [[extra["K"], extra["length"], extra["mixture"], extra["loss"], r["seed"], r["mse"], r["js"],
             r.get("l2_mse"), r.get("l2_js")] for r in extra["per_seed"]]
    return cols, rows


def heads_table(extra: dict) -> tuple[list[str], list[list]]:
    """Correia et al. 2019, Figures 3-5 per head: its α at the first and the last record of the trajectory (none
    for a fixed normalizer) and its density on the validation set after training."""
    hist = (extra.get("alpha_trajectory") or {}).get("history") or []
    first, last = (hist[0]["alpha"], hist[-1]["alpha"]) if hist else ({}, {})
    cols = ["kind", "layer", "head", "alpha_start", "alpha_end", "density"]
    rows = []
    for kind, layers in extra["heads"]["density"].items():
        for layer, heads in sorted(layers.items(), key=lambda kv: int(kv[0])):
            site = f"{kind}/l{layer}"
            for h, d in enumerate(heads):
                a0, a1 = first.get(site), last.get(site)
                rows.append([kind, int(layer), h, a0[h] if a0 else None, a1[h] if a1 else None, d])
    return cols, rows


def record_tables(extra: dict) -> dict[str, tuple[list[str], list[list]]]:
    """``{key: (columns, rows)}`` of the example tables in a record's ``extra`` (empty for other tasks)."""
    out = {}
    examples = extra.get("examples") or []
    if examples and "outputs" in examples[0]:
        out["examples/inflection"] = inflection_table(examples)
    elif examples and "weights" in examples[0]:
        cols, rows = snli_table(examples)
        if rows:
            out["examples/snli_attention"] = (cols, rows)
    if extra.get("autocomplete"):
        out["examples/autocomplete"] = autocomplete_table(extra["autocomplete"])
    if isinstance(extra.get("heads"), dict) and extra["heads"].get("density"):
        out["heads/alpha_density"] = heads_table(extra)
    if extra.get("per_seed") and "K" in extra:
        out["label_proportions/per_seed"] = label_proportions_table(extra)
    return out


def log_record(loggers: Sequence, rec: dict, run_dir: Path) -> None:
    """The tables and figures of a finished run's record into ``loggers``."""
    extra = rec.get("extra") or {}
    for key, (cols, rows) in record_tables(extra).items():
        # W&B Tables hold JSON-able cells; a record's cells are plain already, but make sure
        log_table(loggers, key, cols, json.loads(json.dumps(rows, default=str)))
    for field, key in FIGURE_FILES.items():
        if extra.get(field):
            log_image_file(loggers, key, Path(run_dir) / extra[field])
