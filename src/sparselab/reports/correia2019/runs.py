"""The run records behind the Correia, Niculae & Martins (2019) reports, and what each run is.

The plan's options (``pipelines/correia2019.py``): ``{"pairs", "seeds", "not_run", "output_alpha", "alpha_lr"}``;
``alpha_lr`` is the α rule, and α-entmax at α lr = lr beside it is its control, never a cell."""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Mapping, Sequence

from ..mt_common import pair_of, seed_of
from .. import records
from ..records import committed_records, grouped, latest_per_config, load

PAPER = "correia2019"
TABLE1 = "correia2019/table1_bleu"
OUTPUT_ALPHA = "correia2019/output_alpha"
# (variant, label); the first three are the paper's Table 1 rows (papers.yaml row names = mapping group names)
VARIANTS = (("softmax", "softmax"), ("entmax15", "1.5-entmax"), ("alpha_entmax", "α-entmax"),
            ("output_alpha", "α-entmax + learned output α (beyond the paper)"))
LABELS = dict(VARIANTS)
TABLE1_VARIANTS = ("softmax", "entmax15", "alpha_entmax")
SPARSE = ("entmax15", "alpha_entmax")
LEARNED = ("alpha_entmax", "output_alpha")       # the variants whose attention α is learned
# the paper's Table 1 columns, in its order (papers.yaml ``table1_bleu.columns`` are "<pair> <corpus>")
PAIRS = ("de-en", "ja-en", "ro-en", "en-de")

Key = tuple[str, str]      # (pair, variant)
CONFIGS = "runs.jsonl"               # written by .index.write_configs: run, config_hash, config, metrics, best
EXTRAS = "run_extras.jsonl"          # the rest of each record (below)
KEEP = (*records.PROVENANCE, "samples_seen", "extra")      # record fields kept beside runs.jsonl


def _normalizer_kind(n: Mapping[str, Any] | None) -> str | None:
    if not n:
        return None
    if n.get("learnable"):
        return "alpha_entmax"
    return {1.0: "softmax", 1.5: "entmax15"}.get(float(n["alpha"]) if n.get("alpha") is not None else -1.0)


def variant_of(rec) -> str | None:
    """softmax / entmax15 / alpha_entmax / output_alpha from the built normalizers; None: not a cell."""
    c = rec["config"]
    kinds = {_normalizer_kind(n) for n in (c["model"].get("normalizers") or {}).values()}
    if len(kinds) != 1 or None in kinds:
        return None
    kind = kinds.pop()
    out = c["model"].get("output_normalizer") or {}
    if out.get("learnable"):
        return "output_alpha" if kind == "alpha_entmax" else None
    return kind if float(c["mapping"]["alpha"]) == 1.0 else None


def alpha_lr_of(rec) -> float | None:
    """The run's own peak learning rate for the learned α (None: the other weights')."""
    x = rec["config"]["task"].get("alpha_lr")
    return None if x is None else float(x)


def under_rule(rec, alpha_lr: float | None) -> bool:
    """Whether a run follows the α rule ``alpha_lr`` (runs that learn no α always do)."""
    if variant_of(rec) not in LEARNED:
        return True
    mine = alpha_lr_of(rec)
    return mine == alpha_lr if mine is None or alpha_lr is None else math.isclose(mine, alpha_lr)


def key(rec) -> Key:
    return pair_of(rec), variant_of(rec)


def collect(runs, profile: str, alpha_lr: float | None = None) -> tuple[list[dict], list[dict]]:
    """(finished cells under the α rule ``alpha_lr``, the others), one per config hash (the latest)."""
    return split(latest_per_config(r for experiment in (TABLE1, OUTPUT_ALPHA)
                                   for r in load(runs, profile, experiment)), alpha_lr)


def alpha_lr_controls(others: Sequence[dict], alpha_lr: float | None) -> list[dict]:
    """The α rule's control among the others: α-entmax at α lr = lr (none when the rule is α lr = lr)."""
    if alpha_lr is None:
        return []
    return [r for r in others if variant_of(r) == "alpha_entmax" and alpha_lr_of(r) is None]


def by_key(recs: Sequence[dict]) -> dict[Key, list[dict]]:
    return grouped(recs, key, seed_of)


def figure_pair(options: Mapping[str, Any], recs: Sequence[dict]) -> str | None:
    """The direction of the figures and head analyses: the plan's first with runs, else the first with runs."""
    pairs = list(options.get("pairs") or []) + sorted({pair_of(r) for r in recs})
    return next((p for p in pairs if any(pair_of(r) == p for r in recs)), None)


def analysed(options: Mapping[str, Any], recs: Sequence[dict]) -> dict[str, list[dict]]:
    """``{variant: [runs of the figure direction, by seed]}`` for the Table 1 variants that have runs."""
    pair = figure_pair(options, recs)
    g = by_key(recs)
    return {v: g[(pair, v)] for v in TABLE1_VARIANTS if (pair, v) in g}


def bleu_file_stem(rec, set_name: str) -> str:
    """Named by the cell; a run with α's own learning rate adds it (the α rule and its control share a cell)."""
    lr = alpha_lr_of(rec) if variant_of(rec) in LEARNED else None
    return f"{pair_of(rec)}.{variant_of(rec)}{'' if lr is None else f'.alpha_lr{lr:g}'}.seed{seed_of(rec)}.{set_name}"


# ---------------------------------------------------------------- committed records
def public_extra(extra: Mapping[str, Any]) -> dict[str, Any]:
    """A record's ``extra`` as committed: only the first example sentence's maps (the one the report draws)."""
    heads = dict(extra.get("heads") or {})
    if heads.get("examples"):
        heads["examples"] = heads["examples"][:1]
    return {**extra, "heads": heads} if heads else dict(extra)


def write_extras(out: Path, recs: Sequence[dict], runs) -> Path:
    """:data:`EXTRAS` beside ``runs.jsonl``: one row per run (the same order), machine paths scrubbed."""
    return records.write_extras(Path(out) / EXTRAS, recs, runs, KEEP, lambda r: public_extra(r.get("extra") or {}))


def committed(out: Path, runs) -> list[dict]:
    """The records committed in ``out`` (``runs.jsonl`` joined with :data:`EXTRAS`, :func:`~..records.committed_records`)."""
    return committed_records(Path(out) / CONFIGS, Path(out) / EXTRAS, runs)


def split(recs: Sequence[dict], alpha_lr: float | None = None) -> tuple[list[dict], list[dict]]:
    """(Table 1 / output-α cells under the α rule ``alpha_lr`` in report order, the others)."""
    order = [v for v, _ in VARIANTS]
    recs = sorted(recs, key=lambda r: (pair_of(r), order.index(variant_of(r)) if variant_of(r) else len(order),
                                       seed_of(r), r["run_dir"]))
    cell = [bool(variant_of(r)) and under_rule(r, alpha_lr) for r in recs]
    return [r for r, c in zip(recs, cell) if c], [r for r, c in zip(recs, cell) if not c]
