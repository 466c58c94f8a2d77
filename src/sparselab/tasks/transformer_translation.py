"""Task ``transformer_translation``: Correia, Niculae & Martins (2019), the adaptively sparse Transformer.

One run trains one direction (``data.pair``) with the attention normalizers of ``model.normalizers`` (softmax,
1.5-entmax, or α-entmax with a learned α per head: ``mapping=softmax|entmax15|alpha_entmax``), then:

1. **Data, preprocessing, BLEU**: those of the LSTM translation task (:mod:`sparselab.tasks.translation`:
   checked splits, Moses / MeCab tokenization, BPE learned on the training split, detokenized SacreBLEU and
   tokenized BLEU with the hypothesis / reference files, beam statistics).
2. **Training**: :class:`~sparselab.training.transformer_module.TransformerModule` (Adam, linear warm-up then
   inverse-sqrt decay), batches of at most ``task.batch_tokens`` padded tokens
   (:class:`~sparselab.data.text.TokenBucketBatchSampler`), model selection on validation token accuracy, early
   stopping after ``task.early_stopping_patience`` validations without improvement. Every learned α is recorded
   every ``task.alpha_every`` steps (:class:`~sparselab.training.alpha_trajectory.AlphaTrajectory`; Figure 2).
3. **Analyses** of the selected model on the validation set (teacher forcing, :func:`analyze_heads`): head
   density per head (Figures 4–5), JS head diversity per layer (Figure 6), positional, BPE-merging and
   interrogation heads (§5.2), the learned α's (Figure 3), and the attention maps of a few example sentences;
   the same statistics (no maps) of the untrained model, before ``fit`` (``extra.heads_initial``).
"""
from __future__ import annotations

import logging

import torch
from omegaconf import DictConfig

from sparselab.analysis import head_roles as roles
from sparselab.analysis.heads import HeadStatistics, learned_alphas
from sparselab.data.text import TokenBucketBatchSampler, PadCollate
from sparselab.decoding.beam import Seq2SeqStepModel
from sparselab.engine.context import RunContext
from sparselab.models.build import build_model, model_config, save_model
from sparselab.tasks import translation as mt
from sparselab.training.alpha_trajectory import AlphaTrajectory
from sparselab.training.transformer_module import TransformerModule

log = logging.getLogger("sparselab")
MODEL_FILE = "model.pt"


def train_loader(ds, src, tgt, max_tokens: int, seed: int):
    return torch.utils.data.DataLoader(ds, batch_sampler=TokenBucketBatchSampler(ds, max_tokens, seed=seed),
                                       collate_fn=PadCollate.from_vocabs(src, tgt), num_workers=0)


# ------------------------------------------------------------------ analyses
@torch.no_grad()
def analyze_heads(model, batches, src_pieces: list[list[str]], tgt_pieces: list[list[str]], src_lang: str,
                  tgt_lang: str, n_examples: int = 2, example_max_len: int = 16) -> dict:
    """Head statistics of a trained Transformer over ``batches`` (teacher forcing, eval mode).

    ``src_pieces``/``tgt_pieces``: the BPE pieces of every item, indexed by the batches' ``idx``.
    Returns plain containers: ``density`` {kind: {layer: [per head]}}, ``js`` {kind: {layer: value}},
    ``positional`` {kind: {layer: PositionalHeads stats}} for the self-attentions, ``bpe_merging`` and
    ``interrogation`` {kind: {layer: [per head]}} on the side the self-attention reads, and ``examples``
    (the maps of the first ``n_examples`` items with at most ``example_max_len`` pieces on both sides,
    questions first)."""
    model.eval()
    device = next(model.parameters()).device
    H, n_enc, n_dec = model.heads, len(model.encoder), len(model.decoder)
    stats = HeadStatistics(H, n_enc, n_dec).to(device)
    layers = {"enc_self": n_enc, "dec_self": n_dec}
    side = {"enc_self": (src_pieces, src_lang), "dec_self": (tgt_pieces, tgt_lang)}
    pos = {k: [roles.PositionalHeads(H).to(device) for _ in range(n)] for k, n in layers.items()}
    bpe = {k: [roles.BPEMerging(H).to(device) for _ in range(n)] for k, n in layers.items()}
    ask = {k: [roles.Interrogation(H).to(device) for _ in range(n)] for k, n in layers.items()}
    wanted = _example_items(src_pieces, tgt_pieces, n_examples, example_max_len)
    examples = []
    for batch in batches:
        b = {k: v.to(device) for k, v in batch.items()}
        _, maps = model(b["src"], b["src_len"], b["tgt_in"], return_attn=True)
        stats.update(maps)
        idx = batch["idx"].tolist()
        for kind, n in layers.items():
            pieces, lang = side[kind]
            mask = maps.masks(kind)[0]
            L = mask.size(1)
            # decoder self-attention reads BOS + target: piece i of the target sits at position i + 1
            shift = 1 if kind == "dec_self" else 0
            items = [[""] * shift + pieces[i] for i in idx]
            items = [p[:L] for p in items]
            wid = roles.word_id_tensor(items, L).to(device)
            if shift:
                wid[:, 0] = -1
            qw, qm = roles.question_masks(items, L, words=roles.QUESTION_WORDS.get(lang, frozenset()))
            for layer in range(n):
                attn = maps.of(kind)[layer]
                pos[kind][layer].update(attn, mask)
                bpe[kind][layer].update(attn, wid)
                ask[kind][layer].update(attn, qw.to(device), qm.to(device))
        for row, i in enumerate(idx):
            if i in wanted:
                examples.append(_example(maps, row, i, src_pieces[i], tgt_pieces[i]))
    examples.sort(key=lambda e: wanted.index(e["index"]))

    def per_layer(metrics):
        return {k: {layer: [float(x) for x in m.compute()] for layer, m in enumerate(ms)} for k, ms in metrics.items()}
    return {"density": stats.per_head_density(), "js": stats.js_by_layer(),
            "positional": {k: {layer: {s: [float(x) for x in v] for s, v in m.compute().items()}
                               for layer, m in enumerate(ms)} for k, ms in pos.items()},
            "bpe_merging": per_layer(bpe), "interrogation": per_layer(ask),
            "interrogation_queries": {k: int(ms[0].queries) for k, ms in ask.items()},
            "bpe_words": {k: int(ms[0].words) for k, ms in bpe.items()},
            "examples": examples}


def _example_items(src_pieces, tgt_pieces, n: int, max_len: int) -> list[int]:
    """Items whose sides have at most ``max_len`` pieces, questions first; topped up with the shortest items."""
    size = [max(len(s), len(t)) for s, t in zip(src_pieces, tgt_pieces)]
    short = [i for i in range(len(size)) if size[i] <= max_len]
    questions = [i for i in short if "?" in src_pieces[i]]
    chosen = (questions + [i for i in short if i not in questions])[:n]
    rest = sorted((i for i in range(len(size)) if i not in chosen), key=size.__getitem__)
    return chosen + rest[: n - len(chosen)]


def _example(maps, row: int, index: int, src: list[str], tgt: list[str]) -> dict:
    S, T = len(src), len(tgt) + 1   # decoder positions: BOS + target (the last one predicts EOS)
    tgt_in = ["<s>"] + tgt
    cut = {"enc_self": (S, S), "dec_self": (T, T), "context": (T, S)}
    out = {"index": index, "src": src, "tgt_in": tgt_in}
    for kind, (q, k) in cut.items():
        out[kind] = [[[[round(float(x), 5) for x in r] for r in head[:q, :k].tolist()] for head in layer[row]]
                     for layer in maps.of(kind)]
    return out


# ------------------------------------------------------------------ task entry
def run(cfg: DictConfig, ctx: RunContext) -> dict:
    data = mt.prepare_data(cfg, ctx)
    src, tgt, tc = data.src, data.tgt, cfg.task
    train_dl = train_loader(data.train_ds, src, tgt, int(tc.batch_tokens), int(cfg.seed))
    val_dl = mt._loader(data.val_ds, src, tgt, int(tc.decode_batch_size))
    mcfg = model_config(cfg.model, src, tgt)
    model = build_model(mcfg)
    n_params = sum(p.numel() for p in model.parameters())
    log.info("transformer: %d parameters; normalizers %s", n_params,
             {k: repr(getattr(model.encoder[0].self_attn if k == "enc_self" else
                              model.decoder[0].self_attn if k == "dec_self" else model.decoder[0].context_attn,
                              "normalizer")) for k in ("enc_self", "dec_self", "context")})
    module = TransformerModule(model, float(cfg.mapping.alpha), lr=float(tc.lr), ctx=ctx,
                               warmup_steps=int(tc.warmup_steps), alpha_lr=tc.get("alpha_lr"))
    trajectory = AlphaTrajectory(every_n_steps=int(tc.alpha_every))
    va_src, va_tgt = data.prep.splits["val"]
    va_pieces = [s.split() for s in va_src.bpe], [t.split() for t in va_tgt.bpe]
    # the same statistics before training: the reports judge each claim against its value at step 0
    heads_initial = analyze_heads(model, val_dl, *va_pieces, data.src_lang, data.tgt_lang, n_examples=0)
    fitted = mt.fit(module, train_dl, val_dl, cfg, ctx, extra_callbacks=[trajectory])
    out_alpha = module.final_output_alpha()
    save_model(ctx.path(MODEL_FILE), model, mcfg, src, tgt, out_alpha, float("nan"), [data.src_lang, data.tgt_lang])

    metrics, test_extra, extra_sets = mt.test_all(cfg, data, Seq2SeqStepModel(model, out_alpha),
                                                  ctx.run_dir / mt.TRANSLATIONS)
    heads = analyze_heads(model, val_dl, *va_pieces, data.src_lang, data.tgt_lang, int(tc.n_attention_examples))
    alphas = learned_alphas(model)
    metrics.update(mt.training_metrics(module, fitted, data))
    metrics.update({"output_alpha": out_alpha, "n_params": float(n_params)})
    for kind, layers in heads["js"].items():
        metrics.update({f"js_{kind}_l{i}": v for i, v in layers.items()})
    for kind, layers in heads["density"].items():
        all_heads = [d for v in layers.values() for d in v]
        metrics[f"density_{kind}"] = sum(all_heads) / max(1, len(all_heads))
    extra = {**mt.data_record(data), "test": {"spec": str(data.pair_cfg.test), **test_extra},
             "extra_test": extra_sets, "history": module.history, "stopped_early": fitted["stopped_early"],
             "model_file": MODEL_FILE, "alpha_trajectory": trajectory.to_record(),
             "learned_alpha": {k: {str(i): v for i, v in layers.items()} for k, layers in alphas.items()},
             "heads": heads, "heads_initial": heads_initial}
    return {"metrics": metrics, "best": {"val_acc": metrics["val_acc_best"], "step": int(metrics["best_step"])},
            "extra": extra}
