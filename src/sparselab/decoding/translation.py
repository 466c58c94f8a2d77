"""Beam-search translation of the test sets of a run, their BLEU and files, and forced-decoding "autocomplete" sets.

:func:`test_all` decodes the test set and every extra test set (:class:`~sparselab.decoding.beam.BeamSettings`), scores both BLEUs
(:mod:`sparselab.decoding.bleu`) and writes ``translations/<set>.{detok,tok}.{hyp,ref}.txt``, from which the
``sacrebleu`` CLI reproduces both BLEUs exactly (``sacrebleu <ref> -i <hyp> -tok 13a`` resp. ``-tok none``);
with each set the beam statistics: the share of inputs whose finished hypotheses hold all probability mass
(exact search) and the share with a single nonzero-probability output. :func:`autocomplete_examples`: the
paper's Figure 2 sets, every target token with nonzero probability at each step of a forced decode.
"""
from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

import torch
from sparselab import mappings
from sparselab.data.mt_data import MTData, dataset, loader
from sparselab.data.mt_preprocess import Prepared, merge_bpe
from sparselab.data.text import PairDataset, Vocab, to_device
from sparselab.decoding.beam import BeamSettings, beam_search, device_of
from sparselab.decoding.bleu import bleu_scores, write_lines

TRANSLATIONS = "translations"


def translate(step_model, ds: PairDataset, src: Vocab, tgt: Vocab, beam: int, batch_size: int, max_len: int,
              length_norm: float = 0.0):
    """Beam-decode every item of ``ds`` in order; BeamResults. The length limit per batch is
    ``min(max_len, 2 × longest source + 10)``."""
    dl = loader(ds, src, tgt, batch_size)
    device = device_of(step_model)
    out = []
    for batch in dl:
        limit = min(int(max_len), 2 * int(batch["src_len"].max()) + 10)
        out += beam_search(step_model, to_device(batch, device), batch["src"].size(0), beam=beam, max_len=limit,
                           length_norm=length_norm)
    return out


def evaluate_set(name: str, step_model, src_side, tgt_side, prep: Prepared, src: Vocab, tgt: Vocab,
                 beam: BeamSettings, out_dir: Path, tgt_lang: str, pretokenized: bool) -> tuple[dict, dict]:
    t0 = time.time()
    ds = dataset(src_side.bpe, tgt_side.bpe, src, tgt)
    res = translate(step_model, ds, src, tgt, beam.beam, beam.batch_size, beam.max_len, beam.length_norm)
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


def test_all(beam: BeamSettings, data: MTData, step_model, out_dir: Path) -> tuple[dict, dict, dict]:
    """Beam-decode the test set and every extra test set; ``(metrics, test extra, {name: extra set})`` with
    ``bleu_<name>``/``bleu_tok_<name>`` of the extra sets added to the metrics."""
    ps = data.pair_settings
    te_src, te_tgt = data.prep.splits["test"]
    metrics, test_extra = evaluate_set(str(ps.test).replace("/", "-"), step_model, te_src, te_tgt, data.prep,
                                       data.src, data.tgt, beam, out_dir, data.tgt_lang, data.corpus.pretokenized)
    extra_sets = {}
    for role in data.splits:
        if not role.startswith("extra:"):
            continue
        name = role.split(":", 1)[1]
        s_side, t_side = data.prep.splits[role]
        m, e = evaluate_set(f"{name}-{str(ps.extra_test[name]).replace('/', '-')}", step_model, s_side, t_side,
                            data.prep, data.src, data.tgt, beam, out_dir, data.tgt_lang, data.corpus.pretokenized)
        extra_sets[name] = {"spec": str(ps.extra_test[name]), "metrics": m, **e}
        metrics[f"bleu_{name}"] = m["bleu"]
        metrics[f"bleu_tok_{name}"] = m["bleu_tok"]
    return metrics, test_extra, extra_sets
