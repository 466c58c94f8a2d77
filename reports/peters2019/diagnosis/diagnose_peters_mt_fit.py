"""Issue 32, MT, after the cadence diagnosis: does ja-en softmax fit its training set worse than 1.5-entmax
(H5: it learns more slowly), or about as well while generalising worse (H4: at this data size it is limited by
regularisation, which ``model.dropout=0.5`` tests)?

    python reports/peters2019/diagnosis/diagnose_peters_mt_fit.py RUNS_ROOT... [--out reports/peters2019/diagnosis/mt_fit.md]
    python reports/peters2019/diagnosis/diagnose_peters_mt_fit.py reports/peters2019/diagnosis/mt_fit.jsonl  # rebuild

Every finished ja-en seed-0 run of ``peters2019/table2_mt`` in the runs folders given (the cadence diagnosis' runs
and the chosen protocol's): its saved model (the selected checkpoint), teacher-forced, in eval mode, on a fixed sample of
5,000 training pairs and on the whole dev set. Token accuracy is the argmax's (the model-selection metric); top-5
accuracy asks whether the gold token is among the 5 highest scores, which no output mapping changes. Tokens with zero
loss: those where a sparse output (α > 1) gives the gold token all its mass, so its loss is 0 and they give no
gradient; softmax's loss is positive on every token. No training: the measurement reads only saved models, so it can
run beside training jobs.
"""
from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

import torch
from omegaconf import OmegaConf

from sparselab import mappings
from sparselab.data import mt_data
from sparselab.models.build import load_model
from sparselab.tasks import settings
from sparselab.reports.tables import md_table

from diagnosis_records import arguments, find, store

N_TRAIN = 5000      # training pairs measured: about 46,000 target tokens, ten times the dev set
SAMPLE_SEED = 0


@torch.no_grad()
def token_accuracy(model, ds, src, tgt, alpha: float, batch_size: int = 200) -> dict:
    """Teacher-forced argmax and top-5 accuracy (%) over the non-padding target tokens of ``ds``, and the share (%)
    of them whose output α-entmax puts all its mass on the gold token: the loss is 0 there and gives no gradient
    (never under softmax, whose loss is positive everywhere)."""
    model.eval()
    correct = top5 = certain = total = 0
    for batch in mt_data.loader(ds, src, tgt, batch_size):
        logits = model(batch["src"], batch["src_len"], batch["tgt_in"])
        gold = batch["tgt_out"]
        mask = gold != tgt.pad_id
        correct += int(((logits.argmax(-1) == gold) & mask).sum())
        top5 += int(((logits.topk(5, dim=-1).indices == gold.unsqueeze(-1)).any(-1) & mask).sum())
        if alpha > 1:
            p_gold = mappings.entmax(logits, alpha, dim=-1).gather(-1, gold.unsqueeze(-1)).squeeze(-1)
            certain += int(((p_gold == 1.0) & mask).sum())
        total += int(mask.sum())
    return {"acc": 100.0 * correct / total, "top5": 100.0 * top5 / total, "zero_loss": 100.0 * certain / total,
            "tokens": total}


def measure(rec) -> dict:
    """The row of one run: its protocol keys and the accuracies of its saved model."""
    cfg = OmegaConf.create(rec["config"])
    run_dir = Path(rec["run_dir"])
    with tempfile.TemporaryDirectory() as tmp:
        data = mt_data.prepare_data(settings.mt_data(cfg), Path(tmp) / "vocab.json")
    model, src, tgt, _ = load_model(run_dir / rec["extra"]["model_file"], settings.build_model)
    if src.to_dict() != data.src.to_dict() or tgt.to_dict() != data.tgt.to_dict():
        print(f"error: {run_dir}: the saved model's vocabulary is not the one its config builds", file=sys.stderr)
        raise SystemExit(2)
    idx = sorted(random.Random(SAMPLE_SEED).sample(range(len(data.train_ds)), N_TRAIN))
    train = torch.utils.data.Subset(data.train_ds, idx)
    c, m = rec["config"], rec["metrics"]
    return {"alpha": float(c["mapping"]["alpha"]), "attn_alpha": float(c["mapping"]["attn_alpha"]),
            "val_every": int(c["trainer"]["val_check_interval"]), "max_steps": int(c["trainer"]["max_steps"]),
            "patience": c["task"].get("early_stopping_patience"), "steps": int(m["steps"]),
            "dropout": float(c["model"]["dropout"]),
            "best_step": int(m["best_step"]), "val_acc_best": float(m["val_acc_best"]),
            "bleu_tok": float(m["bleu_tok"]),
            "train": token_accuracy(model, train, src, tgt, float(c["mapping"]["alpha"])),
            "dev": token_accuracy(model, data.val_ds, src, tgt, float(c["mapping"]["alpha"])),
            "job": rec["config_hash"]}


def label(r) -> str:
    names = {1.0: "softmax", 1.5: "1.5-entmax", 2.0: "sparsemax"}
    out = names[r["alpha"]] if r["alpha"] == r["attn_alpha"] else \
        f"{names[r['alpha']]} output, {names[r['attn_alpha']]} attention"
    proto = "chosen protocol" if r["patience"] is not None else f"{r['max_steps']:,} steps, no early stopping"
    return f"{out} (validation every {r['val_every']:,}; {proto}; dropout {r['dropout']:g})"


def table(rows: list[dict]) -> str:
    hdr = ["run", "selected step", "train acc.", "dev acc.", "train − dev", "train top-5", "dev top-5",
           "train tokens with zero loss (%)", "test BLEU (tok.)"]
    rows = sorted(rows, key=lambda r: (r["patience"] is not None, r["val_every"], r["dropout"], r["alpha"],
                                       r["attn_alpha"]))
    return md_table(hdr, [[label(r), f"{r['best_step']:,}", f"{r['train']['acc']:.2f}", f"{r['dev']['acc']:.2f}",
                           f"{r['train']['acc'] - r['dev']['acc']:.2f}", f"{r['train']['top5']:.2f}",
                           f"{r['dev']['top5']:.2f}", f"{r['train']['zero_loss']:.2f}" if r["alpha"] > 1 else "–",
                           f"{r['bleu_tok']:.2f}"] for r in rows])


def main() -> None:
    args, rows = arguments(__doc__, "mt_fit")
    if rows is None:
        torch.set_num_threads(1)
        rows = []
        for rec in find(args.runs, "peters2019/table2_mt"):
            c = rec["config"]
            if rec.get("status") == "finished" and c["data"]["pair"] == "ja-en" and int(c["seed"]) == 0:
                rows.append(measure(rec))
                print(label(rows[-1]), rows[-1]["train"]["acc"], rows[-1]["dev"]["acc"], file=sys.stderr)
        store(args.out, rows)
    text = ("# Issue 32: does ja-en softmax fit its training set worse, or generalise worse?\n\n"
            + " ".join(__doc__.split("\n\n")[0].split()) + "\n\n"
            + " ".join(__doc__.split("\n\n")[2].split())
            + "\n\nBuilt by `python reports/peters2019/diagnosis/diagnose_peters_mt_fit.py "
            f"RUNS_ROOT...`; training sample: {N_TRAIN:,} pairs drawn with seed {SAMPLE_SEED}.\n\n")
    args.out.write_text(text + table(rows), encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
