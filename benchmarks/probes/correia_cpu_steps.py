"""Seconds per training step of the Correia et al. (2019) Transformer on real Multi30k de-en batches, to size the
``cpu`` profile (conf/model/transformer.yaml). Not a test and not a report: prints one line per mapping.

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/probes/correia_cpu_steps.py [--steps 20] [--warmup 5] \
        [--mappings softmax,entmax15,alpha_entmax] [hydra overrides, e.g. model.d_model=128 task.batch_tokens=2048]

Builds the model, the optimiser and the token-bucket batches of a real run (``experiment=correia2019/table1_bleu
profile=cpu data.pair=de-en``, BPE from the shared cache under ``$SPARSELAB_RUNS``), takes ``--warmup`` untimed
steps (torch.compile of the sparse kernels), then times ``--steps`` steps: median and mean seconds per step, target
tokens per step, the CPU seconds of this thread per step (less sensitive than wall time to other jobs on a shared
machine), the load average before and after, and how far the learned α's moved (the schedule is stepped)."""
from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))   # benchmarks/: training_speed.py
from training_speed import compose

from sparselab.analysis.heads import learned_alphas
from sparselab.models.build import model_config
from sparselab.tasks import settings
from sparselab.tasks.settings import build_model
from sparselab.data import mt_data
from sparselab.training.transformer_module import TransformerModule


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--mappings", default="softmax,entmax15,alpha_entmax")
    args, overrides = ap.parse_known_args(argv)
    torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", "1")))
    for mapping in args.mappings.split(","):
        cfg = compose(["experiment=correia2019/table1_bleu", "profile=cpu", "data.pair=de-en", f"mapping={mapping}",
                       f"paths.runs={os.environ.get('SPARSELAB_RUNS', 'runs')}", *overrides])
        torch.manual_seed(0)
        with tempfile.TemporaryDirectory() as d:
            data = mt_data.prepare_data(settings.mt_data(cfg), Path(d) / "vocab.json")
        model = build_model(model_config(settings.model_container(cfg), data.src, data.tgt))
        module = TransformerModule(model, float(cfg.mapping.alpha), lr=float(cfg.task.lr),
                                   warmup_steps=int(cfg.task.warmup_steps), alpha_lr=cfg.task.get("alpha_lr"))
        opts = module.configure_optimizers()
        opt, sched = opts["optimizer"], opts["lr_scheduler"]["scheduler"]
        alpha0 = learned_alphas(model)
        loader = mt_data.token_loader(data.train_ds, data.src, data.tgt, int(cfg.task.batch_tokens), 0)
        it = itertools.chain.from_iterable(itertools.repeat(loader))          # epochs back to back
        model.train()
        secs, cpu, toks, sents = [], [], [], []
        load0 = os.getloadavg()[0]
        for i in range(args.warmup + args.steps):
            batch = next(it)
            t, c = time.perf_counter(), time.thread_time()
            loss = module.loss(batch)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            if i >= args.warmup:
                secs.append(time.perf_counter() - t)
                cpu.append(time.thread_time() - c)
                toks.append(int((batch["tgt_out"] != module.pad_id).sum()))
                sents.append(len(batch["idx"]))
        m = cfg.model
        n = sum(p.numel() for p in model.parameters())
        print(f"{mapping}: d {m.d_model} heads {m.heads} layers {m.enc_layers}/{m.dec_layers} ff {m.d_ff} "
              f"batch_tokens {cfg.task.batch_tokens} params {n / 1e6:.2f}M: median {statistics.median(secs):.3f} s/step wall "
              f"(mean {statistics.mean(secs):.3f}), median {statistics.median(cpu):.3f} s/step CPU (this thread), tgt tokens/step {statistics.mean(toks):.0f}, "
              f"{len(data.train_ds) / statistics.mean(sents):.0f} steps per epoch; load average {load0:.2f} -> {os.getloadavg()[0]:.2f}",
              flush=True)
        moved = [abs(b - a) for k, layers in learned_alphas(model).items() for i, hs in layers.items()
                 for a, b in zip(alpha0[k][i], hs)]
        if moved:
            print(f"  learned α after {args.warmup + args.steps} steps: |change| mean {statistics.mean(moved):.4f}, "
                  f"max {max(moved):.4f} over {len(moved)} heads", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
