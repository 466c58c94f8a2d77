"""The cadence diagnosis of issue 32 as a report (``reports/peters2019/diagnosis/cadence.md``), from run records only.

    python reports/peters2019/diagnosis/diagnose_peters_cadence_report.py RUNS_ROOT \
        [--out reports/peters2019/diagnosis/cadence.md]

Compares, for output α 1 × attention α {1, 2} (seed 0, cpu profile), the grid committed before issue 32's plan (validation
every epoch, patience 5; its two records and their per-language rows, taken from ``reports/peters2019/cpu/`` at
956eb03, are kept beside this report as ``cadence_every_epoch_runs.jsonl`` and ``..._per_language.csv``) with the runs of
``reports/peters2019/diagnosis/diagnose_peters_cadence.sh`` (validation every 10 epochs, patience 3 validations,
400-epoch guard), and
both with the shared task's non-neural baseline on the same languages (``peters2019/baseline_medium``, cpu):
dev curves, lr halvings, why each run stopped, and test accuracy per language.
"""
from __future__ import annotations

import argparse
import csv
import json
from pathlib import Path

from sparselab.engine import record
from sparselab.reports.tables import md_table

HERE = Path(__file__).resolve().parent          # reports/peters2019/diagnosis/: the report and its frozen inputs
# the earlier protocol's two runs, frozen: the committed cpu report now holds issue 32's plan
EARLIER_RUNS, EARLIER_LANGUAGES = HERE / "cadence_every_epoch_runs.jsonl", HERE / "cadence_every_epoch_per_language.csv"
CELLS = ((1.0, 1.0), (1.0, 2.0))


def committed_runs() -> dict:
    out = {}
    for line in EARLIER_RUNS.read_text().splitlines():
        r = json.loads(line)
        m = r["config"]["mapping"]
        if r["config"]["experiment_name"] == "peters2019/table1_medium" and (m["alpha"], m["attn_alpha"]) in CELLS:
            out[(m["alpha"], m["attn_alpha"])] = r
    return out


def committed_languages() -> dict:
    out: dict = {}
    with open(EARLIER_LANGUAGES) as f:
        for row in csv.DictReader(f):
            if row["kind"] != "single":         # ensembles; the baseline's rows have no α's
                continue
            cell = (float(row["output_alpha"]), float(row["attention_alpha"]))
            if cell in CELLS:
                out.setdefault(cell, {})[row["language"]] = float(row["accuracy"])
    return out


def new_runs(root: Path) -> tuple[dict, dict | None]:
    runs, base = {}, None
    for r in record.find(root, "cpu"):
        c = r["config"]
        if r.get("status") != "finished":
            continue
        if c["experiment_name"] == "peters2019/baseline_medium":
            base = r
        elif (c["experiment_name"] == "peters2019/table1_medium" and int(c["trainer"]["check_val_every_n_epoch"]) == 10
              and int(c["seed"]) == 0 and (c["mapping"]["alpha"], c["mapping"]["attn_alpha"]) in CELLS):
            runs[(c["mapping"]["alpha"], c["mapping"]["attn_alpha"])] = r   # issue 32's plan runs these cells too
    return runs, base


def halvings(rec) -> int:
    lrs = [float(rec["config"]["task"]["lr"])] + [h["lr"] for h in rec["extra"]["history"] if h.get("lr") is not None]
    return sum(b < a for a, b in zip(lrs, lrs[1:]))


def stop_reason(rec) -> str:
    e, m, cap = rec["extra"], rec["metrics"], int(rec["config"]["trainer"]["max_epochs"])
    if e.get("stopped_early"):
        return "early stopping (dev stopped improving)"
    return f"epoch cap ({cap})" if int(m.get("epochs", 0)) >= cap else "not recorded"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", type=Path)
    ap.add_argument("--out", type=Path, default=HERE / "cadence.md")
    args = ap.parse_args()
    old, old_lang = committed_runs(), committed_languages()
    new, base = new_runs(args.runs)
    rows, curves = [], []
    for cell in CELLS:
        for name, r in (("every epoch, patience 5 (committed grid)", old.get(cell)),
                        ("every 10 epochs, patience 3 (diagnosis)", new.get(cell))):
            if r is None:
                rows.append([f"{cell[0]:g} / {cell[1]:g}", name, "not finished", "", "", "", "", "", ""])
                continue
            m = r["metrics"]
            updates = float(m["train_samples"]) / int(r["config"]["task"]["batch_size"])
            rows.append([f"{cell[0]:g} / {cell[1]:g}", name, int(m["epochs"]), f"{updates:,.0f}",
                         int(m["best_epoch"]) + 1, int(m.get("lr_halvings", halvings(r) if r.get("extra") else 0)),
                         f"{m['val_acc_best']:.2f}",
                         f"{m['acc']:.2f}", stop_reason(r) if r.get("extra") else "early stopping (committed record)"])
            if r.get("extra", {}).get("history"):
                curves.append([f"{cell[0]:g} / {cell[1]:g}", name, " ".join(
                    f"e{h['epoch'] + 1}:{h['val_acc']:.1f}" for h in r["extra"]["history"])])
    text = ("# Issue 32: does the validation cadence explain the cpu grid's deficit?\n\n" + __doc__.split("\n\n")[2]
            .replace("\n", " ") + " Epochs are 1-based.\n\n"
            "Built by `python reports/peters2019/diagnosis/diagnose_peters_cadence_report.py RUNS_ROOT`.\n\n")
    base_acc = f"{base['metrics']['acc']:.2f}" if base else "not run"
    text += f"Non-neural baseline, test accuracy on the same 10 languages: **{base_acc}**.\n\n"
    text += md_table(["output α / attention α", "cadence", "epochs", "updates", "best epoch", "lr halvings",
                      "best dev", "test", "stopped by"], rows)
    if curves:
        text += "\n## Dev accuracy at each validation (epoch: greedy word accuracy)\n\n"
        text += md_table(["output α / attention α", "cadence", "curve"], curves)
    langs = sorted(base["extra"]["per_language"]) if base else sorted(next(iter(old_lang.values()), {}))
    if langs:
        hdr, lrows = ["language", "baseline"], []
        for cell in CELLS:
            hdr += [f"{cell[0]:g}/{cell[1]:g} every epoch", f"{cell[0]:g}/{cell[1]:g} every 10"]
        for lang in langs:
            row = [lang, f"{base['extra']['per_language'][lang]['accuracy']:.2f}" if base else "–"]
            for cell in CELLS:
                row.append(f"{old_lang.get(cell, {}).get(lang, float('nan')):.2f}")
                r = new.get(cell)
                row.append(f"{r['extra']['per_language'][lang]['accuracy']:.2f}" if r else "–")
            lrows.append(row)
        text += "\n## Test accuracy per language\n\n" + md_table(hdr, lrows)
        if base:
            below = {cell: sum(new[cell]["extra"]["per_language"][l]["accuracy"] <
                               base["extra"]["per_language"][l]["accuracy"] for l in langs) for cell in new}
            text += "\nLanguages below the baseline with validation every 10 epochs: " + ", ".join(
                f"{c[0]:g}/{c[1]:g}: {n} of {len(langs)}" for c, n in below.items()) + ".\n"
    args.out.write_text(text)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
