"""Summary of the issue-20 diagnostic runs (``diagnose_peters_collapse.sh``, beside this script), read from their run
records.

    python reports/peters2019/diagnosis/diagnose_peters_summary.py [RUNS_ROOT]      (default: $SPARSELAB_RUNS)

One line per run: halving rule, lr, validation interval, attention α, status, epochs, lr halvings, last lr, dev
accuracy at a few epochs, best dev accuracy, test accuracy and why it stopped. Runs still going show their status.
"""
from __future__ import annotations

import os
import sys

from sparselab.engine import record

EPOCHS = (5, 10, 15, 20, 30, 40)


def row(rec: dict) -> str:
    c, m, e = rec["config"], rec.get("metrics", {}), rec.get("extra", {})
    t = c["task"]
    head = (f"rule={t.get('lr_rule', 'best'):8s} lr={float(t['lr']):.0e} "
            f"val_every={c['trainer'].get('check_val_every_n_epoch')} "
            f"attn_alpha={float(c['mapping']['attn_alpha']):g} seed={c['seed']}")
    if rec["status"] != "finished":
        return f"{head} status={rec['status']}"
    hist = e.get("history", [])
    lrs = [h["lr"] for h in hist if h.get("lr") is not None]
    halvings = sum(b < a for a, b in zip([float(t["lr"]), *lrs], lrs))
    at = {h["epoch"] + 1: h["val_acc"] for h in hist}
    curve = " ".join(f"e{k}:{at[k]:.1f}" for k in EPOCHS if k in at)
    first_halving = next((h["epoch"] + 1 for h, prev in zip(hist, [float(t["lr"]), *lrs]) if h["lr"] < prev), None)
    why = "patience" if e.get("stopped_early") else "epoch cap"
    started = e.get("early_stopping_started_epoch")      # 0-based like the history; printed 1-based
    return (f"{head} epochs={len(hist) and hist[-1]['epoch'] + 1} halvings={halvings} "
            f"first_halving_epoch={first_halving} last_lr={lrs[-1] if lrs else float('nan'):.3g} "
            f"patience_counted_from_epoch={None if started is None else started + 1} "
            f"dev[{curve}] best_dev={m.get('val_acc_best', float('nan')):.2f}@{m.get('best_epoch')} "
            f"test={m.get('acc', float('nan')):.2f} stopped_by={why}")


def main(root: str) -> None:
    recs = record.find(root, "cpu", "peters2019/table1_medium", status=None)
    def order(r):
        t = r["config"]["task"]
        return t.get("lr_rule", "best"), float(t["lr"]), float(r["config"]["mapping"]["attn_alpha"])

    for rec in sorted(recs, key=order):
        print(row(rec))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.environ["SPARSELAB_RUNS"])
