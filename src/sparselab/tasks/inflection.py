"""Task ``inflection``: Peters, Niculae & Martins (2019), CoNLL–SIGMORPHON 2018 task 1.

``task.mode: train`` trains one multilingual model for a data setting (all its languages), keeps the
state with the best validation accuracy, saves it (``model.pt`` + vocabularies) in the run dir, then
beam-decodes the evaluation split and measures:

* per-language word accuracy (%) and mean edit distance, macro-averaged over languages, computed
  from the shared-task-format prediction files written to ``predictions/``;
* the beam's exactness certificate (finished probabilities sum to 1) and the single-sequence share, on the
  evaluation split and (``val_exact_share``, ``val_single_share``) on the validation split, where the paper
  measures them (its 66 % / 79 % are on dev, for the configuration best on dev);
* sparsity on validation with teacher forcing: attended source positions per target step and output
  support size (with a histogram);
* training speed (samples/s over training steps).

``task.mode: ensemble`` trains nothing: it finds the finished runs of ``task.source_experiment`` with
the same α's and data setting and the seeds in ``task.ensemble_seeds``, loads their saved weights and
decodes with the average of their per-step probabilities.
"""
from __future__ import annotations

import json
import logging
import math
from pathlib import Path

from omegaconf import DictConfig

from sparselab.data import inflection_data
from sparselab.decoding import inflection as evaluation
from sparselab.decoding.beam import EnsembleStepModel, Seq2SeqStepModel
from sparselab.engine import record
from sparselab.engine.context import RunContext
from sparselab.engine.devices import job_device
from sparselab.errors import ConfigError
from sparselab.models.build import load_model, model_config, save_model
from sparselab.tasks import settings
from sparselab.tasks.settings import build_model
from sparselab.training import loop
from sparselab.training.inflection_module import InflectionModule

log = logging.getLogger("sparselab")
MODEL_FILE = "model.pt"


def run(cfg: DictConfig, ctx: RunContext) -> dict:
    mode = str(cfg.task.get("mode", "train"))
    if mode == "ensemble":
        return run_ensemble(cfg, ctx)
    if mode != "train":
        raise ConfigError(f"task.mode={mode!r}: must be 'train' or 'ensemble'")
    return run_train(cfg, ctx)


def run_train(cfg: DictConfig, ctx: RunContext) -> dict:
    alpha, attn_alpha = float(cfg.mapping.alpha), float(cfg.mapping.attn_alpha)
    spec, beam = settings.inflection_data(cfg), settings.beam_settings(cfg)
    data = inflection_data.prepare(spec, ctx.path("vocab.json"), int(cfg.task.batch_size),
                                   int(cfg.task.decode_batch_size), int(cfg.seed), settings.loader_options(cfg))
    val, ev, langs, src, tgt = data.val, data.ev, data.langs, data.src, data.tgt
    train_ds, train_dl = data.train_ds, data.train_dl
    mcfg = model_config(settings.model_container(cfg), src, tgt)
    model = build_model(mcfg)
    log.info("inflection %s: %d languages, %d train / %d val / %d eval examples; vocab src %d tgt %d; α=%g attn α=%g",
             cfg.data.resource, len(langs), len(train_ds), sum(map(len, val.values())), sum(map(len, ev.values())),
             len(src), len(tgt), alpha, attn_alpha)
    module = InflectionModule(model, alpha, lr=float(cfg.task.lr), ctx=ctx,
                              lr_rule=str(cfg.task.get("lr_rule", "best")))
    extra_kw = {}
    vci = cfg.trainer.get("val_check_interval")
    if isinstance(vci, int):  # Lightning refuses an interval longer than the epoch
        extra_kw["val_check_interval"] = min(vci, len(train_dl))
    fitted = loop.fit(module, train_dl, data.val_dl, settings.fit_settings(cfg), ctx, **extra_kw)
    if not fitted.is_global_zero:
        return {}           # DDP: evaluation runs once, on rank 0
    save_model(ctx.path(MODEL_FILE), model, mcfg, src, tgt, alpha, attn_alpha, langs)

    step_model = Seq2SeqStepModel(model, alpha)
    metrics, extra = evaluation.evaluate(step_model, ev, src, tgt, beam, spec.eval_split, ctx.run_dir,
                                         inflection_data.gold_files(spec, langs))
    metrics.update(evaluation.beam_shares(step_model, val, src, tgt, beam, prefix="val_"))
    sp_metrics, sp_extra = evaluation.sparsity_stats(model, alpha, val, src, tgt, int(cfg.task.decode_batch_size))
    examples = evaluation.nbest_examples(step_model, val, src, tgt, beam, int(cfg.task.n_examples))
    ctx.path("nbest_examples.json").write_text(json.dumps(examples, ensure_ascii=False, indent=1))
    ctx.path("sparsity.json").write_text(json.dumps({**sp_metrics, **sp_extra}, indent=1))
    sps = module.train_samples / module.train_time if module.train_time > 0 else 0.0
    best_acc = module.best_score if module.best_score is not None else -1.0
    metrics.update(sp_metrics)
    metrics.update({"train_samples_per_s": sps, "val_acc_best": best_acc, "best_epoch": float(module.best_epoch),
                    "fit_time_s": fitted.fit_time_s, "train_samples": float(module.train_samples),
                    "epochs": float(fitted.epochs), "lr_halvings": float(module.lr_halvings())})
    extra.update(sp_extra)
    extra.update({"history": module.history, "examples": examples, "languages": langs,
                  "n_train": len(train_ds), "model_file": MODEL_FILE, **fitted.record()})
    learned = _learned_alphas(model)
    if learned:
        extra["learned_attn_alpha"] = learned
    return {"metrics": metrics, "best": {"val_acc": best_acc, "epoch": module.best_epoch}, "extra": extra}


def _learned_alphas(model) -> dict[str, float | list[float]]:
    """Final α of every learned-α normaliser (Correia et al. 2019), by module name."""
    out = {}
    for name, mod in model.named_modules():
        if getattr(mod, "learnable", False) and hasattr(mod, "alpha"):
            a = mod.alpha.detach().cpu()
            out[name] = a.item() if a.ndim == 0 else a.tolist()
    return out


def find_members(cfg: DictConfig) -> list[dict]:
    """Finished run records of the source experiment with this config's α's, setting and seeds."""
    seeds = [int(s) for s in cfg.task.ensemble_seeds]

    def member(rec) -> bool:
        try:
            c = record.current_config(rec)   # a member written before data.setting became data.resource
            return (c.get("task", {}).get("mode", "train") == "train"
                    and math.isclose(float(c["mapping"]["alpha"]), float(cfg.mapping.alpha))
                    and math.isclose(float(c["mapping"]["attn_alpha"]), float(cfg.mapping.attn_alpha))
                    and c["data"]["resource"] == cfg.data.resource and int(c["seed"]) in seeds)
        except (KeyError, TypeError, ValueError):
            return False

    recs = record.find(cfg.paths.runs, str(cfg.profile.name), str(cfg.task.source_experiment), status="finished",
                       where=member)
    found = {}
    for rec in recs:
        if (Path(rec["run_dir"]) / MODEL_FILE).exists():
            s = int(rec["config"]["seed"])
            found[s] = {"run_dir": rec["run_dir"], "seed": s, "acc": rec["metrics"].get("acc")}
    missing = [s for s in seeds if s not in found]
    # a record restored from a committed report (sparselab.reports.restore) came back without its model
    restored = [r["run_dir"] for r in recs if r.get("restored_from") and int(r["config"]["seed"]) in missing]
    if restored:
        raise FileNotFoundError(f"ensemble α={cfg.mapping.alpha} attn α={cfg.mapping.attn_alpha}: the members "
                                f"{', '.join(restored)} were restored without their {MODEL_FILE}; remove those "
                                "folders and run the plan again to re-train them")
    if missing:
        base = Path(cfg.paths.runs) / str(cfg.profile.name) / str(cfg.task.source_experiment)
        raise FileNotFoundError(f"ensemble α={cfg.mapping.alpha} attn α={cfg.mapping.attn_alpha}: no finished run "
                                f"with {MODEL_FILE} for seeds {missing} under {base}; run {cfg.task.source_experiment} "
                                f"with seed={','.join(map(str, seeds))} first")
    return [found[s] for s in seeds]


def run_ensemble(cfg: DictConfig, ctx: RunContext) -> dict:
    members = find_members(cfg)
    device = job_device(cfg)
    loaded = [load_model(Path(m["run_dir"]) / MODEL_FILE, build_model, device) for m in members]
    src, tgt = loaded[0][1], loaded[0][2]
    for _, s, t, _ in loaded[1:]:
        if s.itos != src.itos or t.itos != tgt.itos:
            raise ValueError("ensemble members have different vocabularies (trained on different data?)")
    langs = loaded[0][3]["languages"]
    spec, beam = settings.inflection_data(cfg), settings.beam_settings(cfg)
    val, ev = inflection_data.load_eval_splits(spec, langs)
    alpha = float(cfg.mapping.alpha)
    step_model = EnsembleStepModel([Seq2SeqStepModel(m, alpha) for m, *_ in loaded])
    metrics, extra = evaluation.evaluate(step_model, ev, src, tgt, beam, spec.eval_split, ctx.run_dir,
                                         inflection_data.gold_files(spec, langs))
    examples = evaluation.nbest_examples(step_model, val, src, tgt, beam, int(cfg.task.n_examples))
    metrics["n_members"] = float(len(members))
    metrics["members_mean_acc"] = sum(float(m["acc"]) for m in members) / len(members)
    extra.update({"members": members, "examples": examples, "languages": langs})
    return {"metrics": metrics, "best": {}, "extra": extra}
