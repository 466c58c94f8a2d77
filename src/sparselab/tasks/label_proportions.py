"""Label-proportion estimation on synthetic documents (Martins & Astudillo 2016, Figure 3).

A linear model on standardised word frequencies is trained with the softmax loss (fy_loss,
alpha=1) or the sparsemax loss (alpha=2) against the documents' label proportions; its predicted
distribution is softmax(z) or sparsemax(z). Test metrics, averaged over documents:

- ``mse``: squared Euclidean distance sum_k (p_k - q_k)^2 between predicted and true proportions;
- ``js``: Jensen-Shannon divergence (natural log) between them.

L2 is chosen by ``task.cv_folds``-fold CV on the training documents, separately for each metric
(the L2 minimising the CV MSE is used for the test MSE, likewise for JS). One job runs every seed
in ``task.seeds`` (each seed draws new word distributions and documents) and reports the mean and
standard deviation over seeds.
"""
from __future__ import annotations

import logging
import time

import numpy as np
import torch

from sparselab import analysis
from sparselab.data import mulan, synthetic
from sparselab.errors import ConfigError
from sparselab.models import linear
from sparselab.engine.overrides import check_no_mapping

log = logging.getLogger("sparselab")
LIGHTNING = False    # fits without Lightning: the engine does not import it (3 s a process)

METRICS = ("mse", "js")
# The paper's protocol for Figure 3: L2 in {10^j : j = -9..0} by 5-fold CV, 1200 / 1000 documents.
PAPER_L2_GRID = [10.0 ** j for j in range(-9, 1)]
PAPER_CV_FOLDS = 5
PAPER_DOCUMENTS = (1200, 1000)
LABEL_COUNTS = (f"Poisson({synthetic.LABEL_COUNT_MEAN:g}) by rejection sampling (redrawn while 0 or > K), "
                "i.e. truncated to {1..K}")


def js_divergence(P: np.ndarray, Q: np.ndarray) -> np.ndarray:
    """Per-row Jensen-Shannon divergence (natural log, in [0, log 2]): ``sparselab.analysis``'s, in float64."""
    return analysis.js_divergence(torch.from_numpy(np.asarray(P, dtype=np.float64)),
                                  torch.from_numpy(np.asarray(Q, dtype=np.float64))).numpy()


def proportion_metrics(P: np.ndarray, Q: np.ndarray) -> dict[str, float]:
    return {"mse": float(np.mean(np.sum((P - Q) ** 2, axis=1))), "js": float(np.mean(js_divergence(P, Q)))}


def one_seed(K: int, length: float, mixture: str, seed: int, loss: str, dcfg, tcfg, ctx) -> dict:
    train, test, _ = synthetic.make_dataset(K, length, mixture, seed, int(dcfg.n_train), int(dcfg.n_test),
                                            float(dcfg.word_concentration))
    Xtr, Qtr = synthetic.frequencies(train.counts), train.proportions
    Xte, Qte = synthetic.frequencies(test.counts), test.proportions
    n = Xtr.shape[0]
    l2_desc = sorted((float(x) for x in tcfg.l2_grid), reverse=True)
    max_iter = int(tcfg.max_iter)

    def on_fit(model, n_rows):
        ctx.samples_seen += model.n_iter * n_rows

    oof = linear.cv_path(Xtr, lambda tr: (None, Qtr[tr]), loss, l2_desc,
                         mulan.kfold_indices(n, int(tcfg.cv_folds), seed), max_iter,
                         output=lambda Z: linear.distribution(Z, loss), on_fit=on_fit)
    cv = {l2: proportion_metrics(oof[l2], Qtr) for l2 in l2_desc}
    chosen = {m: min(l2_desc, key=lambda l2: (cv[l2][m], -l2)) for m in METRICS}  # ties: larger L2
    test_at = {}
    for l2, model, D_te in linear.refit_path(Xtr, Xte, None, Qtr, loss, l2_desc, min(chosen.values()), max_iter,
                                             on_fit=on_fit):
        if l2 in chosen.values():
            test_at[l2] = proportion_metrics(linear.distribution(model.scores(D_te), loss), Qte)
    out = {m: test_at[chosen[m]][m] for m in METRICS}
    out.update({f"l2_{m}": chosen[m] for m in METRICS})
    out.update({f"cv_{m}": cv[chosen[m]][m] for m in METRICS})
    out["mean_labels_per_doc"] = float(train.n_labels.mean())
    out["mean_length"] = float(train.lengths.mean())
    return out


def run(cfg, ctx) -> dict:
    tcfg, dcfg = cfg.task, cfg.data
    check_no_mapping(cfg)
    loss = str(tcfg.loss)
    if loss not in ("softmax", "sparsemax"):
        raise ConfigError(f"task.loss={loss!r} is unknown for label proportions; valid: softmax, sparsemax")
    K, length, mixture = int(dcfg.num_labels), float(dcfg.length), str(dcfg.mixture)
    seeds = [int(s) for s in tcfg.seeds]
    per_seed = []
    for i, seed in enumerate(seeds):
        t0, c0 = time.time(), time.process_time()
        r = one_seed(K, length, mixture, seed, loss, dcfg, tcfg, ctx)
        r["seed"], r["time_s"], r["cpu_time_s"] = seed, round(time.time() - t0, 2), round(time.process_time() - c0, 2)
        per_seed.append(r)
        ctx.log_metrics({"test/mse": r["mse"], "test/js": r["js"]}, i)
        log.info("K=%d L=%g %s %s seed %d: mse=%.5f js=%.5f (%.1fs)", K, length, mixture, loss, seed,
                 r["mse"], r["js"], r["time_s"])
    metrics = {}
    for m in METRICS:
        vals = np.array([r[m] for r in per_seed])
        metrics[m] = float(vals.mean())
        metrics[f"{m}_std"] = float(vals.std(ddof=1)) if len(vals) > 1 else 0.0
    reductions = []
    grid = sorted(float(x) for x in tcfg.l2_grid)
    if len(grid) != len(PAPER_L2_GRID) or not np.allclose(grid, PAPER_L2_GRID, rtol=1e-9, atol=0):
        reductions.append(f"L2 grid {grid} instead of the paper's {{10^j : j = -9..0}}")
    if (int(dcfg.n_train), int(dcfg.n_test)) != PAPER_DOCUMENTS:
        reductions.append(f"{int(dcfg.n_train)} train / {int(dcfg.n_test)} test documents instead of "
                          f"{PAPER_DOCUMENTS[0]} / {PAPER_DOCUMENTS[1]}")
    if int(tcfg.cv_folds) != PAPER_CV_FOLDS:
        reductions.append(f"{int(tcfg.cv_folds)}-fold CV instead of the paper's {PAPER_CV_FOLDS}")
    best = {f"l2_{m}_seed{r['seed']}": r[f"l2_{m}"] for r in per_seed for m in METRICS}
    extra = {"K": K, "length": length, "mixture": mixture, "loss": loss, "seeds": seeds,
             "n_train": int(dcfg.n_train), "n_test": int(dcfg.n_test), "l2_grid": [float(x) for x in tcfg.l2_grid],
             "cv_folds": int(tcfg.cv_folds), "label_counts": LABEL_COUNTS, "per_seed": per_seed,
             "std": "sample standard deviation over seeds (ddof=1)", "reductions": reductions}
    return {"metrics": metrics, "best": best, "extra": extra}
