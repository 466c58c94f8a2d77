"""Multi-label classification with linear models (Martins & Astudillo 2016, Table 2).

Three losses (``task.loss``):

- ``logistic``: one-vs-rest binary logistic loss; predict label j when sigmoid(z_j) > delta;
- ``softmax``: cross-entropy against the uniform distribution over the gold labels; predict
  label j when softmax(z)_j > p0;
- ``sparsemax``: sparsemax loss against the same target; predict the support of sparsemax(t * z).

Examples without labels are removed from train and test by the data layer (``mulan.load``, as in
the paper), so no loss trains on them and no metric scores them; the run record counts them per
file (``extra.unlabelled_removed``) and this task refuses a split that still has one.

Protocol: features standardised with training statistics; L-BFGS up to ``task.max_iter``
iterations; ``task.cv_folds``-fold CV on the training set chooses (L2, threshold) jointly by
``task.cv_objective`` (default: the mean of micro-F1 and macro-F1, computed on the pooled
out-of-fold predictions). Thresholds are tuned on the CV scores without retraining; the L2 path
is warm-started from the strongest penalty. The chosen model is refit on the whole training set.

Metrics (fractions in [0, 1]): ``micro_f1``; ``macro_f1`` as in the authors' code, i.e. the
harmonic mean of macro-averaged precision and macro-averaged recall; ``label_f1`` the mean of
the per-label F1 scores. A 0/0 precision, recall or F1 counts as 0.

Noise: each split's record keeps micro- and macro-F1 on ``BOOTSTRAP_SAMPLES`` resamples of its test examples
(``per_split[i].bootstrap``), drawn from a seed that depends on the split only, so the report can compare two losses
replicate by replicate (a paired bootstrap).
"""
from __future__ import annotations

import logging
import time
from collections import deque

import numpy as np
from omegaconf import OmegaConf

from sparselab.data import mulan
from sparselab.locations import data_root
from sparselab.errors import ConfigError
from sparselab.engine.overrides import check_no_mapping
from sparselab.models import linear

log = logging.getLogger("sparselab")
LIGHTNING = False    # fits without Lightning: the engine does not import it (3 s a process)

PAPER_L2_GRID = [10.0 ** k for k in range(-8, 3)]
PAPER_CV_FOLDS = 5
# Test-set bootstrap (the per-cell noise of the report): resamples per split, and the seed of split i is [0, i].
# Constants, not config: the noise measure does not change what a job fits, so not its identity.
BOOTSTRAP_SAMPLES = 500
BOOTSTRAP_SEED = 0
CV_OBJECTIVES = ("micro_macro_mean", "micro_f1", "macro_f1")


# --------------------------------------------------------------------------------------------- metrics
def _div(a, b):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return np.divide(a, b, out=np.zeros(np.broadcast(a, b).shape), where=b > 0)


def f1_from_counts(tp, fp, fn) -> dict[str, np.ndarray]:
    """micro-F1, macro-F1 and label-F1 from per-label counts (last axis = labels; leading axes kept)."""
    tp, fp, fn = (np.asarray(x, dtype=np.float64) for x in (tp, fp, fn))
    micro = _div(2 * tp.sum(-1), 2 * tp.sum(-1) + fp.sum(-1) + fn.sum(-1))
    macro_p = _div(tp, tp + fp).mean(-1)
    macro_r = _div(tp, tp + fn).mean(-1)
    macro = _div(2 * macro_p * macro_r, macro_p + macro_r)
    label_f1 = _div(2 * tp, 2 * tp + fp + fn).mean(-1)
    return {"micro_f1": micro, "macro_f1": macro, "label_f1": label_f1,
            "macro_precision": macro_p, "macro_recall": macro_r}


def multilabel_metrics(Y_true, Y_pred) -> dict[str, float]:
    """micro-F1, macro-F1 (harmonic mean of macro-P and macro-R) and the mean per-label F1."""
    Y_true = np.asarray(Y_true, dtype=bool)
    Y_pred = np.asarray(Y_pred, dtype=bool)
    m = f1_from_counts((Y_true & Y_pred).sum(axis=0), (~Y_true & Y_pred).sum(axis=0), (Y_true & ~Y_pred).sum(axis=0))
    return {k: float(v) for k, v in m.items()}


def bootstrap_f1(Y_true, Y_pred, samples: int, seed: int | list[int]) -> dict:
    """micro- and macro-F1 on ``samples`` resamples (with replacement) of the test examples.

    The resamples depend only on (number of examples, seed), so runs of different losses on one test set draw the
    same resamples: the report pairs them replicate by replicate."""
    Y_true = np.asarray(Y_true, dtype=bool)
    Y_pred = np.asarray(Y_pred, dtype=bool)
    n = Y_true.shape[0]
    rng = np.random.default_rng(seed)
    counts = np.stack([np.bincount(rng.integers(0, n, n), minlength=n) for _ in range(samples)]).astype(np.float64)
    parts = [(Y_true & Y_pred), (~Y_true & Y_pred), (Y_true & ~Y_pred)]
    m = f1_from_counts(*(counts @ x.astype(np.float64) for x in parts))
    return {"samples": int(samples), "seed": seed,
            **{k: [round(float(v), 6) for v in m[k]] for k in ("micro_f1", "macro_f1")}}


def cv_score(m: dict[str, float], objective: str) -> float:
    if objective == "micro_macro_mean":
        return 0.5 * (m["micro_f1"] + m["macro_f1"])
    if objective in m:
        return m[objective]
    raise ValueError(f"task.cv_objective={objective!r} is unknown; valid: {', '.join(CV_OBJECTIVES)}")


# --------------------------------------------------------------------------------------------- predictions
def threshold_grid(loss: str, K: int, tcfg) -> list[float]:
    if loss == "logistic":
        return [float(x) for x in tcfg.logistic_thresholds]
    if loss == "softmax":
        return [float(m) / K for m in tcfg.softmax_p0_multiples]
    if loss == "sparsemax":
        return [float(x) for x in tcfg.sparsemax_scales]
    raise ValueError(f"task.loss={loss!r} is unknown; valid: {', '.join(linear.LOSSES)}")


def predict(Z: np.ndarray, loss: str, threshold: float) -> np.ndarray:
    """0/1 predictions: sigmoid > delta, softmax > p0, or supp(sparsemax(t * z))."""
    if loss == "sparsemax":
        return linear.distribution(Z, "sparsemax", scale=threshold) > 0
    return linear.distribution(Z, loss) > threshold


def require_labels(split: mulan.Split) -> None:
    """Every training and test example has a label (the paper's protocol; ``mulan.load`` removes the others)."""
    for part, Y in (("train", split.Y_train), ("test", split.Y_test)):
        empty = int((np.asarray(Y).sum(axis=1) == 0).sum())
        if empty:
            raise ValueError(f"split {split.name}: {empty} {part} examples without labels (mulan.load removes them)")


def targets(Y: np.ndarray, loss: str) -> np.ndarray:
    return Y.astype(np.float64) if loss == "logistic" else linear.uniform_targets(Y)


# --------------------------------------------------------------------------------------------- protocol
def select_and_evaluate(split: mulan.Split, loss: str, l2_grid, thresholds, folds: int, max_iter: int,
                        objective: str, seed: int, ctx=None, tag: str = "", split_index: int = 0) -> dict:
    """CV over (L2, threshold) on the training rows, refit at the chosen L2, test metrics."""
    require_labels(split)
    Xtr, Ytr = split.X_train, split.Y_train
    n, K = Ytr.shape
    l2_desc = sorted((float(x) for x in l2_grid), reverse=True)
    count = {"iters": 0}
    t0, c0 = time.time(), time.process_time()

    def on_fit(model, n_rows):
        count["iters"] += model.n_iter
        if ctx is not None:
            ctx.samples_seen += model.n_iter * n_rows

    def fold_targets(tr):
        return None, targets(Ytr[tr], loss)

    def on_fold(k):
        log.info("%sfold %d/%d: %d L-BFGS iterations so far, %.1fs", tag.lstrip("_") + " " if tag else "", k + 1,
                 folds, count["iters"], time.time() - t0)

    oof = linear.cv_path(Xtr, fold_targets, loss, l2_desc, mulan.kfold_indices(n, folds, seed), max_iter,
                         on_fit=on_fit, on_fold=on_fold)
    cv_time = time.time() - t0
    grid = []  # (score, l2, threshold, metrics)
    for l2 in l2_desc:
        for thr in thresholds:
            m = multilabel_metrics(Ytr, predict(oof[l2], loss, thr))
            grid.append((cv_score(m, objective), l2, thr, m))
    best_i = max(range(len(grid)), key=lambda i: (grid[i][0], -i))  # first maximum wins ties
    best_score, best_l2, best_thr, best_m = grid[best_i]
    if ctx is not None:
        for step, l2 in enumerate(l2_desc):
            s = max(g[0] for g in grid if g[1] == l2)
            ctx.log_metrics({f"cv{tag}/objective": s, f"cv{tag}/log10_l2": float(np.log10(l2))}, step)
    # refit on all training rows along the same warm-started path; its last model is at the chosen L2
    t1 = time.time()
    path = linear.refit_path(Xtr, split.X_test, None, targets(Ytr, loss), loss, l2_desc, best_l2, max_iter,
                             on_fit=on_fit)
    _, prev, D_te = deque(path, maxlen=1)[0]
    iters = count["iters"]
    Y_pred = predict(prev.scores(D_te), loss, best_thr)
    test = multilabel_metrics(split.Y_test, Y_pred)
    boot = bootstrap_f1(split.Y_test, Y_pred, BOOTSTRAP_SAMPLES, [BOOTSTRAP_SEED, split_index])
    return {
        "test": test, "l2": best_l2, "threshold": best_thr, "cv_objective": best_score,
        "cv_metrics": best_m, "n_train": int(n), "n_test": int(split.Y_test.shape[0]),
        "lbfgs_iterations": int(iters), "final_fit_converged": bool(prev.converged),
        "cv_time_s": round(cv_time, 2), "refit_time_s": round(time.time() - t1, 2),
        "cpu_time_s": round(time.process_time() - c0, 2), "bootstrap": boot,
    }


def run(cfg, ctx) -> dict:
    tcfg = cfg.task
    check_no_mapping(cfg)
    t_job, c_job = time.time(), time.process_time()   # the job's time, data loading included (the plan's budget)
    loss = str(tcfg.loss)
    if loss not in linear.LOSSES:
        raise ConfigError(f"task.loss={loss!r} is unknown; valid: {', '.join(linear.LOSSES)}")
    name = str(cfg.data.name)
    data = mulan.load(name, data_root(cfg.data.get("root")), seed=int(cfg.data.get("split_seed", 0)))
    K = len(data.label_names)
    l2_grid = [float(x) for x in tcfg.l2_grid]
    folds = int(tcfg.cv_folds)
    reductions = []
    reduced = OmegaConf.select(cfg, "task.reduced.datasets", default=None) or []
    if name in list(reduced):
        l2_grid = [float(x) for x in tcfg.reduced.l2_grid]
        folds = int(tcfg.reduced.cv_folds)
    if sorted(l2_grid) != sorted(PAPER_L2_GRID):
        reductions.append(f"{name}: L2 grid {sorted(l2_grid)} instead of the paper's decades 1e-8..1e2")
    if folds != PAPER_CV_FOLDS:
        reductions.append(f"{name}: {folds}-fold CV instead of the paper's {PAPER_CV_FOLDS}")
    thresholds = threshold_grid(loss, K, tcfg)
    per_split = []
    for i, split in enumerate(data.splits):
        tag = "" if len(data.splits) == 1 else f"_{split.name}"
        r = select_and_evaluate(split, loss, l2_grid, thresholds, folds, int(tcfg.max_iter),
                                str(tcfg.cv_objective), int(cfg.seed) + i, ctx, tag, split_index=i)
        r["split"] = split.name
        per_split.append(r)
        log.info("%s/%s %s: l2=%g thr=%g cv=%.4f test micro=%.4f macro=%.4f (%.1fs)", name, loss, split.name,
                 r["l2"], r["threshold"], r["cv_objective"], r["test"]["micro_f1"], r["test"]["macro_f1"],
                 r["cv_time_s"] + r["refit_time_s"])
    keys = per_split[0]["test"].keys()
    metrics = {k: float(np.mean([r["test"][k] for r in per_split])) for k in keys}
    metrics["cv_objective"] = float(np.mean([r["cv_objective"] for r in per_split]))
    if len(per_split) > 1:
        for k in ("micro_f1", "macro_f1", "label_f1"):
            metrics[f"{k}_std"] = float(np.std([r["test"][k] for r in per_split]))
    if len(per_split) == 1:
        best = {"l2": per_split[0]["l2"], "threshold": per_split[0]["threshold"]}
    else:
        best = {f"{k}_{r['split']}": r[k] for r in per_split for k in ("l2", "threshold")}
    threshold_name = {"logistic": "delta", "softmax": "p0", "sparsemax": "t"}[loss]
    extra = {
        "dataset": name, "loss": loss, "n_labels": K, "n_features": data.n_features, "sparse_features": data.sparse,
        "split": data.split_note, "threshold_name": threshold_name, "l2_grid": l2_grid, "thresholds": thresholds,
        "cv_folds": folds, "cv_objective": str(tcfg.cv_objective), "max_iter": int(tcfg.max_iter),
        "examples_read": data.read, "unlabelled_removed": data.removed,
        "reductions": reductions, "per_split": per_split,
        "job_time_s": round(time.time() - t_job, 1), "job_cpu_time_s": round(time.process_time() - c_job, 1),
    }
    return {"metrics": metrics, "best": best, "extra": extra}
