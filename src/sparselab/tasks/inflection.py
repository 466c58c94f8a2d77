"""Task ``inflection``: Peters, Niculae & Martins (2019), CoNLL–SIGMORPHON 2018 task 1.

``task.mode: train`` trains one multilingual model for a data setting (all its languages), keeps the
state with the best validation accuracy, saves it (``model.pt`` + vocabularies) in the run dir, then
beam-decodes the evaluation split and measures:

* per-language word accuracy (%) and mean edit distance, macro-averaged over languages, computed
  from the shared-task-format prediction files written to ``predictions/``;
* the beam's exactness certificate (finished probabilities sum to 1) and the single-sequence share;
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
from omegaconf import DictConfig, OmegaConf

from sparselab import mappings
from sparselab.data import sigmorphon as sg
from sparselab.decoding.beam import EnsembleStepModel, Seq2SeqStepModel, beam_search
from sparselab.engine.context import RunContext
from sparselab.models.seq2seq import Seq2Seq

log = logging.getLogger("sparselab")
MODEL_FILE = "model.pt"


# ------------------------------------------------------------------ data
def _load(cfg: DictConfig):
    d = cfg.data
    root = d.get("root")
    train = sg.load_split(d.setting, "train", root, max_languages=int(d.max_languages),
                          per_language=int(d.train_per_language))
    langs = sorted(train)
    val = sg.load_split(d.setting, "dev", root, langs=langs, per_language=int(d.val_per_language))
    ev = sg.load_split(d.setting, cfg.task.eval_split, root, langs=langs, per_language=int(d.eval_per_language))
    return train, val, ev, langs


def _loader(data, src, tgt, batch_size, shuffle=False, seed=0):
    """Evaluation loaders keep file order; the training loader (shuffle) batches by length."""
    ds = sg.InflectionDataset(data, src, tgt)
    if shuffle:
        sampler = sg.BucketBatchSampler(ds, batch_size, seed=int(seed))
        return ds, torch.utils.data.DataLoader(ds, batch_sampler=sampler, collate_fn=sg.collate, num_workers=0)
    return ds, torch.utils.data.DataLoader(ds, batch_size=batch_size, shuffle=False, collate_fn=sg.collate,
                                           num_workers=0)


def _build_model(mcfg: dict, n_src: int, n_tgt: int, attn_alpha: float) -> Seq2Seq:
    return Seq2Seq(n_src, n_tgt, emb_size=int(mcfg["emb_size"]), hidden_size=int(mcfg["hidden_size"]),
                   enc_layers=int(mcfg["enc_layers"]), dec_layers=int(mcfg["dec_layers"]),
                   dropout=float(mcfg["dropout"]), attn_alpha=attn_alpha)


def save_model(path: Path, model: Seq2Seq, mcfg: dict, src: sg.Vocab, tgt: sg.Vocab, alpha: float, attn_alpha: float,
               langs: list[str]) -> None:
    torch.save({"state_dict": model.state_dict(), "model_cfg": mcfg, "src_vocab": src.to_list(),
                "tgt_vocab": tgt.to_list(), "alpha": alpha, "attn_alpha": attn_alpha, "languages": langs}, path)


def load_model(path: Path):
    blob = torch.load(path, map_location="cpu", weights_only=False)
    src, tgt = sg.Vocab.from_list(blob["src_vocab"]), sg.Vocab.from_list(blob["tgt_vocab"])
    model = _build_model(blob["model_cfg"], len(src), len(tgt), blob["attn_alpha"])
    model.load_state_dict(blob["state_dict"])
    model.eval()
    return model, src, tgt, blob


# ------------------------------------------------------------------ evaluation
def decode(step_model, data: dict[str, list[sg.Example]], src: sg.Vocab, tgt: sg.Vocab, beam: int,
           batch_size: int, max_len: int):
    """Beam-decode every example; returns {lang: [BeamResult, ...]} in file order."""
    out = {}
    for lang in sorted(data):
        ds, dl = _loader({lang: data[lang]}, src, tgt, batch_size)
        res = []
        for batch in dl:
            res += beam_search(step_model, batch, batch["src"].size(0), beam=beam, max_len=max_len)
        out[lang] = res
    return out


def evaluate(step_model, ev, src, tgt, cfg, run_dir: Path, gold_files: dict[str, Path]) -> tuple[dict, dict]:
    t0 = time.time()
    tcfg = cfg.task
    results = decode(step_model, ev, src, tgt, int(tcfg.beam), int(tcfg.decode_batch_size), int(tcfg.max_decode_len))
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


def nbest_examples(step_model, val, src, tgt, cfg, n: int) -> list[dict]:
    """Every finished output (with probability) for the first input of the first ``n`` languages' dev sets."""
    out = []
    langs = sorted(val)[: max(1, n)]
    for lang in langs:
        if not val[lang]:
            continue
        ex = val[lang][0]
        ds, dl = _loader({lang: [ex]}, src, tgt, 1)
        batch = next(iter(dl))
        r = beam_search(step_model, batch, 1, beam=int(cfg.task.beam), max_len=int(cfg.task.max_decode_len))[0]
        out.append({"lang": lang, "lemma": ex.lemma, "tags": ";".join(ex.tags), "gold": ex.form,
                    "exact": r.exact(), "mass": r.mass,
                    "outputs": [{"form": tgt.decode(h.tokens), "prob": h.prob} for h in r.hypotheses]})
    return out


@torch.no_grad()
def sparsity_stats(model: Seq2Seq, alpha: float, val, src, tgt, batch_size: int) -> tuple[dict, dict]:
    """Teacher-forced validation: nonzero attention weights per target step, output support size."""
    model.eval()
    _, dl = _loader(val, src, tgt, batch_size)
    attn_sum, sup_sum, steps = 0.0, 0.0, 0
    hist = Counter()
    for batch in dl:
        logits, attn = model(batch["src"], batch["src_len"], batch["tgt_in"], return_attn=True)
        m = batch["tgt_out"] != sg.PAD_ID
        nz_attn = (attn > 0).sum(-1)[m]
        support = (mappings.entmax(logits, alpha, dim=-1) > 0).sum(-1)[m]
        attn_sum += float(nz_attn.sum())
        sup_sum += float(support.sum())
        steps += int(m.sum())
        hist.update(support.tolist())
    steps = max(1, steps)
    return ({"attn_support": attn_sum / steps, "out_support": sup_sum / steps},
            {"support_histogram": {str(k): v for k, v in sorted(hist.items())}, "target_steps": steps,
             "target_vocab_size": len(tgt)})


def _gold_files(cfg, langs) -> dict[str, Path]:
    pairs = dict(sg.languages(cfg.data.setting, cfg.data.get("root")))
    return {lang: sg.split_file(pairs[lang], lang, cfg.task.eval_split, cfg.data.setting) for lang in langs}


# ------------------------------------------------------------------ task entry
def run(cfg: DictConfig, ctx: RunContext) -> dict:
    mode = str(cfg.task.get("mode", "train"))
    if mode == "ensemble":
        return run_ensemble(cfg, ctx)
    if mode != "train":
        raise ValueError(f"task.mode={mode!r}: must be 'train' or 'ensemble'")
    return run_train(cfg, ctx)


def run_train(cfg: DictConfig, ctx: RunContext) -> dict:
    from sparselab.engine.trainer import make_trainer
    from sparselab.tasks.inflection_module import InflectionModule

    alpha, attn_alpha = float(cfg.mapping.alpha), float(cfg.mapping.attn_alpha)
    train, val, ev, langs = _load(cfg)
    src, tgt = sg.build_vocabs(train)
    sg.save_vocabs(ctx.path("vocab.json"), src, tgt)
    mcfg = OmegaConf.to_container(cfg.model, resolve=True)
    model = _build_model(mcfg, len(src), len(tgt), attn_alpha)
    bs = int(cfg.task.batch_size)
    train_ds, train_dl = _loader(train, src, tgt, bs, shuffle=True, seed=int(cfg.seed))
    _, val_dl = _loader(val, src, tgt, int(cfg.task.decode_batch_size))
    log.info("inflection %s: %d languages, %d train / %d val / %d eval examples; vocab src %d tgt %d; α=%g attn α=%g",
             cfg.data.setting, len(langs), len(train_ds), sum(map(len, val.values())), sum(map(len, ev.values())),
             len(src), len(tgt), alpha, attn_alpha)
    module = InflectionModule(model, alpha, lr=float(cfg.task.lr), ctx=ctx)
    extra_kw = {"num_sanity_val_steps": 0}
    vci = cfg.task.get("val_check_interval")
    if vci:
        extra_kw["val_check_interval"] = min(int(vci), len(train_dl)) if isinstance(vci, int) else vci
    trainer = make_trainer(cfg.trainer, ctx, **extra_kw)
    t0 = time.time()
    trainer.fit(module, train_dl, val_dl)
    if not module.history or module.history[-1]["step"] != trainer.global_step:
        # Lightning counts val_check_interval within each epoch, so the steps after the last check
        # (up to a whole interval when max_steps ends mid-epoch) would never reach model selection.
        trainer.validate(module, val_dl, verbose=False)
    fit_time = time.time() - t0
    model.cpu()  # decoding and statistics run on CPU (the beam search keeps its bookkeeping there)
    if module.best_state is not None:
        model.load_state_dict(module.best_state)
    model.eval()
    save_model(ctx.path(MODEL_FILE), model, mcfg, src, tgt, alpha, attn_alpha, langs)

    step_model = Seq2SeqStepModel(model, alpha)
    metrics, extra = evaluate(step_model, ev, src, tgt, cfg, ctx.run_dir, _gold_files(cfg, langs))
    sp_metrics, sp_extra = sparsity_stats(model, alpha, val, src, tgt, int(cfg.task.decode_batch_size))
    examples = nbest_examples(step_model, val, src, tgt, cfg, int(cfg.task.n_examples))
    ctx.path("nbest_examples.json").write_text(json.dumps(examples, ensure_ascii=False, indent=1))
    ctx.path("sparsity.json").write_text(json.dumps({**sp_metrics, **sp_extra}, indent=1))
    sps = module.train_samples / module.train_time if module.train_time > 0 else 0.0
    metrics.update(sp_metrics)
    metrics.update({"train_samples_per_s": sps, "val_acc_best": module.best_acc, "best_epoch": float(module.best_epoch),
                    "fit_time_s": fit_time, "train_samples": float(module.train_samples)})
    ctx.log_metrics({f"final/{k}": v for k, v in metrics.items()})
    extra.update(sp_extra)
    extra.update({"history": module.history, "examples": examples, "languages": langs,
                  "n_train": len(train_ds), "model_file": MODEL_FILE})
    return {"metrics": metrics, "best": {"val_acc": module.best_acc, "epoch": module.best_epoch}, "extra": extra}


def find_members(cfg: DictConfig) -> list[dict]:
    """Finished run records of the source experiment with this config's α's, setting and seeds."""
    base = Path(cfg.paths.runs) / str(cfg.profile.name) / str(cfg.task.source_experiment)
    seeds = [int(s) for s in cfg.task.ensemble_seeds]
    found = {}
    for p in sorted(base.glob("*/run.json")):
        try:
            rec = json.loads(p.read_text())
        except json.JSONDecodeError:
            continue
        c = rec.get("config", {})
        if rec.get("status") != "finished" or c.get("task", {}).get("mode", "train") != "train":
            continue
        if not (math.isclose(float(c["mapping"]["alpha"]), float(cfg.mapping.alpha))
                and math.isclose(float(c["mapping"]["attn_alpha"]), float(cfg.mapping.attn_alpha))
                and c["data"]["setting"] == cfg.data.setting and int(c["seed"]) in seeds):
            continue
        if (p.parent / MODEL_FILE).exists():
            found[int(c["seed"])] = {"run_dir": str(p.parent), "seed": int(c["seed"]), "acc": rec["metrics"].get("acc")}
    missing = [s for s in seeds if s not in found]
    if missing:
        raise FileNotFoundError(f"ensemble α={cfg.mapping.alpha} attn α={cfg.mapping.attn_alpha}: no finished run "
                                f"with {MODEL_FILE} for seeds {missing} under {base}; run {cfg.task.source_experiment} "
                                f"with seed={','.join(map(str, seeds))} first")
    return [found[s] for s in seeds]


def run_ensemble(cfg: DictConfig, ctx: RunContext) -> dict:
    members = find_members(cfg)
    loaded = [load_model(Path(m["run_dir"]) / MODEL_FILE) for m in members]
    src, tgt = loaded[0][1], loaded[0][2]
    for _, s, t, _ in loaded[1:]:
        if s.itos != src.itos or t.itos != tgt.itos:
            raise ValueError("ensemble members have different vocabularies (trained on different data?)")
    langs = loaded[0][3]["languages"]
    ev = sg.load_split(cfg.data.setting, cfg.task.eval_split, cfg.data.get("root"), langs=langs,
                       per_language=int(cfg.data.eval_per_language))
    val = sg.load_split(cfg.data.setting, "dev", cfg.data.get("root"), langs=langs,
                        per_language=int(cfg.data.val_per_language))
    alpha = float(cfg.mapping.alpha)
    step_model = EnsembleStepModel([Seq2SeqStepModel(m, alpha) for m, *_ in loaded])
    metrics, extra = evaluate(step_model, ev, src, tgt, cfg, ctx.run_dir, _gold_files(cfg, langs))
    examples = nbest_examples(step_model, val, src, tgt, cfg, int(cfg.task.n_examples))
    metrics["n_members"] = float(len(members))
    metrics["members_mean_acc"] = sum(float(m["acc"]) for m in members) / len(members)
    extra.update({"members": members, "examples": examples, "languages": langs})
    return {"metrics": metrics, "best": {}, "extra": extra}
