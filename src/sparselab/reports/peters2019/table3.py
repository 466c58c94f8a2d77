"""Table 3 of Peters et al. (2019): attended and nonzero tokens per step, beam statistics."""
from __future__ import annotations

from statistics import mean
from typing import Any, Mapping

from . import header
from .runs import MAPPINGS, PAIRS, by_key, mt_options, table2_records
from ..mt_common import pair_status, run_sets, values
from ..reference import table_cell
from ..tables import MISSING, NONE, alpha_cell, md_table
from ..templates import template

text = template(__name__)
PAPER_PAIR = "de-en"            # the paper's Table 3 is on IWSLT17 de-en
PAPER_COLUMNS = ["attended_source_tokens", "target_words_nonzero"]


def num(x: float | None) -> Any:
    """A reference value: integers without decimals (``17,993``), others as floats (two decimals)."""
    if x is None:
        return NONE
    return f"{int(x):,}" if float(x).is_integer() and abs(x) >= 1000 else float(x)


def paper_sparsity(ref: Mapping[str, Any], mapping: str) -> tuple[float | None, ...]:
    """The paper's (attended source tokens, nonzero target words) of a mapping (papers.yaml, de-en)."""
    return tuple(table_cell(ref, "table3_sparsity_deen", mapping, c, PAPER_COLUMNS) for c in PAPER_COLUMNS)


def table3_rows(recs, options, ref) -> list[list[Any]]:
    """Per direction × mapping: attended source and nonzero target tokens per step, vocabulary, paper's."""
    opts, g = mt_options(options), by_key(table2_records(recs))
    rows = []
    for p in PAIRS:
        status = pair_status(opts, p)
        for name, a, label in MAPPINGS:
            pa, pt = paper_sparsity(ref, name) if p == PAPER_PAIR else (None, None)
            if status is not None:
                rows.append([p, label, status, num(pa), status, num(pt), NONE])
                continue
            rs = g.get((p, a, a), [])
            att, sup = values(rs, "attn_support"), values(rs, "out_support")
            vocab = sorted({int(r["extra"]["target_vocab_size"]) for r in rs if r["extra"].get("target_vocab_size")})
            rows.append([p, label, mean(att) if att else MISSING, num(pa), mean(sup) if sup else MISSING, num(pt),
                         ", ".join(map(str, vocab)) or NONE])
    return rows


def beam_rows(recs) -> list[list[Any]]:
    """Per configuration (every run: direction, α's) and decoded set: exact-search and single-output shares."""
    rows = []
    for k, rs in sorted(by_key(recs).items()):
        for s in [name for name, _, _ in run_sets(rs[0])]:
            ms = [m for r in rs for name, _, m in run_sets(r) if name == s]
            ex = [float(m["exact_share"]) for m in ms if m.get("exact_share") is not None]
            si = [float(m["single_share"]) for m in ms if m.get("single_share") is not None]
            n = sorted({int(m["n"]) for m in ms if m.get("n") is not None})
            rows.append([k[0], alpha_cell(k[1]), alpha_cell(k[2]), s, len(rs), ", ".join(map(str, n)) or NONE,
                         mean(ex) if ex else NONE, mean(si) if si else NONE])
    return rows


def table3_text(profile: str, options: Mapping[str, Any], recs, ref: Mapping[str, Any]) -> str:
    out = header.translation("Table 3 — sparsity of attention and output; beam statistics", profile, options,
                             table2_records(recs))
    out += text("intro") + "\n\n"
    out += md_table(["direction", "mapping", "attended source tokens (ours)", "(paper)",
                     "nonzero target tokens (ours)", "(paper)", "target vocabulary (ours)"],
                    table3_rows(recs, options, ref))
    br = beam_rows(recs)
    if br:
        out += "\n" + text("beam") + "\n\n"
        out += md_table(["direction", "output α", "attention α", "set", "seeds", "sentences", "exact-search share",
                         "single-output share"], br)
    return out + "\n" + text("speed") + "\n"
