"""Table 1 of Correia, Niculae & Martins (2019) (``table1_bleu.md``): BLEU per direction and attention."""
from __future__ import annotations

import re
from pathlib import Path
from statistics import mean
from typing import Any, Mapping, Sequence

from . import alpha_rule
from .header import header
from .runs import LABELS, LEARNED, PAIRS, TABLE1_VARIANTS, alpha_lr_of, by_key, seed_of, variant_of
from .. import mt_common
from ..mt_common import bleu_header, bleu_rows, curve_summary, extra_rows, mean_std, pair_of, paper_cell, values
from ..tables import NONE, md_table
from ..templates import template

prose = template(__name__)
SPEED = "speed.md"      # written by benchmarks/bench_transformer_speed.py; the index links it only when present


def paper_corpus(ref: Mapping[str, Any], pair: str) -> str:
    cols = [str(c).split(maxsplit=1) for c in ref.get("table1_bleu", {}).get("columns", [])]
    return next((c[1] for c in cols if c[0] == pair and len(c) > 1), "?")


def table1_rows(recs) -> list[mt_common.BleuRow]:
    """The Table 1 rows, and the output-α row when such runs exist: (label, variant, {direction: runs})."""
    g = by_key(recs)
    extra = ["output_alpha"] if any(variant_of(r) == "output_alpha" for r in recs) else []
    return [(LABELS[v], v, {p: g.get((p, v), []) for p in PAIRS}) for v in (*TABLE1_VARIANTS, *extra)]


def test_set_lines(recs, ref) -> list[str]:
    """Which test set each direction run is scored on, against the paper's."""
    out = {}
    for r in recs:
        e = r.get("extra", {})
        sp = e.get("splits", {})
        n = sp.get("test", {}).get("n", "?")
        extra = ", ".join(f"{k.split(':', 1)[1]}: {x['spec']} ({x['n']})" for k, x in sorted(sp.items())
                          if k.startswith("extra:"))
        out.setdefault(pair_of(r), f"- **{pair_of(r)}**: ours trained on {e.get('corpus', '?')}, Table 1 scored on "
                                   f"`{e.get('test', {}).get('spec', '?')}` ({n} sentences)"
                                   + (f"; out of domain: {extra}" if extra else "")
                                   + f"; paper: {paper_corpus(ref, pair_of(r))} test")
    return list(out.values())


def schedule_of(rec) -> tuple:
    """(step budget, peak lr, warm-up, validation interval, patience) of a run; α's own lr is the α rule."""
    t, tr = rec["config"]["task"], rec["config"]["trainer"]
    return (tr.get("max_steps"), t.get("lr"), t.get("warmup_steps"), tr.get("val_check_interval"),
            t.get("early_stopping_patience"))


def budget_verdict(rec) -> dict[str, Any]:
    """Whether a run trained its whole budget and had stopped improving before its end (``ok``, why)."""
    m, budget = rec["metrics"], rec["config"]["trainer"].get("max_steps")
    conv = mt_common.convergence(rec.get("extra", {}).get("history", []))
    steps = int(m["steps"]) if m.get("steps") is not None else None
    if steps is None or budget is None or budget < 0 or steps < budget:
        why = "early stopping" if rec.get("extra", {}).get("stopped_early") else "unknown"
        return {**conv, "ok": False, "why": f"no: ended at step {steps} of the {budget} budget ({why})"}
    if conv["stopped"] is None:
        return {**conv, "ok": False, "why": f"not judged: {conv['why']}"}
    return {**conv, "ok": bool(conv["stopped"]),
            "why": "yes" if conv["stopped"] else "no: still improving at the budget"}


def convergence_rows(recs) -> list[list[Any]]:
    rows = []
    for r in recs:
        e, m = r.get("extra", {}), r["metrics"]
        v = budget_verdict(r)
        rows.append([pair_of(r), LABELS[variant_of(r)], seed_of(r), len(e.get("history", [])),
                     int(m["steps"]) if m.get("steps") is not None else NONE, r["config"]["trainer"].get("max_steps"),
                     int(m["best_step"]) if m.get("best_step") is not None else NONE,
                     curve_summary(e.get("history", [])),
                     f"{v['trend']:+.2f}" if "trend" in v else NONE, f"{v['record']:+.2f}" if "record" in v else NONE,
                     v["why"]])
    return rows


def equal_budget_lines(recs) -> list[str]:
    """One budget and schedule for every Table 1 run, each converged: Table 1 compares at equal training."""
    t1 = [r for r in recs if variant_of(r) in TABLE1_VARIANTS]
    if not t1:
        return []
    schedules = sorted({schedule_of(r) for r in t1}, key=str)
    trained = sorted({int(r["metrics"].get("steps", -1)) for r in t1})
    done = [budget_verdict(r)["ok"] for r in t1]
    words = "step budget {}, peak lr {}, warm-up {}, validation every {} steps, early-stopping patience {}"
    alpha_lrs = sorted({alpha_lr_of(r) or float(r["config"]["task"]["lr"]) for r in t1 if variant_of(r) in LEARNED})
    lines = [("one step budget and one schedule for all Table 1 runs: " + words.format(*schedules[0]))
             if len(schedules) == 1 else
             (f"**{len(schedules)} different budgets / schedules** among the Table 1 runs: "
              + "; ".join(words.format(*s) for s in schedules)),
             f"steps trained: {', '.join(f'{s:,}' for s in trained)}"
             + (" (the same for every run)" if len(trained) == 1 else " — **not the same for every run**"),
             f"stopped improving before the budget ({mt_common.convergence_rule()}): {sum(done)} of {len(done)} runs"]
    ok = len(schedules) == 1 and len(trained) == 1 and all(done)
    lines.append("equal budgets: **yes** — every model trained the same steps under one schedule and had stopped "
                 "improving before the budget" if ok else
                 "equal budgets: **no** — Table 1 does not compare the models at equal, converged training")
    if alpha_lrs:
        lines.append("the learned α's peak lr (the α rule, α-entmax only): " + ", ".join(f"{x:g}" for x in alpha_lrs))
    return lines


def val_acc_spread(recs) -> list[str]:
    """Per direction: how far apart the Table 1 models are in best validation token accuracy (means over seeds)."""
    g = by_key(recs)
    out = []
    for p in PAIRS:
        acc = {v: mean(values(g[(p, v)], "val_acc_best")) for v in TABLE1_VARIANTS
               if (p, v) in g and values(g[(p, v)], "val_acc_best")}
        if len(acc) >= 2:
            out.append(f"{p}: the Table 1 models lie within {max(acc.values()) - min(acc.values()):.2f} points of "
                       "best validation token accuracy (" + ", ".join(f"{LABELS[v]} {a:.2f}" for v, a in acc.items())
                       + ")")
    return out


def output_alpha_rows(recs) -> list[list[Any]]:
    """Per direction with output-α runs: α-entmax with softmax output against α-entmax with a learned output α."""
    g = by_key(recs)
    rows = []
    for p in PAIRS:
        base, learned = g.get((p, "alpha_entmax"), []), g.get((p, "output_alpha"), [])
        if not learned:
            continue
        for metric in ("bleu_tok", "bleu", "val_acc_best"):
            b, o = values(base, metric), values(learned, metric)
            diff = mean(o) - mean(b) if b and o else None
            rows.append([p, metric, mean_std(b), len(b), mean_std(o), len(o), diff])
        rows.append([p, "output α (final)", "1 (softmax)", len(base), mean_std(values(learned, "output_alpha"), 3),
                     len(learned), None])
    return rows


def output_alpha_verdict(recs) -> list[str]:
    """Whether the learned output α helps over softmax output (BLEU and val accuracy; no test)."""
    out = []
    g = by_key(recs)
    for p in PAIRS:
        base, learned = g.get((p, "alpha_entmax"), []), g.get((p, "output_alpha"), [])
        b, o = values(base, "bleu_tok"), values(learned, "bleu_tok")
        if not learned:
            continue
        if not b or not o:
            out.append(f"- {p}: no α-entmax run with softmax output to compare with")
            continue
        d = mean(o) - mean(b)
        acc = mean(values(learned, "val_acc_best")) - mean(values(base, "val_acc_best"))
        word = "helps" if round(d, 2) > 0 else "does not help" if round(d, 2) < 0 else "makes no difference"
        out.append(f"- {p}: the learned output α {word} on tokenized BLEU ({d:+.2f} BLEU; validation token "
                   f"accuracy {acc:+.2f} points), over {len(o)} vs {len(b)} seed(s), no significance test")
    return out
SPEED_MODEL = re.compile(r"^- model: Transformer, (\d+) encoder / (\d+) decoder layers, (\d+) heads, d (\d+), "
                         r"FF (\d+).*?learns (\d+) α's", re.M)


def speed_model_check(out: Path, recs) -> str:
    """Whether ``speed.md`` measured the Table 1 model: its model line against the runs' model config."""
    path = Path(out) / SPEED
    if not path.is_file() or not recs:
        return ""
    m = recs[0]["config"]["model"]
    want = (m["enc_layers"], m["dec_layers"], m["heads"], m["d_model"], m["d_ff"],
            m["heads"] * (m["enc_layers"] + 2 * m["dec_layers"]))     # a learned α per head: enc self, dec self, context
    words = "{} + {} layers, {} heads, d {}, FF {}, {} α's"
    found = SPEED_MODEL.search(path.read_text(encoding="utf-8"))
    if found is None:
        return f"`{SPEED}` names no model: re-measure it (`make bench-transformer-speed PROFILE=<profile>`)."
    got = tuple(int(x) for x in found.groups())
    if got == tuple(int(x) for x in want):
        return f"`{SPEED}` measured the Table 1 model ({words.format(*got)})."
    return (f"**`{SPEED}` is stale**: it measured {words.format(*got)}, not the Table 1 model ({words.format(*want)}); "
            "re-measure it on an otherwise idle machine with `make bench-transformer-speed PROFILE=<profile>`.")


def table1_text(profile: str, options, recs, ref, file_rows: Sequence[Sequence[Any]] = (),
                left_out: Sequence[str] = (), speed_note: str = "", rule: Sequence[alpha_rule.RuleRow] = ()) -> str:
    """``left_out``: finished runs that are no Table 1 cell; ``rule``: the α rule's side experiment."""
    alpha_lr = options.get("alpha_lr")
    rule_line = alpha_rule.summary(rule, alpha_lr) if rule else ""
    text = header("Table 1 — BLEU of softmax, 1.5-entmax and α-entmax attention", profile, options, recs, ref,
                  rule_line)
    if left_out:
        text += (f"Left out: {len(left_out)} finished run(s) whose attention blocks mix normalizers, use another α "
                 f"or another output α, so they are no cell of this table: {', '.join(f'`{d}`' for d in left_out)}."
                 "\n\n")
    text += mt_common.settings_section(recs, "Test sets:\n\n" + ("\n".join(test_set_lines(recs, ref)) or "- no runs")
                                       + "\n\n")
    text += prose("intro") + "\n\n"
    rows = table1_rows(recs)
    text += md_table(bleu_header("attention", PAIRS, lambda p: f"paper, {paper_corpus(ref, p)}"),
                     bleu_rows(rows, options, "bleu_tok", lambda v, p: paper_cell(ref, "table1_bleu", v, p)))
    text += "\n## Detokenized SacreBLEU (ours)\n\n"
    text += md_table(bleu_header("attention", PAIRS), bleu_rows(rows, options, "bleu"))
    ex = extra_rows(recs, rows, joined=True)
    if ex:
        text += prose("extra") + "\n\n"
        text += md_table(["set", "direction", "test data (sentences)", *(label for label, _, _ in rows)], ex)
    oa = output_alpha_rows(recs)
    if oa:
        text += prose("output_alpha") + "\n\n"
        text += md_table(["direction", "metric", "softmax output", "seeds", "learned output α", "seeds",
                          "difference"], oa)
        text += "\n" + "\n".join(output_alpha_verdict(recs)) + "\n"
    if rule:
        text += alpha_rule.text(rule, alpha_lr)
    conv = convergence_rows(recs)
    if conv:
        text += (prose("convergence") + "\n\n" + "\n".join(f"- {line}" for line in equal_budget_lines(recs)) + "\n\n"
                 + prose("trend", steps=mt_common.PLATEAU_STEPS, gain=mt_common.PLATEAU_GAIN) + "\n\n")
        text += md_table(["direction", "attention", "seed", "validations", "steps trained", "step budget", "best step",
                          "val. token accuracy: first → best (step) → last", "trend", "record",
                          "stopped improving before the budget"], conv)
        text += "".join(f"\n{line}\n" for line in val_acc_spread(recs))
        # no tokens/s from the runs: they shared the machine with other jobs, so their ratios measure contention
        text += prose("speed", speed=SPEED) + (f" {speed_note}" if speed_note else "") + "\n"
    text += mt_common.bleu_cli_section(file_rows, "<direction>.<attention>[.alpha_lr<α's lr>].seed<seed>.<set>")
    return text
