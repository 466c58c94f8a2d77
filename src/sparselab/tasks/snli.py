"""Task ``snli``: Martins & Astudillo (2016) §4.3, natural language inference with attention (Table 3, Table 4).

One job trains :class:`sparselab.models.nli.NLIClassifier` with one attention variant (``task.attention``,
whose normaliser module ``task.normalizers[variant]`` is instantiated with Hydra) and one L2 penalty
(``task.l2``) on SNLI, keeps the state with the best dev accuracy (ModelCheckpoint; EarlyStopping when
``task.early_stopping_patience`` is set), and measures with it:

* ``dev_acc`` and ``test_acc`` (%);
* attention sparsity on test: ``attended_words``, the mean number of premise words with nonzero weight, beside
  ``premise_words``, the mean premise length (for logistic attention every sigmoid is > 0, so the two agree);
* the attention weights of a few pairs (Table 4 and the heatmaps): the first ``task.examples.n_test`` test
  pairs and the dev pairs listed in ``task.examples.dev_pair_ids``; drawn as a heatmap that is saved in the
  run directory and logged to W&B as an image.

The L2 penalty is chosen across jobs by the report (``sparselab.reports.martins2016.table3``), by dev accuracy.
The record's ``extra`` holds what the report header needs: pair counts, the dropped "-" pairs, the
out-of-vocabulary rates and the vectors used.
"""
from __future__ import annotations

import logging

import torch
from omegaconf import DictConfig

from sparselab.data import glove, snli
from sparselab.data import snli_data as data
from sparselab.locations import data_root
from sparselab.engine.context import RunContext
from sparselab.errors import ConfigError
from sparselab.models import nli_build
from sparselab.tasks import settings
from sparselab.models.nli import NLIClassifier
from sparselab.engine.overrides import check_no_mapping
from sparselab.training import loop
from sparselab.training.nli_module import NLIModule

log = logging.getLogger("sparselab")
OOV_POLICY = ("a fixed random vector per word type, N(0, s²) with s the std of the found vectors' entries, "
              "not trained")
HEATMAP = "attention_examples.png"


# ------------------------------------------------------------------ evaluation
@torch.no_grad()
def predict(model: NLIClassifier, dl) -> tuple[list[int], list[list[float] | None]]:
    """Predicted labels and, per pair, the attention weights over its premise words (None without attention)."""
    model.eval()
    device = next(model.parameters()).device
    preds, weights = [], []
    for batch in dl:
        batch = {k: v.to(device) for k, v in batch.items()}
        logits, p = model(batch["premise"], batch["premise_len"], batch["hypothesis"], batch["hypothesis_len"])
        preds += logits.argmax(-1).tolist()
        if p is None:
            weights += [None] * logits.size(0)
        else:
            weights += [row[:n].tolist() for row, n in zip(p.float().cpu(), batch["premise_len"].tolist())]
    return preds, weights


def accuracy(preds: list[int], pairs: list[snli.Pair]) -> float:
    return 100.0 * sum(int(a == p.label) for a, p in zip(preds, pairs)) / max(1, len(pairs))


def attention_stats(weights: list[list[float] | None]) -> dict[str, float]:
    """Mean nonzero-weight premise words, mean premise length, mean largest weight (empty without attention)."""
    rows = [w for w in weights if w is not None]
    if not rows:
        return {}
    n = len(rows)
    return {"attended_words": sum(sum(1 for x in w if x > 0) for w in rows) / n,
            "premise_words": sum(len(w) for w in rows) / n,
            "max_weight": sum(max(w) for w in rows) / n}


def example_rows(model, examples: list[snli.Pair], vocab, n_test: int) -> list[dict]:
    preds, weights = predict(model, data.loader(examples, vocab, 64))
    return [{"split": "test" if i < n_test else "dev", "pair_id": p.pair_id, "line": p.line,
             "premise": list(p.premise), "hypothesis": list(p.hypothesis), "gold": snli.LABELS[p.label],
             "pred": snli.LABELS[y], "weights": w} for i, (p, y, w) in enumerate(zip(examples, preds, weights))]


def log_heatmap(ctx: RunContext, examples: list[dict], variant: str) -> None:
    """The examples' attention as one figure, saved in the run dir (the engine logs it: engine.media)."""
    if not examples or examples[0]["weights"] is None:
        return
    from sparselab import plots

    panels = [(f"{e['split']} {e['pair_id']}: {' '.join(e['hypothesis'])} [gold {e['gold']}, pred {e['pred']}]",
               e["premise"], {variant: e["weights"]}) for e in examples]
    fig = plots.heatmap_figure(panels, f"attention over the premise ({variant})")
    plots.save(fig, ctx.path(HEATMAP), dpi=90)


def learned_alpha(model) -> float | None:
    att = model.attention
    norm = getattr(att, "normalizer", None) if att is not None else None
    if getattr(norm, "learnable", False):
        return float(norm.alpha.detach().cpu().reshape(-1)[0])
    return None


# ------------------------------------------------------------------ task entry
def run(cfg: DictConfig, ctx: RunContext) -> dict:
    check_no_mapping(cfg)
    tcfg = cfg.task
    variant = str(tcfg.attention)
    normalizer = settings.nli_normalizer(tcfg)
    l2 = float(tcfg.l2)
    if l2 < 0:
        raise ConfigError(f"task.l2={l2}: must be >= 0")
    spec = settings.snli_data(cfg)
    splits, examples = data.load_data(spec)
    vocab = snli.build_vocab([s.pairs for s in splits.values()] + [examples])
    vectors = str(cfg.data.vectors)
    words = vocab.itos
    found = glove.load(vectors, data_root(cfg.data.get("root")), words[2:])
    matrix, _ = glove.embedding_matrix(words, found, int(cfg.seed), pad_id=vocab.pad_id)
    oov = data.oov_stats(splits, lambda w: w in found.vectors)
    log.info("snli %s l2=%g: %s; vocab %d, %s found in %s; test OOV token rate %.2f%%", variant, l2,
             ", ".join(f"{k} {len(s.pairs)} (dropped '-' {s.dropped})" for k, s in splits.items()), len(vocab),
             len(found.vectors), vectors, 100 * oov["test"]["oov_token_rate"])

    mcfg = nli_build.model_config(settings.model_container(cfg), len(vocab), found.dim, normalizer, vocab.pad_id)
    model = settings.build_model(mcfg)
    model.set_embeddings(matrix)
    module = NLIModule(model, lr=float(tcfg.lr), l2=l2, ctx=ctx)
    options = settings.loader_options(cfg)
    train_dl = data.loader(splits["train"].pairs, vocab, int(tcfg.batch_size), shuffle=True, seed=int(cfg.seed),
                      options=options)
    dev_dl = data.loader(splits["dev"].pairs, vocab, int(tcfg.eval_batch_size), options=options)
    fitted = loop.fit(module, train_dl, dev_dl, settings.fit_settings(cfg), ctx)
    if not fitted.is_global_zero:
        return {}           # DDP: evaluation runs once, on rank 0

    dev_pred, _ = predict(model, dev_dl)
    test_pred, test_w = predict(model, data.loader(splits["test"].pairs, vocab, int(tcfg.eval_batch_size)))
    metrics = {"dev_acc": accuracy(dev_pred, splits["dev"].pairs),
               "test_acc": accuracy(test_pred, splits["test"].pairs)}
    metrics.update(attention_stats(test_w))
    alpha = learned_alpha(model)
    if alpha is not None:
        metrics["learned_alpha"] = alpha
    metrics.update({"best_epoch": float(module.best_epoch), "epochs": float(len(module.history)),
                    "fit_time_s": fitted.fit_time_s, "train_samples_per_s": module.train_samples / max(1e-9, module.train_time)})
    shown = example_rows(model, examples, vocab, min(int(tcfg.examples.n_test), len(examples)))
    log_heatmap(ctx, shown, variant)

    extra = {
        "attention": variant, "normalizer": normalizer, "l2": l2, "vectors": vectors, "embedding_dim": found.dim,
        "oov_policy": OOV_POLICY, "oov": oov, "vocab_size": len(vocab), "vectors_found": len(found.vectors),
        "splits": {k: {"pairs": len(s.pairs), "dropped_no_gold": s.dropped, "lines": s.lines,
                       "labels": s.label_counts, "file": str(cfg.data.splits[k])} for k, s in splits.items()},
        "reductions": data.reductions(spec, splits, vectors), "history": module.history, "examples": shown,
        **fitted.record(), "heatmap": HEATMAP if shown and shown[0]["weights"] is not None else None,
    }
    return {"metrics": metrics, "best": {"val_acc": module.best_score, "epoch": module.best_epoch}, "extra": extra}
