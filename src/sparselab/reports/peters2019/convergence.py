"""Whether each Peters MT run had converged when it ended, by the rule the translation task stops by."""
from __future__ import annotations

from typing import Any

from sparselab.analysis import plateau
from .runs import alphas, seed_of
from .. import mt_common
from ..mt_common import curve_summary, pair_of
from ..tables import NONE, alpha_cell, lr_schedule, md_table
from ..templates import template

text = template(__name__)
WINDOW_VALIDATIONS = 3      # a run without early stopping (a fixed budget) is judged over its last 3 validations
SMOOTH_VALIDATIONS = plateau.SMOOTH_VALIDATIONS     # the smoothing the translation task stops by


def as_int(x) -> Any:
    return int(x) if x is not None else NONE


def plateau_window(rec) -> tuple[int, int]:
    """(window in steps, validations smoothed): the run's patience in updates, else its last 3 validations."""
    cfg = rec.get("config", {})
    every = (cfg.get("trainer") or {}).get("val_check_interval")
    if not isinstance(every, int) or isinstance(every, bool) or every <= 0:
        return mt_common.PLATEAU_STEPS, mt_common.SMOOTH
    patience = (cfg.get("task") or {}).get("early_stopping_patience")
    return every * int(patience or WINDOW_VALIDATIONS), SMOOTH_VALIDATIONS


def plateau_gain(rec) -> float:
    """The gain below which the window is flat: the run's early-stopping ``min_delta``, else the kit's."""
    task = rec.get("config", {}).get("task") or {}
    if task.get("early_stopping_patience") is None or task.get("early_stopping_min_delta") is None:
        return mt_common.PLATEAU_GAIN
    return float(task["early_stopping_min_delta"])


def convergence_of(rec) -> dict[str, Any]:
    """The kit's rule (:func:`mt_common.convergence`) over the run's own window (:func:`plateau_window`)."""
    window, smooth = plateau_window(rec)
    return mt_common.convergence(rec.get("extra", {}).get("history", []), window=window, smooth=smooth,
                                 gain=plateau_gain(rec))


def convergence_rule_text() -> str:
    return text("rule", smooth=SMOOTH_VALIDATIONS, gain=mt_common.PLATEAU_GAIN, last=WINDOW_VALIDATIONS)


def convergence_rows(recs) -> list[list[Any]]:
    rows = []
    for r in recs:
        e, m = r.get("extra", {}), r["metrics"]
        stopped = e.get("stopped_early")
        why = {True: "early stopping (the rule below)", False: "step budget"}.get(stopped, "not recorded")
        conv = convergence_of(r)
        a, b = alphas(r)
        rows.append([pair_of(r), alpha_cell(a), alpha_cell(b), seed_of(r), len(e.get("history", [])), as_int(m.get("steps")),
                     r["config"]["trainer"].get("max_steps"), as_int(m.get("best_step")), curve_summary(e.get("history", [])),
                     *lr_schedule(r), why, f"{plateau_window(r)[0]:,}",
                     NONE if conv.get("trend") is None else f"{conv['trend']:+.2f}",
                     NONE if conv.get("record") is None else f"{conv['record']:+.2f}",
                     {True: "yes", False: "**no: still rising**", None: NONE}[conv["stopped"]], m.get("train_time_s")])
    return rows


def convergence_summary(recs) -> str:
    if not recs:
        return ""
    stopped = sum(1 for r in recs if r.get("extra", {}).get("stopped_early"))
    flat = sum(1 for r in recs if convergence_of(r)["stopped"])
    # train_time_s, not wall_time_s: a run resumed from its checkpoint keeps its training timer, not its wall time
    hours = sum(float(r["metrics"].get("train_time_s") or 0) for r in recs) / 3600
    return text("summary", stopped=stopped, n=len(recs), cap=len(recs) - stopped, flat=flat,
                rule=convergence_rule_text(), hours=hours)


def convergence_text(recs) -> str:
    """The section of ``table2_mt.md`` on every MT run (Table 2's and the Figure 4 grid's); "" without runs."""
    conv = convergence_rows(recs)
    if not conv:
        return ""
    return "\n" + text("section", summary=convergence_summary(recs)) + "\n\n" + md_table(
        ["direction", "output α", "attention α", "seed", "validations", "steps trained", "step cap", "best step",
         "val. token accuracy: first → best (step) → last", "lr halvings", "last lr", "stopped by", "window (steps)",
         "trend over the window", "record over the window", "stopped improving", "training time (s)"], conv)
