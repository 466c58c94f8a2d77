"""The MT cadence diagnosis of issue 32 as a report (``reports/peters2019/diagnosis/mt_cadence.md``), from run
records only.

    python reports/peters2019/diagnosis/diagnose_peters_mt_cadence_report.py RUNS_ROOT... \
        [--out reports/peters2019/diagnosis/mt_cadence.md]
    python reports/peters2019/diagnosis/diagnose_peters_mt_cadence_report.py \
        reports/peters2019/diagnosis/mt_cadence.jsonl                     # rebuild

From a runs folder it also writes the records it read, slimmed, beside the report (``mt_cadence.jsonl``): the
committed table is rebuilt from them (tests/reports/peters2019/test_diagnosis_mt_cadence.py).

ja-en, seed 0, cpu profile, the 15,000-step budget with no early stopping (the protocol before the diagnosis):
softmax and 1.5-entmax with validation every 250 steps and every 1,500
(``reports/peters2019/diagnosis/diagnose_peters_mt_cadence.sh``).
H1: the 250-step cadence halves softmax's learning rate too early; H2: softmax learns more slowly per update at any
cadence; H3 (if H2): is it softmax's output or its attention? (softmax output with 1.5-entmax attention). Beside them, the three mappings under the protocol the diagnosis chose (validation every 1,500 steps,
early stopping after 4,500 updates without a 0.25-point gain, at most 45,000 steps), where finished.
"""
from __future__ import annotations

from sparselab.reports.peters2019 import convergence
from sparselab.reports.tables import md_table

from diagnosis_records import arguments, find, store

MAPPINGS = ((1.0, "softmax"), (1.5, "1.5-entmax"), (2.0, "sparsemax"))
# the diagnosis' runs: (output α, attention α, validation every, label); the last one asks H3 (output or attention?)
DESIGN = ((1.0, 1.0, 250, "softmax"), (1.5, 1.5, 250, "1.5-entmax"), (1.0, 1.0, 1500, "softmax"),
          (1.5, 1.5, 1500, "1.5-entmax"), (1.0, 1.5, 1500, "softmax output, 1.5-entmax attention"))
DROPOUT = 0.3                               # the cpu profile's; H4 changes it (diagnose_peters_mt_fit.py reports)
AT = (1500, 3000, 4500, 7500, 15000)        # steps where every cadence of the diagnosis validates


def slim(r) -> dict:
    """What the report reads of a record."""
    c = r["config"]
    return {"status": r["status"], "metrics": {k: r["metrics"][k] for k in ("steps", "val_acc_best", "best_step",
                                                                             "bleu_tok", "bleu")},
            "extra": {"history": [{k: h.get(k) for k in ("step", "val_acc", "lr")} for h in r["extra"]["history"]],
                      "stopped_early": r["extra"].get("stopped_early")},
            "config": {"experiment_name": c["experiment_name"], "seed": c["seed"], "data": {"pair": c["data"]["pair"]},
                       "mapping": {k: c["mapping"][k] for k in ("alpha", "attn_alpha")},
                       "trainer": {k: c["trainer"][k] for k in ("val_check_interval", "max_steps")},
                       "model": {"dropout": c["model"]["dropout"]},
                       "task": {k: c["task"].get(k) for k in ("lr", "early_stopping_patience")}}}


def runs(records) -> tuple[dict, dict]:
    """{(output α, attention α, cadence): record} of the diagnosis (15,000 steps, no patience) and of the chosen
    protocol (patience)."""
    diag, proto = {}, {}
    for r in records:
        c = r["config"]
        if (r.get("status") != "finished" or c["experiment_name"] != "peters2019/table2_mt"
                or c["data"]["pair"] != "ja-en" or int(c["seed"]) != 0
                or float(c.get("model", {}).get("dropout", DROPOUT)) != DROPOUT):   # H4's runs: mt_fit.md
            continue
        key = (float(c["mapping"]["alpha"]), float(c["mapping"]["attn_alpha"]), int(c["trainer"]["val_check_interval"]))
        if int(c["trainer"]["max_steps"]) == 15000 and c["task"].get("early_stopping_patience") is None:
            diag[key] = r
        elif c["task"].get("early_stopping_patience") is not None:
            proto[key] = r
    return diag, proto


def halving_steps(rec) -> list[int]:
    lr, out = float(rec["config"]["task"]["lr"]), []
    for h in rec["extra"]["history"]:
        if h.get("lr") is not None and float(h["lr"]) < lr:
            out.append(int(h["step"]))
        lr = float(h["lr"]) if h.get("lr") is not None else lr
    return out


def row(label: str, cadence: int, rec) -> list:
    if rec is None:
        return [label, f"{cadence:,}", "not finished", *[""] * (7 + len(AT))]
    m, e = rec["metrics"], rec["extra"]
    acc = {int(h["step"]): h["val_acc"] for h in e["history"] if h.get("val_acc") is not None}
    halv = halving_steps(rec)
    conv = convergence.convergence_of(rec)
    rising = {True: "no", False: "yes", None: "–"}[conv["stopped"]]
    return [label, f"{cadence:,}", len(e["history"]), int(m["steps"]), len(halv), f"{halv[0]:,}" if halv else "–",
            *[f"{acc[s]:.2f}" if s in acc else "–" for s in AT],
            f"{m['val_acc_best']:.2f} ({int(m['best_step']):,})", rising, f"{m['bleu_tok']:.2f}", f"{m['bleu']:.2f}"]


def main() -> None:
    args, records = arguments(__doc__, "mt_cadence")
    if records is None:
        found = [slim(r) for r in find(args.runs, "peters2019/table2_mt")]
        diag, proto = runs(found)
        records = [*diag.values(), *proto.values()]
        store(args.out, records)
    diag, proto = runs(records)
    hdr = ["mapping", "validation every", "validations", "steps", "lr halvings", "first halving (step)",
           *[f"val. acc. at {s:,}" for s in AT], "best val. acc. (step)", "still rising at the end",
           "test BLEU (tok.)", "test SacreBLEU"]
    rows = [row(label, cad, diag.get((a, b, cad))) for a, b, cad, label in DESIGN]
    text = ("# Issue 32: why does ja-en softmax end far below 1.5-entmax?\n\n"
            + " ".join(next(p for p in __doc__.split("\n\n") if p.startswith("ja-en")).split()) + "\n\nBuilt by `python "
            "reports/peters2019/diagnosis/diagnose_peters_mt_cadence_report.py RUNS_ROOT...`. "
            "Validation token accuracy is teacher-forced "
            "on small_parallel_enja/dev; BLEU on its test set (beam 5). *Still rising*: the report's rule "
            f"({convergence.convergence_rule_text()}).\n\n## The diagnosis: 15,000 steps, no early stopping\n\n")
    text += md_table(hdr, rows)
    if proto:
        text += "\n## The protocol it chose\n\n"
        text += md_table(hdr, [row(label, cad, proto.get((a, a, cad))) for cad in sorted({k[2] for k in proto})
                               for a, label in MAPPINGS])
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
