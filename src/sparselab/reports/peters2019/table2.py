"""Table 2 of Peters et al. (2019): BLEU per direction × mapping (``table2_mt.md``)."""
from __future__ import annotations

from pathlib import Path
from statistics import mean
from typing import Any, Mapping, Sequence

from . import header
from .convergence import convergence_text
from .runs import MAPPINGS, PAIRS, bleu_file_stem, by_key, mt_options, table2_records
from .significance import Significance, significance_text
from .. import mt_common
from ..mt_common import bleu_cell, pair_status, values
from ..tables import NONE, md_table
from ..templates import template

text = template(__name__)


def paper_bleu(ref: Mapping[str, Any], mapping: str, pair: str) -> tuple[float, float] | None:
    """(mean, std) of the paper's Table 2 cell (papers.yaml ``table2_mt_bleu``), None if absent."""
    t = ref.get("table2_mt_bleu", {})
    row = t.get("rows", {}).get(mapping)
    cols = t.get("columns", list(PAIRS))
    if not row or pair not in cols:
        return None
    v = row[cols.index(pair)]
    if v is None:
        return None
    if isinstance(v, (list, tuple)):
        return float(v[0]), float(v[1]) if len(v) > 1 and v[1] is not None else None
    return float(v), None


def paper_cell(ref, mapping: str, pair: str) -> str:
    v = paper_bleu(ref, mapping, pair)
    if v is None:
        return NONE
    return f"{v[0]:.2f}" + (f" ± {v[1]:.2f}" if v[1] is not None else "")


def table2_rows(recs, options, ref, metric: str = "bleu_tok", with_paper: bool = True) -> list[list[Any]]:
    """Rows: mapping; per direction: ours (mean ± std over seeds) [and the paper's]."""
    opts, g = mt_options(options), by_key(table2_records(recs))
    rows = []
    for name, a, label in MAPPINGS:
        row = [label]
        for p in PAIRS:
            row.append(bleu_cell(g.get((p, a, a), []), pair_status(opts, p), metric))
            if with_paper:
                row.append(paper_cell(ref, name, p))
        rows.append(row)
    return rows


def table2_header(with_paper: bool = True) -> list[str]:
    hdr = ["mapping"]
    for p in PAIRS:
        hdr += [f"{p} (ours)", f"{p} (paper)"] if with_paper else [p]
    return hdr


def extra_sets(recs) -> list[str]:
    return sorted({name for r in recs for name in r.get("extra", {}).get("extra_test", {})})


def extra_rows(recs, options) -> list[list[Any]]:
    """Out-of-domain sets (e.g. IWSLT17 test for de↔en trained on Multi30k): detok / tok BLEU per direction run."""
    opts, g = mt_options(options), by_key(table2_records(recs))
    rows = []
    for name in extra_sets(recs):
        for p in PAIRS:
            rs_all = [r for a in (m[1] for m in MAPPINGS) for r in g.get((p, a, a), [])]
            if pair_status(opts, p) is not None or not any(name in r["extra"].get("extra_test", {}) for r in rs_all):
                continue
            spec = next(r["extra"]["extra_test"][name] for r in rs_all if name in r["extra"].get("extra_test", {}))
            row = [name, p, f"{spec['spec']} ({int(spec['metrics']['n'])})"]
            for _, a, _ in MAPPINGS:
                rs = g.get((p, a, a), [])
                row += [bleu_cell(rs, None, f"bleu_{name}"), bleu_cell(rs, None, f"bleu_tok_{name}")]
            rows.append(row)
    return rows


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
    opts, g = mt_options(options), by_key(table2_records(recs))
    short = {"softmax": "softmax", "entmax15": "1.5-entmax", "sparsemax": "sparsemax"}
    rows = []
    for p in PAIRS:
        paper = ordering({short[n]: (paper_bleu(ref, n, p) or (None,))[0] for n, _, _ in MAPPINGS})
        status = pair_status(opts, p)
        if status is not None:
            rows.append([p, status, status, paper])
            continue
        tok, det = ({short[n]: (mean(values(g.get((p, a, a), []), m)) if values(g.get((p, a, a), []), m) else None)
                     for n, a, _ in MAPPINGS} for m in ("bleu_tok", "bleu"))
        rows.append([p, ordering(tok), ordering(det), paper])
    return rows


def copy_bleu_files(out: Path, recs, copy: bool = True) -> list[list[Any]]:
    """:func:`mt_common.copy_bleu_files` with the Table 2 runs' file names."""
    return mt_common.copy_bleu_files(out, table2_records(recs), bleu_file_stem, copy=copy)


def table2_text(profile: str, options: Mapping[str, Any], recs, ref: Mapping[str, Any],
                file_rows: Sequence[Sequence[Any]] | None = None, significance: Significance | None = None) -> str:
    t2 = table2_records(recs)
    out = header.translation("Table 2 — BLEU, LSTM NMT, same α for attention and output", profile, options, t2)
    out += mt_common.settings_section(t2)
    out += text("intro") + "\n\n"
    out += "## Tokenized BLEU (ours) beside the paper\n\n"
    out += md_table(table2_header(), table2_rows(recs, options, ref, "bleu_tok"))
    out += "\n## Detokenized SacreBLEU (ours)\n\n"
    out += md_table(table2_header(with_paper=False), table2_rows(recs, options, ref, "bleu", with_paper=False))
    ex = extra_rows(recs, options)
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
