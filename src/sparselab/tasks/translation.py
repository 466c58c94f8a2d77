"""Task ``translation`` and ``transformer_translation``: machine translation with sparse attention and outputs.

One task for both papers' translation experiments; one run trains one direction (``data.pair``, e.g. ``de-en``):

* ``task=translation``: Peters, Niculae & Martins (2019), Table 2: the LSTM seq2seq
  (``conf/model/lstm_seq2seq.yaml``) with attention α = ``mapping.attn_alpha`` and output α = ``mapping.alpha``,
  α-entmax Fenchel–Young loss, Adam with the halving rule, sentence batches
  (:class:`~sparselab.training.translation_module.TranslationModule`);
* ``task=transformer_translation``: Correia, Niculae & Martins (2019): the Transformer
  (``conf/model/transformer.yaml``) with the attention normalizers of ``mapping=softmax|entmax15|alpha_entmax``
  (a learned α per head), Adam with warm-up and inverse-sqrt decay, token-budget batches
  (:class:`~sparselab.training.transformer_module.TransformerModule`), every learned α recorded every
  ``task.alpha_every`` steps (Figure 2).

The model comes from the config (``model._target_``, instantiated by :func:`sparselab.tasks.settings.build_model`); the LightningModule from
``task.name`` (:data:`MODULES`). The config is read once, at the top of :func:`run`, into
:class:`~sparselab.tasks.settings.TranslationSettings`; the layers below take those. A run reads as:

1. **data** (:mod:`sparselab.data.mt_data`): every split read and checked before anything is trained, Moses /
   MeCab / no tokenization, BPE learned on the training split (cached), vocabularies, the training loader;
2. **model**, **module**, and the **loop** (:mod:`sparselab.training.loop`: model selection on validation token
   accuracy under teacher forcing, early stopping, resume inside the job, rank-aware);
3. **evaluation** on rank 0 (:mod:`sparselab.decoding.translation`): beam search on the test set and each extra
   test set, detokenized and tokenized BLEU with their signatures and files, beam statistics;
4. **analyses**: LSTM: teacher-forced sparsity on validation (:mod:`sparselab.analysis.sparsity`) and the
   Figure 2 "autocomplete" sets; Transformer: head density, JS diversity, head roles and attention maps of the
   selected model and of the untrained one (:mod:`sparselab.analysis.transformer_heads`), the learned α's.

Training speed is target tokens/s of training steps after
``TranslationModule.speed_warmup_steps`` warm-up steps that compile kernels.
"""
from __future__ import annotations

import json
import logging

from omegaconf import DictConfig, OmegaConf

from sparselab.analysis.heads import learned_alphas
from sparselab.analysis.sparsity import teacher_forced_sparsity
from sparselab.analysis.transformer_heads import analyze_heads
from sparselab.data import mt_data
from sparselab.data.mt_data import MTData
from sparselab.decoding.beam import Seq2SeqStepModel
from sparselab.decoding.bleu import bleu_tokenization
from sparselab.decoding.translation import TRANSLATIONS, autocomplete_examples, test_all
from sparselab.engine.context import RunContext
from sparselab.engine.devices import job_device
from sparselab.models.build import model_config, save_model
from sparselab.tasks import settings
from sparselab.tasks.settings import TranslationSettings, build_model
from sparselab.training import loop
from sparselab.training.alpha_trajectory import AlphaTrajectory
from sparselab.training.translation_module import TranslationModule
from sparselab.training.transformer_module import TransformerModule

log = logging.getLogger("sparselab")
MODEL_FILE = "model.pt"


# task.name -> the LightningModule
MODULES = {"translation": TranslationModule, "transformer_translation": TransformerModule}


def data_record(data: MTData) -> dict:
    """The record's description of the data and its preprocessing."""
    return {"pair": f"{data.src_lang}-{data.tgt_lang}", "src_lang": data.src_lang, "tgt_lang": data.tgt_lang,
            "corpus": data.corpus.name,
            "splits": {role: {"spec": sp.name, "n": len(sp), "files": list(sp.files), "dropped_empty": sp.dropped_empty}
                       for role, sp in data.splits.items()},
            "preprocessing": data.prep.info, "n_train_dropped_long": data.n_dropped_long,
            "bleu_tokenization": bleu_tokenization(data.tgt_lang, data.corpus, data.prep)}


def training_metrics(module: TranslationModule, fitted: loop.Fitted, data: MTData) -> dict:
    """Model selection, speed and size numbers of a fitted module."""
    tps = module.tokens_per_s()
    sps = module.train_samples / module.train_time if module.train_time > 0 else 0.0
    best = module.best_score if module.best_score is not None else -1.0
    best_step = max((h for h in module.history), key=lambda h: h["val_acc"], default={}).get("step", -1)
    return {"val_acc_best": best, "best_step": float(best_step), "steps": float(fitted.steps),
            "train_tgt_tokens_per_s": tps, "train_samples_per_s": sps, "fit_time_s": fitted.fit_time_s,
            "train_time_s": module.train_time, "preprocess_time_s": data.prep_time,
            "train_tgt_tokens": float(module.train_tgt_tokens), "n_train": float(len(data.train_ds)),
            "src_vocab": float(len(data.src)), "tgt_vocab": float(len(data.tgt))}


def _val_pieces(data: MTData) -> tuple[list[list[str]], list[list[str]]]:
    va_src, va_tgt = data.prep.splits["val"]
    return [s.split() for s in va_src.bpe], [t.split() for t in va_tgt.bpe]


def _normalizers(model) -> dict[str, str]:
    blocks = {"enc_self": model.encoder[0].self_attn, "dec_self": model.decoder[0].self_attn,
              "context": model.decoder[0].context_attn}
    return {k: repr(getattr(b, "normalizer")) for k, b in blocks.items()}


# ------------------------------------------------------------------ task entry
def run(cfg: DictConfig, ctx: RunContext) -> dict:
    # the config stops here: resolved once into plain values, read into typed settings; nothing below sees it
    device = job_device(cfg)
    values = OmegaConf.to_container(cfg, resolve=True)
    s = settings.translation(values)
    data = mt_data.prepare_data(s.data, ctx.path("vocab.json"))
    train_dl = mt_data.train_loader(data, s.batch_size, s.batch_tokens, s.seed, s.loader)
    val_dl = mt_data.loader(data.val_ds, data.src, data.tgt, s.decode_batch_size, options=s.loader)
    mcfg = model_config(s.model, data.src, data.tgt)
    model = build_model(mcfg)
    module = MODULES[s.task](model, s.alpha, ctx=ctx, **s.module)
    if isinstance(module, TransformerModule):
        return _transformer(s, device, ctx, data, train_dl, val_dl, mcfg, model, module)
    return _lstm(s, ctx, data, train_dl, val_dl, mcfg, model, module)


def _lstm(s: TranslationSettings, ctx, data: MTData, train_dl, val_dl, mcfg, model, module) -> dict:
    alpha, attn_alpha = s.alpha, s.attn_alpha
    log.info("α=%g attn α=%g", alpha, attn_alpha)
    fitted = loop.fit(module, train_dl, val_dl, s.fit, ctx)
    if not fitted.is_global_zero:
        return {}           # DDP: evaluation runs once, on rank 0
    save_model(ctx.path(MODEL_FILE), model, mcfg, data.src, data.tgt, alpha, attn_alpha, [data.src_lang, data.tgt_lang])

    metrics, test_extra, extra_sets = test_all(s.beam, data, Seq2SeqStepModel(model, alpha), ctx.run_dir / TRANSLATIONS)
    sp_metrics, sp_extra = teacher_forced_sparsity(model, val_dl, alpha, data.tgt.pad_id)
    te_src, te_tgt = data.prep.splits["test"]
    auto = autocomplete_examples(model, alpha, te_src, te_tgt, data.src, data.tgt, s.n_autocomplete,
                                 s.autocomplete_max_candidates)
    ctx.path("autocomplete.json").write_text(json.dumps(auto, ensure_ascii=False, indent=1))
    metrics.update(sp_metrics)
    metrics.update(training_metrics(module, fitted, data))
    extra = {**data_record(data), "test": {"spec": str(data.pair_settings.test), **test_extra}, "extra_test": extra_sets,
             "history": module.history, **fitted.record(), "autocomplete": auto, "model_file": MODEL_FILE, **sp_extra}
    return {"metrics": metrics, "best": {"val_acc": metrics["val_acc_best"], "step": int(metrics["best_step"])},
            "extra": extra}


def _transformer(s: TranslationSettings, device, ctx, data: MTData, train_dl, val_dl, mcfg, model,
                 module: TransformerModule) -> dict:
    n_params = sum(p.numel() for p in model.parameters())
    log.info("transformer: %d parameters; normalizers %s", n_params, _normalizers(model))
    trajectory = AlphaTrajectory(every_n_steps=s.alpha_every)
    pieces = _val_pieces(data)
    # the same statistics before training: the reports judge each claim against its value at step 0. On a GPU
    # job this pass runs on the process's own GPU, where Lightning would move the model anyway: on the CPU it cost
    # a paper-size job 2 min 38 s before its first step (the H200 check). It stays before fit, not in a hook, so
    # that a resumed job does not take its "step 0" from the resumed weights.
    model.to(device)
    heads_initial = analyze_heads(model, val_dl, *pieces, data.src_lang, data.tgt_lang, n_examples=0)
    fitted = loop.fit(module, train_dl, val_dl, s.fit, ctx, callbacks=[trajectory])
    if not fitted.is_global_zero:
        return {}           # DDP: evaluation runs once, on rank 0
    out_alpha = module.final_output_alpha()
    save_model(ctx.path(MODEL_FILE), model, mcfg, data.src, data.tgt, out_alpha, float("nan"),
               [data.src_lang, data.tgt_lang])

    metrics, test_extra, extra_sets = test_all(s.beam, data, Seq2SeqStepModel(model, out_alpha),
                                               ctx.run_dir / TRANSLATIONS)
    heads = analyze_heads(model, val_dl, *pieces, data.src_lang, data.tgt_lang, s.n_attention_examples)
    alphas = learned_alphas(model)
    metrics.update(training_metrics(module, fitted, data))
    metrics.update({"output_alpha": out_alpha, "n_params": float(n_params)})
    for kind, layers in heads["js"].items():
        metrics.update({f"js_{kind}_l{i}": v for i, v in layers.items()})
    for kind, layers in heads["density"].items():
        all_heads = [d for v in layers.values() for d in v]
        metrics[f"density_{kind}"] = sum(all_heads) / max(1, len(all_heads))
    extra = {**data_record(data), "test": {"spec": str(data.pair_settings.test), **test_extra},
             "extra_test": extra_sets, "history": module.history, **fitted.record(),
             "model_file": MODEL_FILE, "alpha_trajectory": trajectory.to_record(),
             "learned_alpha": {k: {str(i): v for i, v in layers.items()} for k, layers in alphas.items()},
             "heads": heads, "heads_initial": heads_initial}
    return {"metrics": metrics, "best": {"val_acc": metrics["val_acc_best"], "step": int(metrics["best_step"])},
            "extra": extra}

