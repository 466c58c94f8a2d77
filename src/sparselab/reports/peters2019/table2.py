"""Table 2 of Peters et al. (2019): BLEU per direction × mapping (``table2_mt.md``)."""
from __future__ import annotations

from statistics import mean
from typing import Any, Mapping, Sequence

from . import header
from .convergence import convergence_text
from .runs import MAPPINGS, PAIRS, by_key, mt_options, table2_records
from .significance import Significance, significance_text
from .. import mt_common
from ..mt_common import bleu_header, bleu_rows, extra_rows, paper_bleu, paper_cell, pair_status, values
from ..tables import NONE, md_table
from ..templates import template

text = template(__name__)
PAPER_T2 = "table2_mt_bleu"       # the paper's Table 2 in papers.yaml


def table2_rows(recs) -> list[mt_common.BleuRow]:
    """Per mapping: its label, its papers.yaml row and {direction: Table 2 runs}."""
    g = by_key(table2_records(recs))
    return [(label, name, {p: g.get((p, a, a), []) for p in PAIRS}) for name, a, label in MAPPINGS]


def ordering(scores: Mapping[str, float | None]) -> str:
    """Mapping names from best to worst (``a > b > c``; ``=`` for ties at two decimals)."""
    known = [(k, v) for k, v in scores.items() if v is not None]
    if not known:
        return NONE
    known.sort(key=lambda kv: -kv[1])
    out = known[0][0]
    for (k0, v0), (k, v) in zip(known, known[1:]):
        out += (" = " if round(v0, 2) == round(v, 2) else " > ") + k
    return out


def ordering_rows(recs, options, ref) -> list[list[Any]]:
    """Per direction run: our order of the three mappings by tokenized BLEU and by SacreBLEU, beside the paper's."""
    opts, rows = mt_options(options), table2_rows(recs)
    short = {"softmax": "softmax", "entmax15": "1.5-entmax", "sparsemax": "sparsemax"}
    out = []
    for p in PAIRS:
        paper = ordering({short[n]: (paper_bleu(ref, PAPER_T2, n, p, PAIRS) or (None,))[0] for _, n, _ in rows})
        status = pair_status(opts, p)
        if status is not None:
            out.append([p, status, status, paper])
            continue
        tok, det = ({short[n]: mean(v) if (v := values(runs[p], m)) else None for _, n, runs in rows}
                    for m in ("bleu_tok", "bleu"))
        out.append([p, ordering(tok), ordering(det), paper])
    return out


def table2_text(profile: str, options: Mapping[str, Any], recs, ref: Mapping[str, Any],
                file_rows: Sequence[Sequence[Any]] | None = None, significance: Significance | None = None) -> str:
    t2 = table2_records(recs)
    out = header.translation("Table 2 — BLEU, LSTM NMT, same α for attention and output", profile, options, t2)
    out += mt_common.settings_section(t2)
    out += text("intro") + "\n\n"
    out += "## Tokenized BLEU (ours) beside the paper\n\n"
    opts, rows = mt_options(options), table2_rows(recs)
    out += md_table(bleu_header("mapping", PAIRS, lambda p: "paper"),
                    bleu_rows(rows, opts, "bleu_tok", lambda n, p: paper_cell(ref, PAPER_T2, n, p, PAIRS)))
    out += "\n## Detokenized SacreBLEU (ours)\n\n"
    out += md_table(bleu_header("mapping", PAIRS), bleu_rows(rows, opts, "bleu"))
    ex = extra_rows(recs, rows, joined=False, opts=opts)
    if ex:
        out += "\n" + text("extra") + "\n\n"
        hdr = ["set", "direction", "test data (sentences)"]
        for _, _, label in MAPPINGS:
            hdr += [f"{label} SacreBLEU", f"{label} tok. BLEU"]
        out += md_table(hdr, ex)
    out += "\n" + text("ordering") + "\n\n"
    out += md_table(["direction", "ours, tokenized BLEU", "ours, SacreBLEU", "paper"], ordering_rows(recs, options, ref))
    if significance is not None:
        out += significance_text(significance)
    out += convergence_text(recs)           # every MT run: Table 2's and the Figure 4 grid's
    out += mt_common.bleu_cli_section(file_rows, "<direction>.alpha<α>-attn<α>.seed<seed>.<set>")
    return out
