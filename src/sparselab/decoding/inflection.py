"""Evaluation of an inflection model (Peters et al. 2019): beam decoding of a split, word accuracy and edit
distance from the shared-task-format prediction files, the beam's exactness certificate and single-sequence
share, every finished output of a few dev inputs, and teacher-forced sparsity on validation."""
from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

from sparselab.analysis.sparsity import teacher_forced_sparsity
from sparselab.data import sigmorphon as sg
from sparselab.data.inflection_data import loader
from sparselab.data.text import Vocab, to_device
from sparselab.decoding.beam import BeamSettings, beam_search, device_of
from sparselab.models.seq2seq import Seq2Seq


def decode(step_model, data: dict[str, list[sg.Example]], src: Vocab, tgt: Vocab, beam: int,
           batch_size: int, max_len: int, length_norm: float = 0.0):
    """Beam-decode every example on the model's device; returns {lang: [BeamResult, ...]} in file order."""
    out = {}
    device = device_of(step_model)
    for lang in sorted(data):
        ds, dl = loader({lang: data[lang]}, src, tgt, batch_size)
        res = []
        for batch in dl:
            res += beam_search(step_model, to_device(batch, device), batch["src"].size(0), beam=beam,
                               max_len=max_len, length_norm=length_norm)
        out[lang] = res
    return out


def evaluate(step_model, ev, src, tgt, beam: BeamSettings, eval_split: str, run_dir: Path,
             gold_files: dict[str, Path]) -> tuple[dict, dict]:
    t0 = time.time()
    results = decode(step_model, ev, src, tgt, beam.beam, beam.batch_size, beam.max_len, beam.length_norm)
    pred_dir = run_dir / "predictions"
    pred_dir.mkdir(parents=True, exist_ok=True)
    per_lang, n_hyps = {}, Counter()
    exact_all, single_all = [], []
    for lang, res in results.items():
        preds = [tgt.decode(r.best) for r in res]
        pf = pred_dir / f"{lang}-{eval_split}"
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
    extra = {"per_language": per_lang, "eval_split": str(eval_split),
             "exact_output_count_histogram": {str(k): v for k, v in sorted(n_hyps.items())}}
    return metrics, extra


def beam_shares(step_model, data, src: Vocab, tgt: Vocab, beam: BeamSettings, prefix: str) -> dict[str, float]:
    """Exact-beam and single-sequence shares of a beam decode of ``data`` (all languages pooled), named
    ``<prefix>exact_share`` / ``<prefix>single_share``."""
    results = decode(step_model, data, src, tgt, beam.beam, beam.batch_size, beam.max_len, beam.length_norm)
    res = [r for rs in results.values() for r in rs]
    n = max(1, len(res))
    return {f"{prefix}exact_share": sum(r.exact() for r in res) / n,
            f"{prefix}single_share": sum(r.single() for r in res) / n, f"{prefix}n_decoded": float(len(res))}


def nbest_examples(step_model, val, src, tgt, beam: BeamSettings, n: int) -> list[dict]:
    """Every finished output (with probability) for the first input of the first ``n`` languages' dev sets."""
    out = []
    langs = sorted(val)[: max(1, n)]
    device = device_of(step_model)
    for lang in langs:
        if not val[lang]:
            continue
        ex = val[lang][0]
        ds, dl = loader({lang: [ex]}, src, tgt, 1)
        batch = to_device(next(iter(dl)), device)
        r = beam_search(step_model, batch, 1, beam=beam.beam, max_len=beam.max_len, length_norm=beam.length_norm)[0]
        out.append({"lang": lang, "lemma": ex.lemma, "tags": ";".join(ex.tags), "gold": ex.form,
                    "exact": r.exact(), "mass": r.mass,
                    "outputs": [{"form": tgt.decode(h.tokens), "prob": h.prob} for h in r.hypotheses]})
    return out


def sparsity_stats(model: Seq2Seq, alpha: float, val, src, tgt, batch_size: int) -> tuple[dict, dict]:
    """Teacher-forced validation: nonzero attention weights per target step, output support size."""
    _, dl = loader(val, src, tgt, batch_size)
    metrics, extra = teacher_forced_sparsity(model, dl, alpha, tgt.pad_id)
    extra["target_vocab_size"] = len(tgt)
    return metrics, extra
