"""The Correia α diagnosis (``diagnose_correia_alpha.sh``): does the learned α fall and then turn once it has room
to travel? Reads the short α-entmax runs (α's peak lr 3x / 10x / 30x the other weights') from runs folders and the
committed 12,000-step runs at α lr = lr (seeds 0 and 1) from ``reports/correia2019/cpu`` as the 1x control (seed 1: the
seed noise at equal steps), stores what it
read beside the report (``alpha_lr.jsonl``) and writes ``reports/correia2019/diagnosis/alpha_lr.md``.

    python reports/correia2019/diagnosis/diagnose_correia_alpha_report.py $SPARSELAB_RUNS     # from the runs
    python reports/correia2019/diagnosis/diagnose_correia_alpha_report.py \
        reports/correia2019/diagnosis/alpha_lr.jsonl                         # rebuild

A head *fell then rose* when its α went at least DELTA below its start and ended at least DELTA above its lowest
value; its *turn* is the step of that lowest value. DELTA is fixed here, before the runs were read.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]   # reports/correia2019/diagnosis/ -> the checkout
sys.path.insert(0, str(ROOT / "src"))
OUT = ROOT / "reports" / "correia2019" / "diagnosis" / "alpha_lr.md"
EXPERIMENT = "correia2019/table1_bleu"
DELTA = 0.05            # an α change well above one Adam step's reach at the largest multiplier (0.25 * 0.03)
COMPARE_AT = 4000       # the short runs' budget: the control is read at the same step
KINDS = ("enc_self", "dec_self", "context")


def learned(rec: dict) -> bool:
    return bool(rec["config"]["mapping"]["attn_normalizer"].get("learnable"))


def row(rec: dict, label: str) -> dict:
    """What the report reads of one record: its schedule, α every N steps, validation history and test BLEU."""
    t, e = rec["config"]["task"], rec.get("extra") or {}
    return {"label": label, "run": "/".join(Path(rec["run_dir"]).parts[-3:]), "seed": rec["config"]["seed"],
            "lr": float(t["lr"]), "alpha_lr": float(t.get("alpha_lr") or t["lr"]), "warmup": int(t["warmup_steps"]),
            "max_steps": int(rec["config"]["trainer"]["max_steps"]),
            "alpha": e["alpha_trajectory"]["history"], "history": e["history"],
            "bleu": rec["metrics"]["bleu"], "val_acc_best": rec["metrics"]["val_acc_best"],
            "best_step": rec["metrics"].get("best_step")}


def read_rows(roots: list[Path]) -> list[dict]:
    from sparselab.engine import record
    from sparselab.reports.records import committed_records

    cpu = ROOT / "reports" / "correia2019" / "cpu"
    control = sorted((r for r in committed_records(cpu / "runs.jsonl", cpu / "run_extras.jsonl", "/runs")
                      if learned(r)), key=lambda r: r["config"]["seed"])
    short = [r for root in roots for r in record.find(root, "cpu", EXPERIMENT)
             if learned(r) and r["config"]["task"].get("alpha_lr") and r["config"]["trainer"]["max_steps"] == COMPARE_AT]
    rows = [row(r, f"1x, seed {r['config']['seed']} (committed, α lr = lr)") for r in control]
    for r in sorted(short, key=lambda r: float(r["config"]["task"]["alpha_lr"])):
        mult = float(r["config"]["task"]["alpha_lr"]) / float(r["config"]["task"]["lr"])
        rows.append(row(r, f"{mult:g}x"))
    return rows


def room(alpha_lr: float, warmup: int, steps: int) -> float:
    from sparselab.reports.correia2019.analysis import alpha_room

    return alpha_room(alpha_lr, warmup, steps)


def heads(rec: dict, kind: str, upto: int) -> list[list[tuple[int, float]]]:
    """Per head of this attention type (every layer), its (step, α) up to step ``upto``."""
    snaps = [s for s in rec["alpha"] if s["step"] <= upto]
    mods = sorted(m for m in snaps[0]["alpha"] if m.startswith(kind + "/"))
    return [[(s["step"], s["alpha"][m][h]) for s in snaps] for m in mods for h in range(len(snaps[0]["alpha"][m]))]


def turned(traj: list[tuple[int, float]]) -> int | None:
    """The step of the lowest α when the head fell then rose by DELTA each, else None."""
    low_step, low = min(traj, key=lambda p: p[1])
    return low_step if traj[0][1] - low >= DELTA and traj[-1][1] - low >= DELTA else None


def summary(rec: dict, kind: str, upto: int) -> dict:
    hs = heads(rec, kind, upto)
    means = [statistics.fmean(h[i][1] for h in hs) for i in range(len(hs[0]))]
    steps = [p[0] for p in hs[0]]
    turns = [s for s in map(turned, hs) if s is not None]
    lowest = min(range(len(means)), key=means.__getitem__)
    return {"start": means[0], "low": means[lowest], "low_step": steps[lowest], "end": means[-1],
            "moved": statistics.fmean(abs(h[-1][1] - h[0][1]) for h in hs),
            "turned": len(turns), "n": len(hs), "turn_median": statistics.median(turns) if turns else None,
            "turn_range": (min(turns), max(turns)) if turns else None, "rises": sum(h[-1][1] > h[0][1] for h in hs)}


def val_at(rec: dict, step: int) -> float | None:
    return next((h["val_acc"] for h in rec["history"] if h["step"] == step), None)


def render(rows: list[dict], paper_room: float | None, paper: dict | None = None) -> str:
    lines = ["# Correia cpu: how far can the learned α travel? (α learning-rate diagnosis)", "",
             "Built by `reports/correia2019/diagnosis/diagnose_correia_alpha_report.py` from the runs of "
             "`reports/correia2019/diagnosis/diagnose_correia_alpha.sh` (α-entmax, de-en Multi30k, seed 0, "
             "the cpu profile with α's "
             "peak lr scaled, first 4,000 steps of the 12,000-step schedule) and the committed 12,000-step run at "
             "α lr = lr (the 1x control, seeds 0 and 1, read at the same step). "
             f"A head *fell then rose* when its α went ≥ {DELTA} below its start and ended ≥ {DELTA} above its lowest "
             "value; the turn is the step of that lowest value.", "",
             "## Room to travel: α's learning rate summed over the steps", "",
             "| run | α peak lr | Σ lr, first 4,000 steps | Σ lr, 12,000 steps | paper profile (200k steps) |",
             "|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['label']} | {r['alpha_lr']:g} | {room(r['alpha_lr'], r['warmup'], COMPARE_AT):.2f} | "
                     f"{room(r['alpha_lr'], r['warmup'], 12000):.1f} | "
                     f"{'–' if paper_room is None else f'{paper_room:.1f}'} |")
    lines += ["", f"## Trajectories to step {COMPARE_AT:,}, per attention type (mean α over heads)", "",
              "| run | attention | α at 0 | lowest mean α (step) | α at end | mean \\|α − α₀\\| | heads ending above "
              "their start | heads that fell then rose | turn step: median (range) | α's Σ lr at the median turn |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        for kind in KINDS:
            s = summary(r, kind, COMPARE_AT)
            turn = "–" if s["turn_median"] is None else f"{s['turn_median']:,.0f} ({s['turn_range'][0]:,}–{s['turn_range'][1]:,})"
            at = "–" if s["turn_median"] is None else f"{room(r['alpha_lr'], r['warmup'], int(s['turn_median'])):.1f}"
            lines.append(f"| {r['label']} | {kind} | {s['start']:.3f} | {s['low']:.3f} ({s['low_step']:,}) | "
                         f"{s['end']:.3f} | {s['moved']:.3f} | {s['rises']} / {s['n']} | {s['turned']} / {s['n']} | "
                         f"{turn} | {at} |")
    full = [r for r in rows if r["max_steps"] > COMPARE_AT]
    if full:
        lines += ["", "The 1x control over its whole 12,000-step budget:", "",
                  "| run | attention | lowest mean α (step) | α at 12,000 | heads that fell then rose |",
                  "|---|---|---|---|---|"]
        for r in full:
            for kind in KINDS:
                s = summary(r, kind, r["max_steps"])
                lines.append(f"| {r['label']} | {kind} | {s['low']:.3f} ({s['low_step']:,}) | {s['end']:.3f} | "
                             f"{s['turned']} / {s['n']} |")
    if paper is not None:
        lr, w = paper["lr"], paper["warmup"]
        lines += ["", "The paper sees heads turn \"after around one thousand steps\" (§5, Figure 2). By the paper "
                  f"profile's schedule (peak {lr:g} after {w:,} warm-up steps) α's Σ lr is {room(lr, w, 1000):.3f} at "
                  f"update 1,000, too little for the moves Figure 2 shows; it is {room(lr, w, 50 * 1000):.1f} if the "
                  "figure's x-axis counts progress reports of 50 updates (the authors' OpenNMT branch logs α to "
                  "TensorBoard at `progress_step`, one per `report_every` updates, default 50; an inference from "
                  "their code, not stated in the paper)."]
    lines += ["", f"## Validation at step {COMPARE_AT:,} (token accuracy, %) and test BLEU", "",
              f"| run | val. acc. at {COMPARE_AT:,} | best val. acc. (step) | test BLEU (at the best state) |",
              "|---|---|---|---|"]
    for r in rows:
        v = val_at(r, COMPARE_AT)
        lines.append(f"| {r['label']} | {'–' if v is None else f'{v:.2f}'} | {r['val_acc_best']:.2f} "
                     f"({r['best_step']:,.0f}) | {r['bleu']:.2f} |")
    lines += ["", "BLEU of the short runs is at their best state within 4,000 steps; the control's at its best within "
              "12,000: only the validation accuracy at step 4,000 compares them at equal steps."]
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", type=Path, nargs="+", help="runs folders, or the alpha_lr.jsonl written from them")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    if len(args.runs) == 1 and args.runs[0].is_file():
        stored = [json.loads(x) for x in args.runs[0].read_text(encoding="utf-8").splitlines()]
        rows, paper_room, schedule = stored[1:], stored[0]["paper_room"], stored[0].get("paper_schedule")
    else:
        from sparselab.reports.correia2019.header import paper_profile_config

        paper = paper_profile_config()
        paper_room = None if paper is None else room(float(paper["task"].get("alpha_lr") or paper["task"]["lr"]),
                                                     int(paper["task"]["warmup_steps"]),
                                                     int(paper["trainer"]["max_steps"]))
        schedule = None if paper is None else {"lr": float(paper["task"]["lr"]),
                                                "warmup": int(paper["task"]["warmup_steps"])}
        rows = read_rows(args.runs)
        head = {"paper_room": paper_room, "paper_schedule": schedule}
        args.out.with_suffix(".jsonl").write_text(
            "".join(json.dumps(x, sort_keys=True) + "\n" for x in [head, *rows]), encoding="utf-8")
    args.out.write_text(render(rows, paper_room, schedule), encoding="utf-8")
    print(f"{len(rows)} runs -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
