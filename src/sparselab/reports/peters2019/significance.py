"""Whether Peters' Table 2 differences exceed test-set noise: sacrebleu's paired bootstrap against 1.5-entmax."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from .runs import MAPPINGS, PAIRS, bleu_file_stem, by_key, seed_of, table2_records
from .. import mt_common
from ..mt_common import BLEU_DIR
from ..tables import NONE, md_table
from ..templates import template

text = template(__name__)
SIGNIFICANCE_LEVEL = 0.05
Significance = tuple[list[list[Any]], list[str], "str | None"]


def significance_rows(out: Path, recs) -> Significance:
    """Per direction and seed all three ran: paired bootstrap rows, the sacrebleu commands, the signature."""
    g, out = by_key(table2_records(recs)), Path(out)
    order = (MAPPINGS[1], MAPPINGS[0], MAPPINGS[2])          # baseline first, as sacrebleu takes it
    rows, commands, signature = [], [], None
    for p, seed in ((p, s) for p in PAIRS for s in sorted(set.intersection(
            *({seed_of(r) for r in g.get((p, a, a), [])} for _, a, _ in order)))):
        firsts = [next(r for r in g[(p, a, a)] if seed_of(r) == seed) for _, a, _ in order]
        stems = [f"{BLEU_DIR}/{bleu_file_stem(r, 'test')}.tok" for r in firsts]
        hyps, refs = [f"{s}.hyp.txt" for s in stems], [f"{s}.ref.txt" for s in stems]
        missing = not all((out / f).exists() for f in hyps + refs)
        if missing or len({(out / f).read_bytes() for f in refs}) > 1:
            why = f"files missing in {BLEU_DIR}/" if missing else "the runs' references differ: not comparable"
            rows.append([p, *[NONE] * 6, why])
            continue
        signature, results = mt_common.paired_bootstrap(out / refs[0], [out / h for h in hyps])
        base = results[0].score
        for (_, _, label), rec, res in zip(order, firsts, results):
            paired = res.p_value is not None
            rows.append([p, label, seed_of(rec), f"{res.score:.2f}", f"{res.mean:.2f} ± {res.ci:.2f}",
                         f"{res.score - base:+.2f}" if paired else "baseline",
                         f"{res.p_value:.4f}" if paired else NONE,
                         (("yes" if res.p_value < SIGNIFICANCE_LEVEL else "no") if paired else NONE)])
        commands.append(f"- {p}, seed {seed}: `sacrebleu {refs[0]} -i {' '.join(hyps)} -m bleu --paired-bs -tok none --force "
                        f"-f text`")
    return rows, commands, signature


def significance_text(sig: Significance) -> str:
    rows, commands, signature = sig
    if not rows:
        return ""
    intro = text("section", level=SIGNIFICANCE_LEVEL, signature=f" Signature: `{signature}`." if signature else "")
    table = md_table(["direction", "mapping", "seed", "tok. BLEU", "bootstrap mean ± 95 % CI", "− 1.5-entmax", "p",
                      f"different at p < {SIGNIFICANCE_LEVEL:g}"], rows)
    return "\n" + intro + "\n\n" + table + ("\n" + text("commands") + "\n\n" + "\n".join(commands) + "\n"
                                            if commands else "")
