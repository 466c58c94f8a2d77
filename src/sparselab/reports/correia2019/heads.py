"""Head roles of Correia et al. (2019), §5.2 (``head_roles.md``), from ``extra.heads`` of the analysed runs."""
from __future__ import annotations

from statistics import median
from typing import Any, Mapping, Sequence

from sparselab.analysis.head_summary import positional_heads

from .analysis import _f, heads_of as _heads
from .runs import LABELS, analysed, figure_pair, seed_of
from ..tables import NONE, md_table
from ..templates import template

prose = template(__name__)

SELF = ("enc_self", "dec_self")
SIDE = {"enc_self": "encoder self-attention (source)", "dec_self": "decoder self-attention (target)"}
THRESHOLD = 0.9       # Voita et al. (2019): a positional head's largest weight is on that token for ≥ 90 % of queries
TOP = 2               # the paper reports the two best BPE-merging heads


def _int_layers(d: Mapping) -> dict[int, Any]:
    return {int(k): v for k, v in d.items()}


def prev_confidences(rs: Sequence[dict], threshold: float = THRESHOLD) -> list[float]:
    """The confidence of every previous-token head (both self-attentions, every run) by Voita et al.'s rule."""
    return [h["confidence"] for r in rs for kind in SELF if (_heads(r).get("positional") or {}).get(kind)
            for h in positional_heads(_int_layers(_heads(r)["positional"][kind]), -1, threshold)["heads"]]


def best_heads(per_layer: Mapping[str, Sequence[float]], n: int = TOP) -> list[tuple[int, int, float]]:
    """The ``n`` highest-scoring (layer, head, score) of ``{layer: [score per head]}``."""
    flat = [(int(layer), h, float(s)) for layer, scores in per_layer.items() for h, s in enumerate(scores)]
    return sorted(flat, key=lambda x: (-x[2], x[0], x[1]))[:n]


# ---------------------------------------------------------------- positional heads
def positional_rows(runs: Mapping[str, list[dict]], ref: Mapping[str, Any]) -> list[list[Any]]:
    """Per run, self-attention type and offset: the positional heads, their median confidence, the paper's."""
    paper = ref.get("positional_head_confidence_median", {}) or {}
    rows = []
    for v, rs in runs.items():
        for r in rs:
            for kind in SELF:
                stats = (_heads(r).get("positional") or {}).get(kind)
                if not stats:
                    continue
                stats = _int_layers(stats)
                total = sum(len(s["prev"]) for s in stats.values())
                for offset, name, key in ((-1, "previous", "prev"), (1, "next", "next")):
                    if kind == "dec_self" and offset == 1:
                        continue            # causal: the next token always gets 0
                    found = positional_heads(stats, offset, THRESHOLD)
                    top = max(((layer, h, s[f"{key}_argmax"][h], s[key][h]) for layer, s in stats.items()
                               for h in range(len(s[key]))), key=lambda x: (x[2], x[3]))
                    rows.append([LABELS[v], seed_of(r), SIDE[kind], name, f"{len(found['heads'])} of {total}",
                                 _f(found["median_confidence"]), _f(paper.get(v)) if offset == -1 else NONE,
                                 f"l{top[0]} h{top[1]}: argmax share {top[2]:.3f}, mean weight {top[3]:.3f}"])
    return rows


def positional_claims(runs: Mapping[str, list[dict]], ref: Mapping[str, Any]) -> list[str]:
    """Our median previous-token confidence per model (encoder and decoder heads together) against the paper's."""
    paper = ref.get("positional_head_confidence_median", {}) or {}
    confs = {v: prev_confidences(rs) for v, rs in runs.items()}
    return [f"- {LABELS[v]}: {len(c)} previous-token heads, median confidence {_f(median(c) if c else None)} (paper "
            f"{_f(paper.get(v))})" + ("" if c else " — no head passes the 90 % rule") for v, c in confs.items()]


# ---------------------------------------------------------------- BPE merging and interrogation
def score_rows(runs: Mapping[str, list[dict]], stat: str, count: str) -> list[list[Any]]:
    """Per run and self-attention type: the number of items scored and the best heads (or why there are none)."""
    rows = []
    for v, rs in runs.items():
        for r in rs:
            h = _heads(r)
            for kind in SELF:
                scores, n = (h.get(stat) or {}).get(kind), (h.get(count) or {}).get(kind)
                if scores is None:
                    continue
                if stat == "interrogation" and not n:
                    best = "no question sentences in the validation set"
                else:
                    best = ", ".join(f"l{layer} h{h} {s:.3f}" for layer, h, s in best_heads(scores)) or NONE
                mean_all = [s for layer in scores.values() for s in layer]
                rows.append([LABELS[v], seed_of(r), SIDE[kind], n if n is not None else NONE, best,
                             _f(sum(mean_all) / len(mean_all)) if mean_all and n else NONE])
    return rows


# ---------------------------------------------------------------- text
def head_roles_text(profile: str, options: Mapping[str, Any], recs: Sequence[dict], ref: Mapping[str, Any]) -> str:
    runs = analysed(options, recs)
    text = prose("intro", profile=profile, pair=figure_pair(options, recs) or "none", threshold=THRESHOLD) + "\n\n"
    pr = positional_rows(runs, ref)
    text += md_table(["model", "seed", "attention", "token", "positional heads", "median confidence (ours)",
                      "median (paper)", "strongest head"], pr) if pr else "No runs.\n"
    text += "\n" + "\n".join(positional_claims(runs, ref)) + "\n"
    text += prose("bpe", top=TOP, paper=ref.get("bpe_merging_score", NONE)) + "\n\n"
    br = score_rows(runs, "bpe_merging", "bpe_words")
    text += md_table(["model", "seed", "attention", "multi-piece words", f"best {TOP} heads (layer, head, score)",
                      "mean over heads"], br) if br else "No runs.\n"
    text += prose("interrogation", top=TOP) + "\n\n"
    ir = score_rows(runs, "interrogation", "interrogation_queries")
    text += md_table(["model", "seed", "attention", "question words scored", f"best {TOP} heads (layer, head, score)",
                      "mean over heads"], ir) if ir else "No runs.\n"
    return text
