"""The side experiment behind a profile's α rule: α-entmax under the rule against α-entmax at α lr = lr.

The rule changes how far α can travel; it must not change the model's quality beyond the seed noise (TOST)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from statistics import mean
from typing import Callable, Sequence

import numpy as np

from ..claims import stats
from ..claims.bleu import seed_pairs
from ..mt_common import mean_std, pair_of, values
from ..tables import NONE, md_table
from .analysis import trajectory
from .runs import seed_of
from ..templates import template

prose = template(__name__)

BLEU_MARGIN = 0.5      # as the claims' "costs no BLEU" margin (claims.BLEU_MARGIN), fixed before the runs
ACC_MARGIN = 0.5       # validation token accuracy, points: the same practical size


@dataclass(frozen=True)
class RuleRow:
    """One quantity: its per-seed values under the rule and at α lr = lr, and the test of rule − control."""

    quantity: str
    rule: tuple[float, ...]
    control: tuple[float, ...]
    test: stats.Test | None
    margin: float | None
    tost_p: float | None
    detectable: float

    @property
    def within_noise(self) -> bool | None:
        """True: the difference is not distinguishable from the seed noise (p ≥ 5 %); None: no test."""
        return None if self.test is None else self.test.p >= stats.LEVEL


def alpha_moved(rec) -> float | None:
    """Mean |α − α₀| over every head at the end of training (the record's α trajectory: first and last step)."""
    hist = trajectory(rec)
    if len(hist) < 2:
        return None
    first, last = hist[0]["alpha"], hist[-1]["alpha"]
    d = [abs(float(b) - float(a)) for site in first for a, b in zip(first[site], last.get(site, []))]
    return float(np.mean(d)) if d else None


def _bleu_test(folder: Path, rule: Sequence[dict], control: Sequence[dict], stem) -> stats.Test | None:
    by_seed = {seed_of(r): r for r in control}
    both = [(r, c) for r in rule if (c := by_seed.get(seed_of(r))) is not None and pair_of(c) == pair_of(r)]
    t = seed_pairs(folder, both, stem) if both else None
    return None if isinstance(t, str) else t


def _row(quantity: str, rule: Sequence[float], control: Sequence[float], test: stats.Test | None,
         margin: float | None) -> RuleRow:
    tost_p = stats.tost_t(test, margin)[0] if test is not None and margin is not None else None
    sd = math.sqrt((np.var(rule, ddof=1) + np.var(control, ddof=1)) / 2) if len(rule) > 1 and len(control) > 1 \
        else math.nan
    return RuleRow(quantity, tuple(rule), tuple(control), test, margin, tost_p,
                   stats.detectable(len(rule), len(control), sd))


def rows(folder: Path, rule: Sequence[dict], control: Sequence[dict],
         stem: Callable[[dict, str], str]) -> list[RuleRow]:
    """The side experiment's rows (empty without both groups)."""
    if not rule or not control:
        return []
    out = [_row("tokenized test BLEU", values(rule, "bleu_tok"), values(control, "bleu_tok"),
                _bleu_test(folder, rule, control, stem), BLEU_MARGIN)]
    for quantity, metric, margin in (("SacreBLEU (test)", "bleu", BLEU_MARGIN),
                                     ("best validation token accuracy", "val_acc_best", ACC_MARGIN)):
        a, b = values(rule, metric), values(control, metric)
        out.append(_row(quantity, a, b, stats.difference(a, b, (math.nan, 0)) if a and b else None, margin))
    a = [x for x in map(alpha_moved, rule) if x is not None]
    b = [x for x in map(alpha_moved, control) if x is not None]
    if a and b:
        out.append(_row("mean |α − α₀| at the end, every head", a, b, stats.difference(a, b, (math.nan, 0)), None))
    return out


def _verdict(r: RuleRow) -> str:
    if r.test is None:
        return NONE
    if r.tost_p is not None and r.tost_p < stats.LEVEL:
        return f"equivalent within ±{r.margin:g} (TOST p = {stats.fmt_p(r.tost_p)})"
    if r.within_noise:
        extra = f"; detects ≥ {r.detectable:.2f} at 80 % power" if not math.isnan(r.detectable) else ""
        return f"within the seed noise ({r.test.text()}{extra})"
    return f"**differs** ({r.test.text()})"


def table_rows(found: Sequence[RuleRow]) -> list[list[str]]:
    out = []
    for r in found:
        t = r.test
        out.append([r.quantity, f"{mean_std(list(r.rule))} ({len(r.rule)})", f"{mean_std(list(r.control))} ({len(r.control)})",
                    f"{t.estimate:+.2f} [{t.ci[0]:+.2f}, {t.ci[1]:+.2f}]" if t else NONE,
                    t.name if t else NONE, _verdict(r)])
    return out


def summary(found: Sequence[RuleRow], alpha_lr: float) -> str:
    """The header's one line: each quality row's difference and its verdict."""
    parts = [f"{r.quantity} {r.test.estimate:+.2f} [{r.test.ci[0]:+.2f}, {r.test.ci[1]:+.2f}] "
             f"({'within the seed noise' if r.within_noise else 'differs'})" for r in found if r.test and r.margin]
    moved = next((r for r in found if r.margin is None and r.rule and r.control), None)
    if moved:
        parts.append(f"α moved {mean(moved.rule):.3f} on average against {mean(moved.control):.3f}")
    return (f"α rule, side experiment (α-entmax at α lr {alpha_lr:g} − at α lr = lr, the same seeds; "
            "`table1_bleu.md`): " + "; ".join(parts)) if parts else ""


def text(found: Sequence[RuleRow], alpha_lr: float) -> str:
    if not found:
        return ""
    return (prose("section", alpha_lr=alpha_lr, bleu=BLEU_MARGIN, acc=ACC_MARGIN) + "\n\n"
            + md_table(["quantity", "α rule (seeds)", "α lr = lr (seeds)", "difference, 95 % CI", "test", "verdict"],
                       table_rows(found)))
