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
import time
from collections import Counter
from pathlib import Path

import torch
from omegaconf import DictConfig

from sparselab.analysis.sparsity import teacher_forced_sparsity
from sparselab.data import sigmorphon as sg
from sparselab.data.resumable import ResumableLoader
from sparselab.data.workers import loader_options
from sparselab.data.text import BucketBatchSampler, PadCollate, Vocab, save_vocabs, to_device
from sparselab.decoding.beam import EnsembleStepModel, Seq2SeqStepModel, beam_search
from sparselab.engine import record
from sparselab.engine.context import RunContext
from sparselab.engine.errors import ConfigError
from sparselab.models.build import build_model, load_model, model_config, save_model
from sparselab.models.seq2seq import Seq2Seq
from sparselab.training import loop
from sparselab.training.seq2seq_module import Seq2SeqModule, SequenceAccuracy

log = logging.getLogger("sparselab")
MODEL_FILE = "model.pt"


class InflectionModule(Seq2SeqModule):
    """What inflection adds to the generic module: exact-match word accuracy of a greedy decode."""

    metric_name = "val_acc"
    metric_mode = "max"

    def make_metric(self):
        return SequenceAccuracy(eos_id=self.model.eos_id, pad_id=self.model.tgt_pad_id)

    def decode(self, batch):
        return self.model.greedy(batch["src"], batch["src_len"], batch["tgt_out"].size(1) + 5)


# ------------------------------------------------------------------ data
def _languages(d) -> list[str] | None:
    langs = d.get("languages")
    if langs is None:
        return None
    return [str(langs)] if isinstance(langs, str) else [str(x) for x in langs]


def _load(cfg: DictConfig):
    d = cfg.data
    root = d.get("root")
    train = sg.load_split(d.setting, "train", root, max_languages=int(d.max_languages),
                          per_language=int(d.train_per_language), langs=_languages(d))
    langs = sorted(train)
    val = sg.load_split(d.setting, d.get("val_split", "dev"), root, langs=langs, per_language=int(d.val_per_language))
    ev = sg.load_split(d.setting, cfg.task.eval_split, root, langs=langs, per_language=int(d.eval_per_language))
    return train, val, ev, langs


def _loader(data, src: Vocab, tgt: Vocab, batch_size, shuffle=False, seed=0, options: dict | None = None):
    """Evaluation loaders keep file order; the training loader (shuffle) batches by length. ``options``:
    workers and pinned memory (sparselab.data.workers); none for the one-word loaders of the examples."""
    ds = sg.dataset(data, src, tgt)
    collate = PadCollate.from_vocabs(src, tgt)
    options = options or {}
    if shuffle:
        sampler = BucketBatchSampler(ds, batch_size, seed=int(seed))
        return ds, ResumableLoader(ds, sampler, collate_fn=collate, **options)
    return ds, torch.utils.data.DataLoader(ds, batch_size=batch_size, shuffle=False, collate_fn=collate, **options)


def _device(step_model) -> torch.device:
    return getattr(step_model, "device", torch.device("cpu"))


# ------------------------------------------------------------------ evaluation
def decode(step_model, data: dict[str, list[sg.Example]], src: Vocab, tgt: Vocab, beam: int,
           batch_size: int, max_len: int, length_norm: float = 0.0):
    """Beam-decode every example on the model's device; returns {lang: [BeamResult, ...]} in file order."""
    out = {}
    device = _device(step_model)
    for lang in sorted(data):
        ds, dl = _loader({lang: data[lang]}, src, tgt, batch_size)
        res = []
        for batch in dl:
            res += beam_search(step_model, to_device(batch, device), batch["src"].size(0), beam=beam,
                               max_len=max_len, length_norm=length_norm)
        out[lang] = res
    return out


def evaluate(step_model, ev, src, tgt, cfg, run_dir: Path, gold_files: dict[str, Path]) -> tuple[dict, dict]:
    t0 = time.time()
    tcfg = cfg.task
    results = decode(step_model, ev, src, tgt, int(tcfg.beam), int(tcfg.decode_batch_size), int(tcfg.max_decode_len),
                     float(tcfg.get("length_norm", 0.0) or 0.0))
    pred_dir = run_dir / "predictions"
    pred_dir.mkdir(parents=True, exist_ok=True)
    per_lang, n_hyps = {}, Counter()
    exact_all, single_all = [], []
    for lang, res in results.items():
        preds = [tgt.decode(r.best) for r in res]
        pf = pred_dir / f"{lang}-{tcfg.eval_split}"
        sg.write_predictions(pf, ev[lang], preds)
        sc = sg.score_files(pf, gold_files[lang], allow_prefix=True)
        ex = [r.exact() for r in res]
        si = [r.single() for r in res]
        exact_all += ex
        single_all += si
        n_hyps.update(len(r.hypotheses) for r in res if r.exact())
        per_lang[lang] = {"accuracy": sc["accuracy"], "edit_distance": sc["edit_distance"], "n": sc["n"],
                          "exact_share": sum(ex) / max(1, len(ex)), "single_share": sum(si) / max(1, len(si))}
    L = max(1, len(per_lang))
    metrics = {
        "acc": sum(v["accuracy"] for v in per_lang.values()) / L,
        "edit_distance": sum(v["edit_distance"] for v in per_lang.values()) / L,
        "exact_share": sum(exact_all) / max(1, len(exact_all)),
        "single_share": sum(single_all) / max(1, len(single_all)),
        "n_eval": float(len(exact_all)),
        "n_languages": float(len(per_lang)),
        "decode_time_s": time.time() - t0,
    }
    extra = {"per_language": per_lang, "eval_split": str(tcfg.eval_split),
             "exact_output_count_histogram": {str(k): v for k, v in sorted(n_hyps.items())}}
    return metrics, extra


def beam_shares(step_model, data, src: Vocab, tgt: Vocab, cfg, prefix: str) -> dict[str, float]:
    """Exact-beam and single-sequence shares of a beam decode of ``data`` (all languages pooled), named
    ``<prefix>exact_share`` / ``<prefix>single_share``."""
    tcfg = cfg.task
    results = decode(step_model, data, src, tgt, int(tcfg.beam), int(tcfg.decode_batch_size), int(tcfg.max_decode_len),
                     float(tcfg.get("length_norm", 0.0) or 0.0))
    res = [r for rs in results.values() for r in rs]
    n = max(1, len(res))
    return {f"{prefix}exact_share": sum(r.exact() for r in res) / n,
            f"{prefix}single_share": sum(r.single() for r in res) / n, f"{prefix}n_decoded": float(len(res))}


def nbest_examples(step_model, val, src, tgt, cfg, n: int) -> list[dict]:
    """Every finished output (with probability) for the first input of the first ``n`` languages' dev sets."""
    out = []
    langs = sorted(val)[: max(1, n)]
    device = _device(step_model)
    for lang in langs:
        if not val[lang]:
            continue
        ex = val[lang][0]
        ds, dl = _loader({lang: [ex]}, src, tgt, 1)
        batch = to_device(next(iter(dl)), device)
        r = beam_search(step_model, batch, 1, beam=int(cfg.task.beam), max_len=int(cfg.task.max_decode_len),
                        length_norm=float(cfg.task.get("length_norm", 0.0) or 0.0))[0]
        out.append({"lang": lang, "lemma": ex.lemma, "tags": ";".join(ex.tags), "gold": ex.form,
                    "exact": r.exact(), "mass": r.mass,
                    "outputs": [{"form": tgt.decode(h.tokens), "prob": h.prob} for h in r.hypotheses]})
    return out


def sparsity_stats(model: Seq2Seq, alpha: float, val, src, tgt, batch_size: int) -> tuple[dict, dict]:
    """Teacher-forced validation: nonzero attention weights per target step, output support size."""
    _, dl = _loader(val, src, tgt, batch_size)
    metrics, extra = teacher_forced_sparsity(model, dl, alpha, tgt.pad_id)
    extra["target_vocab_size"] = len(tgt)
    return metrics, extra


def _gold_files(cfg, langs) -> dict[str, Path]:
    pairs = dict(sg.languages(cfg.data.setting, cfg.data.get("root")))
    return {lang: sg.split_file(pairs[lang], lang, cfg.task.eval_split, cfg.data.setting) for lang in langs}


# ------------------------------------------------------------------ task entry
def run(cfg: DictConfig, ctx: RunContext) -> dict:
    mode = str(cfg.task.get("mode", "train"))
    if mode == "ensemble":
        return run_ensemble(cfg, ctx)
    if mode != "train":
        raise ConfigError(f"task.mode={mode!r}: must be 'train' or 'ensemble'")
    return run_train(cfg, ctx)


def run_train(cfg: DictConfig, ctx: RunContext) -> dict:
    alpha, attn_alpha = float(cfg.mapping.alpha), float(cfg.mapping.attn_alpha)
    train, val, ev, langs = _load(cfg)
    src, tgt = sg.build_vocabs(train)
    save_vocabs(ctx.path("vocab.json"), src=src, tgt=tgt)
    mcfg = model_config(cfg.model, src, tgt)
    model = build_model(mcfg)
    bs = int(cfg.task.batch_size)
    options = loader_options(cfg)
    train_ds, train_dl = _loader(train, src, tgt, bs, shuffle=True, seed=int(cfg.seed), options=options)
    _, val_dl = _loader(val, src, tgt, int(cfg.task.decode_batch_size), options=options)
    log.info("inflection %s: %d languages, %d train / %d val / %d eval examples; vocab src %d tgt %d; α=%g attn α=%g",
             cfg.data.setting, len(langs), len(train_ds), sum(map(len, val.values())), sum(map(len, ev.values())),
             len(src), len(tgt), alpha, attn_alpha)
    module = InflectionModule(model, alpha, lr=float(cfg.task.lr), ctx=ctx,
                              lr_rule=str(cfg.task.get("lr_rule", "best")))
    extra_kw = {}
    vci = cfg.trainer.get("val_check_interval")
    if isinstance(vci, int):  # Lightning refuses an interval longer than the epoch
        extra_kw["val_check_interval"] = min(vci, len(train_dl))
    fitted = loop.fit(module, train_dl, val_dl, cfg, ctx, **extra_kw)
    if not fitted.is_global_zero:
        return {}           # DDP: evaluation runs once, on rank 0
    save_model(ctx.path(MODEL_FILE), model, mcfg, src, tgt, alpha, attn_alpha, langs)

    step_model = Seq2SeqStepModel(model, alpha)
    metrics, extra = evaluate(step_model, ev, src, tgt, cfg, ctx.run_dir, _gold_files(cfg, langs))
    metrics.update(beam_shares(step_model, val, src, tgt, cfg, prefix="val_"))
    sp_metrics, sp_extra = sparsity_stats(model, alpha, val, src, tgt, int(cfg.task.decode_batch_size))
    examples = nbest_examples(step_model, val, src, tgt, cfg, int(cfg.task.n_examples))
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

    def matches(rec) -> bool:
        c = rec.get("config", {})
        try:
            return (c.get("task", {}).get("mode", "train") == "train"
                    and math.isclose(float(c["mapping"]["alpha"]), float(cfg.mapping.alpha))
                    and math.isclose(float(c["mapping"]["attn_alpha"]), float(cfg.mapping.attn_alpha))
                    and c["data"]["setting"] == cfg.data.setting and int(c["seed"]) in seeds
                    and (Path(rec["run_dir"]) / MODEL_FILE).exists())
        except (KeyError, TypeError, ValueError):
            return False

    recs = record.find(cfg.paths.runs, str(cfg.profile.name), str(cfg.task.source_experiment), status="finished",
                       where=matches)
    found = {}
    for rec in recs:
        s = int(rec["config"]["seed"])
        found[s] = {"run_dir": rec["run_dir"], "seed": s, "acc": rec["metrics"].get("acc")}
    missing = [s for s in seeds if s not in found]
    if missing:
        base = Path(cfg.paths.runs) / str(cfg.profile.name) / str(cfg.task.source_experiment)
        raise FileNotFoundError(f"ensemble α={cfg.mapping.alpha} attn α={cfg.mapping.attn_alpha}: no finished run "
                                f"with {MODEL_FILE} for seeds {missing} under {base}; run {cfg.task.source_experiment} "
                                f"with seed={','.join(map(str, seeds))} first")
    return [found[s] for s in seeds]


def run_ensemble(cfg: DictConfig, ctx: RunContext) -> dict:
    members = find_members(cfg)
    accel = str(cfg.trainer.get("accelerator", "auto"))
    device = torch.device("cuda" if torch.cuda.is_available() and accel in ("auto", "gpu", "cuda") else "cpu")
    loaded = [load_model(Path(m["run_dir"]) / MODEL_FILE, device) for m in members]
    src, tgt = loaded[0][1], loaded[0][2]
    for _, s, t, _ in loaded[1:]:
        if s.itos != src.itos or t.itos != tgt.itos:
            raise ValueError("ensemble members have different vocabularies (trained on different data?)")
    langs = loaded[0][3]["languages"]
    ev = sg.load_split(cfg.data.setting, cfg.task.eval_split, cfg.data.get("root"), langs=langs,
                       per_language=int(cfg.data.eval_per_language))
    val = sg.load_split(cfg.data.setting, cfg.data.get("val_split", "dev"), cfg.data.get("root"), langs=langs,
                        per_language=int(cfg.data.val_per_language))
    alpha = float(cfg.mapping.alpha)
    step_model = EnsembleStepModel([Seq2SeqStepModel(m, alpha) for m, *_ in loaded])
    metrics, extra = evaluate(step_model, ev, src, tgt, cfg, ctx.run_dir, _gold_files(cfg, langs))
    examples = nbest_examples(step_model, val, src, tgt, cfg, int(cfg.task.n_examples))
    metrics["n_members"] = float(len(members))
    metrics["members_mean_acc"] = sum(float(m["acc"]) for m in members) / len(members)
    extra.update({"members": members, "examples": examples, "languages": langs})
    return {"metrics": metrics, "best": {}, "extra": extra}
