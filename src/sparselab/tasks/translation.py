"""Task ``translation``: Peters, Niculae & Martins (2019), word-level (BPE) LSTM machine translation (Table 2).

One run trains one direction (``data.pair``, e.g. ``de-en``) with attention α = ``mapping.attn_alpha`` and
output α = ``mapping.alpha`` (Table 2 ties them: the experiment sets ``attn_alpha: ${mapping.alpha}``), then:

1. **Data, before training**: every split it will use (train, validation, test, the extra test sets) is read
   and checked (misaligned or malformed files raise ``file:line``; missing data names the fetch command).
2. **Preprocessing** (:mod:`sparselab.data.mt_preprocess`): Moses / MeCab / none tokenization, BPE learned
   on the training split only (subword-nmt; joint or per language), cached by a hash of inputs and settings.
3. **Training**: the LSTM seq2seq of the inflection task (``conf/model/lstm_seq2seq.yaml``), α-entmax
   Fenchel–Young loss, Adam, learning rate halved whenever the validation loss does not improve on its best
   (:class:`TranslationModule`); validation every ``trainer.val_check_interval`` steps *across* epochs;
   model selection on **validation token accuracy under teacher forcing** (``val_acc``, %).
4. **Test**: beam search (``task.beam``, 5) on the test set and on each extra test set; per set:

   - ``bleu``: detokenized SacreBLEU (tokenize ``13a``, or ``ja-mecab`` for a Japanese target) of the
     detokenized hypotheses against the raw references, with its signature;
   - ``bleu_tok``: *tokenized* BLEU as multi-bleu.perl computes it: SacreBLEU with ``tokenize='none'`` on the
     hypotheses after BPE merging (Moses / MeCab / corpus tokens, case kept) against the references tokenized
     by the same tokenizer; for an already tokenized corpus (small_parallel_enja) the corpus's own tokens;
   - the beam statistics: share of inputs whose finished hypotheses hold all probability mass (exact search)
     and share with a single nonzero-probability output;
   - the plain-text files ``translations/<set>.{detok,tok}.{hyp,ref}.txt`` (hyp/ref paired by the rest of the
     name), from which the ``sacrebleu`` CLI reproduces both BLEUs exactly
     (``sacrebleu <ref> -i <hyp> -tok 13a`` resp. ``-tok none``; signatures in the record).
5. **Analysis**: teacher-forced sparsity on validation (attended source tokens and target tokens with nonzero
   probability per step, :mod:`sparselab.analysis.sparsity`); training speed in target tokens/s (training
   steps only, after ``TranslationModule.speed_warmup_steps`` warm-up steps that compile kernels); and the
   paper's Figure 2 "autocomplete" sets: forced decoding of the reference for the first
   ``task.n_autocomplete`` test sentences, listing at each step every target token with nonzero probability
   (``extra["autocomplete"]``; for softmax, whose support is the whole vocabulary, only the
   ``task.autocomplete_max_candidates`` most probable are listed, with the support size and mass shown).
"""
from __future__ import annotations

import json
import logging
import shutil
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import torch
from omegaconf import DictConfig, OmegaConf
from torchmetrics import Metric

from sparselab import mappings
from sparselab.analysis.sparsity import teacher_forced_sparsity
from sparselab.data import parallel as par
from sparselab.data.mt_preprocess import Prepared, merge_bpe, prepare
from sparselab.data.text import BucketBatchSampler, PadCollate, PairDataset, Vocab, save_vocabs, to_device
from sparselab.decoding.beam import Seq2SeqStepModel, beam_search
from sparselab.engine.context import RunContext
from sparselab.engine.errors import ConfigError
from sparselab.models.build import build_model, model_config, save_model
from sparselab.training.seq2seq_module import Seq2SeqModule

log = logging.getLogger("sparselab")
MODEL_FILE = "model.pt"
TRANSLATIONS = "translations"


# ------------------------------------------------------------------ module
class TokenAccuracy(Metric):
    """Token accuracy (%) under teacher forcing: argmax predictions equal to the gold token, over non-padding
    target positions (EOS included)."""

    full_state_update = False

    def __init__(self, pad_id: int, **kwargs):
        super().__init__(**kwargs)
        self.pad_id = int(pad_id)
        self.add_state("correct", torch.tensor(0, dtype=torch.long), dist_reduce_fx="sum")
        self.add_state("total", torch.tensor(0, dtype=torch.long), dist_reduce_fx="sum")

    def update(self, pred: torch.Tensor, gold: torch.Tensor) -> None:
        mask = gold != self.pad_id
        self.correct += ((pred == gold) & mask).sum()
        self.total += mask.sum()

    def compute(self) -> torch.Tensor:
        return 100.0 * self.correct.double() / self.total.clamp(min=1)


class TranslationModule(Seq2SeqModule):
    """What translation adds to the generic module: teacher-forced token accuracy as the model-selection
    metric, target-token counting for the speed measurement, and a plateau scheduler stepped after every
    validation even when validation runs every N steps across epochs (``check_val_every_n_epoch: null``;
    Lightning's own step-interval scheduling counts batches within an epoch)."""

    metric_name = "val_acc"
    metric_mode = "max"
    # training steps left out of the speed measurement: the first calls compile kernels (torch.compile of the
    # sparse mappings, 10-30 s on a CPU) and warm caches
    speed_warmup_steps = 5

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.train_tgt_tokens = 0
        self.speed_tokens = 0
        self._batch_tokens = 0

    @property
    def speed_time(self) -> float:
        """Seconds in the training steps after the warm-up (device time on CUDA, training/timing.py)."""
        return self.timer.total("speed")

    def timed_keys(self) -> tuple[str, ...]:
        return ("train", "speed") if self.global_step > self.speed_warmup_steps else ("train",)

    def tokens_per_s(self) -> float:
        """Target tokens per second of training steps after the warm-up (all steps if there were no more)."""
        if self.speed_time > 0:
            return self.speed_tokens / self.speed_time
        return self.train_tgt_tokens / self.train_time if self.train_time > 0 else 0.0

    def make_metric(self):
        return TokenAccuracy(pad_id=self.model.tgt_pad_id)

    def decode(self, batch):
        """Teacher-forced argmax (B, T)."""
        return self.model(batch["src"], batch["src_len"], batch["tgt_in"]).argmax(-1)

    # one forward per validation batch: loss and accuracy from the same logits
    def validation_step(self, batch, batch_idx):
        logits = self.model(batch["src"], batch["src_len"], batch["tgt_in"])
        loss = mappings.fy_loss(logits.reshape(-1, logits.size(-1)), batch["tgt_out"].reshape(-1), self.alpha,
                                reduction="sum", ignore_index=self.pad_id)
        self.val_loss_sum.update(loss.detach())
        self.val_tokens.update((batch["tgt_out"] != self.pad_id).sum())
        self.val_metric.update(logits.argmax(-1), batch["tgt_out"])

    def on_before_batch_transfer(self, batch, dataloader_idx):
        # the step's target tokens, counted on the host copy of the batch: no device sync per step
        if self._trainer is not None and self.trainer.training:
            self._batch_tokens = int((batch["tgt_out"] != self.pad_id).sum())
        return batch

    def on_train_batch_end(self, outputs, batch, batch_idx):
        super().on_train_batch_end(outputs, batch, batch_idx)
        n = self._batch_tokens
        self.train_tgt_tokens += n
        if self.global_step > self.speed_warmup_steps:
            self.speed_tokens += n


# ------------------------------------------------------------------ data
def _pair_settings(cfg: DictConfig) -> tuple[str, str, DictConfig]:
    src_lang, tgt_lang = par.parse_pair(cfg.data.pair)
    pairs = cfg.data.pairs
    if str(cfg.data.pair) not in pairs:
        raise ConfigError(f"data.pair={cfg.data.pair!r}: not configured; pairs: {', '.join(pairs)}")
    return src_lang, tgt_lang, pairs[str(cfg.data.pair)]


def load_data(cfg: DictConfig) -> tuple[dict[str, par.ParallelSplit], par.Corpus, DictConfig]:
    """Read (and so check) every split the run uses; train/val/test/``extra:<name>`` -> split."""
    src_lang, tgt_lang, ps = _pair_settings(cfg)
    d = cfg.data
    if not ps.get("train"):
        raise ConfigError(f"data.pairs.{cfg.data.pair}.train: no training corpus for {cfg.data.pair} in profile "
                          f"{cfg.profile.name} ({ps.get('note', '')})")
    specs = {"train": str(ps.train), "val": str(ps.val), "test": str(ps.test)}
    for name, spec in (ps.get("extra_test") or {}).items():
        if spec is not None:
            specs[f"extra:{name}"] = str(spec)
    corpus = par.corpus_of(specs["train"])
    for role, spec in specs.items():
        if par.corpus_of(spec).pretokenized != corpus.pretokenized:
            raise ConfigError(f"data.pairs.{cfg.data.pair}: {spec} and the training corpus {specs['train']} differ "
                              f"in tokenization (one is already tokenized)")
    splits = par.read_splits(specs, src_lang, tgt_lang, d.get("root"), empty={"train": str(d.get("train_empty", "drop"))})
    limits = {"train": int(d.max_train), "val": int(d.max_val), "test": int(d.max_test)}
    for role in splits:
        splits[role] = splits[role].head(limits.get(role, int(d.max_extra_test)))
    return splits, corpus, ps


def _dataset(src_lines: list[str], tgt_lines: list[str], src: Vocab, tgt: Vocab) -> PairDataset:
    return PairDataset.from_symbols(((s.split(), t.split()) for s, t in zip(src_lines, tgt_lines)), src, tgt)


def _loader(ds: PairDataset, src: Vocab, tgt: Vocab, batch_size: int, shuffle: bool = False, seed: int = 0):
    collate = PadCollate.from_vocabs(src, tgt)
    if shuffle:
        return torch.utils.data.DataLoader(ds, batch_sampler=BucketBatchSampler(ds, batch_size, seed=seed),
                                           collate_fn=collate, num_workers=0)
    return torch.utils.data.DataLoader(ds, batch_size=batch_size, shuffle=False, collate_fn=collate, num_workers=0)


# ------------------------------------------------------------------ BLEU
def bleu_scores(hyps_detok: list[str], refs_detok: list[str], hyps_tok: list[str], refs_tok: list[str],
                tgt_lang: str) -> dict:
    """Detokenized SacreBLEU (13a, or ja-mecab for Japanese) and tokenized BLEU (tokenize='none' on
    tokenized text, as multi-bleu.perl), each with its score and signature."""
    from sacrebleu.metrics import BLEU

    detok = BLEU(tokenize="ja-mecab" if tgt_lang == "ja" else "13a")
    tok = BLEU(tokenize="none", force=True)
    d = detok.corpus_score(hyps_detok, [refs_detok])
    t = tok.corpus_score(hyps_tok, [refs_tok])
    return {"bleu": d.score, "bleu_signature": str(detok.get_signature()), "bleu_tok": t.score,
            "bleu_tok_signature": str(tok.get_signature()), "bleu_detail": str(d), "bleu_tok_detail": str(t)}


def bleu_tokenization(tgt_lang: str, corpus: par.Corpus, prep: Prepared) -> str:
    """How the two BLEUs of a run are tokenized, in words (for the record and the report header)."""
    detok = "ja-mecab" if tgt_lang == "ja" else "13a"
    if corpus.pretokenized:
        ref_tok = f"the corpus ({corpus.note})"
    else:
        ref_tok = prep.info["tokenizer"][tgt_lang]
    return (f"bleu: SacreBLEU tokenize={detok} on detokenized hypotheses against "
            f"{'the detokenized corpus references' if corpus.pretokenized else 'the raw references'}; "
            f"bleu_tok: SacreBLEU tokenize=none (multi-bleu.perl's computation, case kept) on BPE-merged "
            f"hypotheses against references tokenized by {ref_tok}")


def write_lines(path: Path, lines: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(line.replace("\n", " ") + "\n" for line in lines), encoding="utf-8")


# ------------------------------------------------------------------ evaluation
def translate(step_model, ds: PairDataset, src: Vocab, tgt: Vocab, beam: int, batch_size: int, max_len: int,
              length_norm: float = 0.0):
    """Beam-decode every item of ``ds`` in order; BeamResults. The length limit per batch is
    ``min(max_len, 2 × longest source + 10)``."""
    dl = _loader(ds, src, tgt, batch_size)
    device = getattr(step_model, "device", torch.device("cpu"))
    out = []
    for batch in dl:
        limit = min(int(max_len), 2 * int(batch["src_len"].max()) + 10)
        out += beam_search(step_model, to_device(batch, device), batch["src"].size(0), beam=beam, max_len=limit,
                           length_norm=length_norm)
    return out


def evaluate_set(name: str, step_model, src_side, tgt_side, prep: Prepared, src: Vocab, tgt: Vocab, cfg,
                 out_dir: Path, tgt_lang: str, pretokenized: bool) -> tuple[dict, dict]:
    t0 = time.time()
    tc = cfg.task
    ds = _dataset(src_side.bpe, tgt_side.bpe, src, tgt)
    res = translate(step_model, ds, src, tgt, int(tc.beam), int(tc.decode_batch_size), int(tc.max_decode_len),
                    float(tc.get("length_norm", 0.0) or 0.0))
    hyp_tok = [" ".join(merge_bpe(tgt.symbols(r.best))) for r in res]
    hyp_detok = [prep.tgt_tokenizer.detokenize(h.split()) for h in hyp_tok]
    ref_tok = list(tgt_side.tok)
    ref_detok = [prep.tgt_tokenizer.detokenize(r.split()) for r in ref_tok] if pretokenized else list(tgt_side.raw)
    files = {}
    for kind, lines in (("detok.hyp", hyp_detok), ("detok.ref", ref_detok), ("tok.hyp", hyp_tok), ("tok.ref", ref_tok)):
        p = out_dir / f"{name}.{kind}.txt"
        write_lines(p, lines)
        files[kind] = str(p.relative_to(out_dir.parent))
    scores = bleu_scores(hyp_detok, ref_detok, hyp_tok, ref_tok, tgt_lang)
    exact = [r.exact() for r in res]
    single = [r.single() for r in res]
    n_out = Counter(len(r.hypotheses) for r in res if r.exact())
    metrics = {"bleu": scores["bleu"], "bleu_tok": scores["bleu_tok"],
               "exact_share": sum(exact) / max(1, len(exact)), "single_share": sum(single) / max(1, len(single)),
               "n": float(len(res)), "decode_time_s": time.time() - t0,
               "hyp_len_ratio": sum(len(h.split()) for h in hyp_tok) / max(1, sum(len(r.split()) for r in ref_tok))}
    extra = {"files": files, "bleu_signature": scores["bleu_signature"],
             "bleu_tok_signature": scores["bleu_tok_signature"], "bleu_detail": scores["bleu_detail"],
             "bleu_tok_detail": scores["bleu_tok_detail"],
             "exact_output_count_histogram": {str(k): v for k, v in sorted(n_out.items())},
             "examples": [{"src": s, "ref": r, "hyp": h} for s, r, h in zip(src_side.raw[:3], ref_detok[:3], hyp_detok[:3])]}
    return metrics, extra


@torch.no_grad()
def forced_candidates(model, alpha: float, src_ids: list[int], tgt_ids: list[int], tgt: Vocab,
                      max_candidates: int | None = None) -> list[dict]:
    """Force-decode ``tgt_ids`` (ending in EOS) given ``src_ids``; per step, every target token with nonzero
    probability under ``entmax(logits, α)`` (float64, as the beam search), most probable first.

    Each step: ``gold`` (the forced token), ``gold_prob``, ``support`` (number of nonzero tokens), ``candidates``
    ``[[token, prob], ...]`` (all of them, or the ``max_candidates`` most probable), ``shown_mass`` (their sum:
    1 up to rounding when nothing is cut)."""
    model.eval()
    device = next(model.parameters()).device
    src_t = torch.tensor([src_ids], dtype=torch.long, device=device)
    state = model.encode(src_t, torch.tensor([len(src_ids)]))
    prev = torch.tensor([model.bos_id], dtype=torch.long, device=device)
    steps = []
    for y in tgt_ids:
        logits, _, state = model.step(prev, state)
        p = mappings.entmax(logits.double(), alpha, dim=-1)[0]
        nz = (p > 0).nonzero(as_tuple=True)[0]
        vals, order = p[nz].sort(descending=True)
        idx = nz[order]
        if max_candidates is not None:
            vals, idx = vals[: int(max_candidates)], idx[: int(max_candidates)]
        steps.append({"gold": tgt.itos[int(y)], "gold_prob": float(p[int(y)]), "support": int(nz.numel()),
                      "candidates": [[tgt.itos[int(i)], float(v)] for i, v in zip(idx.tolist(), vals.tolist())],
                      "shown_mass": float(vals.sum())})
        prev = torch.tensor([int(y)], dtype=torch.long, device=device)
    return steps


def autocomplete_examples(model, alpha, test_src, test_tgt, src: Vocab, tgt: Vocab, n: int,
                          max_candidates: int | None) -> list[dict]:
    out = []
    for i in range(min(int(n), len(test_src.bpe))):
        s_ids = src.encode(test_src.bpe[i].split())
        t_ids = tgt.encode(test_tgt.bpe[i].split(), eos=True)
        steps = forced_candidates(model, alpha, s_ids, t_ids, tgt, max_candidates)
        out.append({"index": i, "src": test_src.raw[i], "ref": test_tgt.raw[i], "ref_bpe": test_tgt.bpe[i],
                    "max_candidates": max_candidates, "steps": steps})
    return out


# ------------------------------------------------------------------ shared by the translation tasks
@dataclass
class MTData:
    """Everything a translation run trains and tests on: checked splits, tokenized + BPE text, vocabularies
    and the training / validation datasets (training pairs longer than ``data.max_len`` dropped)."""
    src_lang: str
    tgt_lang: str
    splits: dict
    corpus: par.Corpus
    pair_cfg: DictConfig
    prep: Prepared
    src: Vocab
    tgt: Vocab
    train_ds: PairDataset
    val_ds: PairDataset
    n_dropped_long: int
    prep_time: float


def prepare_data(cfg: DictConfig, ctx: RunContext) -> MTData:
    """Read and check every split (before anything is trained), tokenize + BPE (cached), build and save the
    vocabularies (``vocab.json``) and the datasets."""
    src_lang, tgt_lang = par.parse_pair(cfg.data.pair)
    t_data = time.time()
    splits, corpus, ps = load_data(cfg)
    cache_dir = Path(str(cfg.data.cache_dir)).expanduser()
    prep = prepare({role: (sp.src, sp.tgt) for role, sp in splits.items()}, src_lang, tgt_lang, corpus.pretokenized,
                   int(ps.bpe_merges), bool(ps.bpe_joint), cache_dir, int(cfg.data.get("bpe_min_frequency", 2)),
                   log=log)
    prep_time = time.time() - t_data
    tr_src, tr_tgt = prep.splits["train"]
    src = Vocab.from_counts(Counter(p for line in tr_src.bpe for p in line.split()), joiner=" ")
    tgt = Vocab.from_counts(Counter(p for line in tr_tgt.bpe for p in line.split()), joiner=" ")
    save_vocabs(ctx.path("vocab.json"), src=src, tgt=tgt)
    max_len = int(cfg.data.max_len)
    keep = [i for i, (s, t) in enumerate(zip(tr_src.bpe, tr_tgt.bpe))
            if 0 < len(s.split()) <= max_len and 0 < len(t.split()) <= max_len]
    train_ds = _dataset([tr_src.bpe[i] for i in keep], [tr_tgt.bpe[i] for i in keep], src, tgt)
    va_src, va_tgt = prep.splits["val"]
    val_ds = _dataset(va_src.bpe, va_tgt.bpe, src, tgt)
    log.info("translation %s (%s): %d train pairs (%d longer than %d BPE tokens dropped, %d empty dropped), "
             "%d val, %d test; BPE %s %d merges; vocab src %d tgt %d; preprocessing %.1fs",
             cfg.data.pair, corpus.name, len(train_ds), len(tr_src.bpe) - len(keep), max_len,
             splits["train"].dropped_empty, len(val_ds), len(splits["test"]), "joint" if ps.bpe_joint else "separate",
             int(ps.bpe_merges), len(src), len(tgt), prep_time)
    return MTData(src_lang, tgt_lang, splits, corpus, ps, prep, src, tgt, train_ds, val_ds,
                  len(tr_src.bpe) - len(keep), prep_time)


def test_all(cfg: DictConfig, data: MTData, step_model, out_dir: Path) -> tuple[dict, dict, dict]:
    """Beam-decode the test set and every extra test set; ``(metrics, test extra, {name: extra set})`` with
    ``bleu_<name>``/``bleu_tok_<name>`` of the extra sets added to the metrics."""
    ps = data.pair_cfg
    te_src, te_tgt = data.prep.splits["test"]
    metrics, test_extra = evaluate_set(str(ps.test).replace("/", "-"), step_model, te_src, te_tgt, data.prep,
                                       data.src, data.tgt, cfg, out_dir, data.tgt_lang, data.corpus.pretokenized)
    extra_sets = {}
    for role in data.splits:
        if not role.startswith("extra:"):
            continue
        name = role.split(":", 1)[1]
        s_side, t_side = data.prep.splits[role]
        m, e = evaluate_set(f"{name}-{str(ps.extra_test[name]).replace('/', '-')}", step_model, s_side, t_side,
                            data.prep, data.src, data.tgt, cfg, out_dir, data.tgt_lang, data.corpus.pretokenized)
        extra_sets[name] = {"spec": str(ps.extra_test[name]), "metrics": m, **e}
        metrics[f"bleu_{name}"] = m["bleu"]
        metrics[f"bleu_tok_{name}"] = m["bleu_tok"]
    return metrics, test_extra, extra_sets


def data_record(data: MTData) -> dict:
    """The record's description of the data and its preprocessing."""
    return {"pair": f"{data.src_lang}-{data.tgt_lang}", "src_lang": data.src_lang, "tgt_lang": data.tgt_lang,
            "corpus": data.corpus.name,
            "splits": {role: {"spec": sp.name, "n": len(sp), "files": list(sp.files), "dropped_empty": sp.dropped_empty}
                       for role, sp in data.splits.items()},
            "preprocessing": data.prep.info, "n_train_dropped_long": data.n_dropped_long,
            "bleu_tokenization": bleu_tokenization(data.tgt_lang, data.corpus, data.prep)}


def fit(module, train_dl, val_dl, cfg: DictConfig, ctx: RunContext, extra_callbacks=()) -> dict:
    """Train with the module's model selection (best state by its metric, early stopping when
    ``task.early_stopping_patience`` is set), load the best state; ``{fit_time_s, stopped_early, steps}``."""
    from sparselab.engine.trainer import ValidateOnLastStep, make_trainer

    ckpt_dir = ctx.run_dir / "checkpoints"
    shutil.rmtree(ckpt_dir, ignore_errors=True)
    callbacks = module.callbacks(ckpt_dir, cfg.task.get("early_stopping_patience"),
                                 cfg.task.get("early_stopping_min_delta", 0.0),
                                 cfg.task.get("early_stopping_start", 0.0))
    trainer = make_trainer(cfg.trainer, ctx, callbacks=[*callbacks, ValidateOnLastStep(), *extra_callbacks],
                           train_batches=len(train_dl), num_sanity_val_steps=0)
    t0 = time.time()
    trainer.fit(module, train_dl, val_dl)
    fit_time = time.time() - t0
    stop = next((c for c in callbacks if hasattr(c, "stopping_reason")), None)
    stopped_early = stop is not None and stop.stopping_reason.name != "NOT_STOPPED"
    module.load_best(callbacks[0])
    shutil.rmtree(ckpt_dir, ignore_errors=True)
    module.model.to(trainer.strategy.root_device)
    module.model.eval()
    return {"fit_time_s": fit_time, "stopped_early": bool(stopped_early), "steps": int(trainer.global_step)}


def training_metrics(module, fitted: dict, data: MTData) -> dict:
    """Model selection, speed and size numbers of a fitted :class:`TranslationModule`."""
    tps = module.tokens_per_s()
    sps = module.train_samples / module.train_time if module.train_time > 0 else 0.0
    best = module.best_score if module.best_score is not None else -1.0
    best_step = max((h for h in module.history), key=lambda h: h["val_acc"], default={}).get("step", -1)
    return {"val_acc_best": best, "best_step": float(best_step), "steps": float(fitted["steps"]),
            "train_tgt_tokens_per_s": tps, "train_samples_per_s": sps, "fit_time_s": fitted["fit_time_s"],
            "train_time_s": module.train_time, "preprocess_time_s": data.prep_time,
            "train_tgt_tokens": float(module.train_tgt_tokens), "n_train": float(len(data.train_ds)),
            "src_vocab": float(len(data.src)), "tgt_vocab": float(len(data.tgt))}


# ------------------------------------------------------------------ task entry
def run(cfg: DictConfig, ctx: RunContext) -> dict:
    alpha, attn_alpha = float(cfg.mapping.alpha), float(cfg.mapping.attn_alpha)
    data = prepare_data(cfg, ctx)
    src, tgt = data.src, data.tgt
    log.info("α=%g attn α=%g", alpha, attn_alpha)
    train_dl = _loader(data.train_ds, src, tgt, int(cfg.task.batch_size), shuffle=True, seed=int(cfg.seed))
    val_dl = _loader(data.val_ds, src, tgt, int(cfg.task.decode_batch_size))

    mcfg = model_config(cfg.model, src, tgt)
    model = build_model(mcfg)
    module = TranslationModule(model, alpha, lr=float(cfg.task.lr), ctx=ctx,
                               lr_rule=str(cfg.task.get("lr_rule", "best")))
    fitted = fit(module, train_dl, val_dl, cfg, ctx)
    save_model(ctx.path(MODEL_FILE), model, mcfg, src, tgt, alpha, attn_alpha, [data.src_lang, data.tgt_lang])

    metrics, test_extra, extra_sets = test_all(cfg, data, Seq2SeqStepModel(model, alpha), ctx.run_dir / TRANSLATIONS)
    sp_metrics, sp_extra = teacher_forced_sparsity(model, val_dl, alpha, tgt.pad_id)
    te_src, te_tgt = data.prep.splits["test"]
    auto = autocomplete_examples(model, alpha, te_src, te_tgt, src, tgt, int(cfg.task.n_autocomplete),
                                 cfg.task.get("autocomplete_max_candidates"))
    ctx.path("autocomplete.json").write_text(json.dumps(auto, ensure_ascii=False, indent=1))
    metrics.update(sp_metrics)
    metrics.update(training_metrics(module, fitted, data))
    extra = {**data_record(data), "test": {"spec": str(data.pair_cfg.test), **test_extra}, "extra_test": extra_sets,
             "history": module.history, "stopped_early": fitted["stopped_early"], "autocomplete": auto,
             "model_file": MODEL_FILE, **sp_extra}
    return {"metrics": metrics, "best": {"val_acc": metrics["val_acc_best"], "step": int(metrics["best_step"])},
            "extra": extra}
