"""What the Correia et al. (2019) analyses read off a trained Transformer, in one teacher-forced pass.

:func:`analyze_heads` gathers, over a set of batches: head density per head (Figures 4-5), Jensen-Shannon
head diversity per layer (Figure 6), positional, BPE-merging and interrogation heads (§5.2,
:mod:`sparselab.analysis.head_roles`) and the attention maps of a few example sentences. Plain containers,
for the run record.
"""
from __future__ import annotations

import torch

from sparselab.analysis import head_roles as roles
from sparselab.analysis.heads import HeadStatistics


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
    # one process computes these (after training, rank 0 alone): no metric may wait for other DDP ranks
    local = {"sync_on_compute": False}
    stats = HeadStatistics(H, n_enc, n_dec, **local).to(device)
    layers = {"enc_self": n_enc, "dec_self": n_dec}
    side = {"enc_self": (src_pieces, src_lang), "dec_self": (tgt_pieces, tgt_lang)}
    pos = {k: [roles.PositionalHeads(H, **local).to(device) for _ in range(n)] for k, n in layers.items()}
    bpe = {k: [roles.BPEMerging(H, **local).to(device) for _ in range(n)] for k, n in layers.items()}
    ask = {k: [roles.Interrogation(H, **local).to(device) for _ in range(n)] for k, n in layers.items()}
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
