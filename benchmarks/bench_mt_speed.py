"""Peters et al. (2019), Figure 6: training speed of the LSTM NMT model in target tokens per second, for softmax,
exact 1.5-entmax and bisection-based α-entmax (α = 1.5 through ``entmax_bisect``), as ratios to softmax.

    OMP_NUM_THREADS=2 .venv/bin/python benchmarks/bench_mt_speed.py --profile cpu [--out FILE] [--steps N] ...
    make bench-mt-speed PROFILE=cpu          # writes reports/peters2019/<profile>/figure6_speed.md

A benchmark, never a timed test. Method:

* One process, one model per mapping, all three built from the same seed (same initial weights) with the model
  sizes of ``experiment=peters2019/table2_mt profile=<profile>`` (composed with Hydra; ``--hidden`` etc. override).
  Attention α = output α (Table 2): softmax = α 1 (``F.softmax`` attention, cross-entropy loss); exact 1.5-entmax
  = ``entmax15`` attention and loss; bisection = ``entmax_bisect(α=1.5)`` attention and the Fenchel–Young loss with
  a tensor α (which always takes the bisection path).
* The same batches for all three: ``--batches`` synthetic sentence pairs batches (``--batch`` pairs, source and
  target lengths drawn uniformly in [``--min-len``, ``--max-len``], Zipf-distributed token ids over a
  ``--vocab`` vocabulary; the models are untrained, so their output sparsity is that of early training).
* One training step = forward (teacher forcing), loss, backward, Adam step. Every model first takes ``--warmup``
  steps (torch.compile kernels, caches); then ``--steps`` rounds, each running every mapping on the same batch in
  a shuffled order; speed = target tokens / median step time; ratio = speed / softmax speed.
"""
from __future__ import annotations

import argparse
import datetime
import os
import statistics
import sys
import time
from pathlib import Path

import torch
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parent))
from training_speed import compose, cpu_description, speeds, time_rounds, zipf_weights

import sparselab.mappings as M
from sparselab.models.attention import GlobalAttention
from sparselab.models.seq2seq import Seq2Seq

PAD, BOS, EOS = 0, 1, 2
MAPPINGS = ("softmax", "entmax15 (exact)", "entmax_bisect α=1.5")
# papers.yaml peters2019.figure6_training_speed_deen keys of each mapping (reference column only)
PAPER_KEYS = {"softmax": "softmax", "entmax15 (exact)": "entmax15_exact", "entmax_bisect α=1.5": "bisection"}


def paper_speeds() -> dict[str, float]:
    """The paper's target words/s per mapping (Figure 6, one GTX 1080), from papers.yaml ({} if absent)."""
    from sparselab.reports.reference import reference

    vals = reference("peters2019").get("figure6_training_speed_deen", {}).get("values", {}) or {}
    return {name: float(vals[k]) for name, k in PAPER_KEYS.items() if vals.get(k) is not None}


class Bisect(nn.Module):
    """Attention normaliser: α-entmax by bisection (never the exact entmax15 path)."""

    def __init__(self, alpha: float):
        super().__init__()
        self.alpha = alpha

    def forward(self, x):
        return M.entmax_bisect(x, self.alpha, dim=-1)


def normalizer(name: str) -> nn.Module:
    if name == "softmax":
        return nn.Softmax(dim=-1)
    if name.startswith("entmax15"):
        return M.Entmax(alpha=1.5)
    return Bisect(1.5)


def loss_fn(name: str):
    if name == "softmax":
        return lambda z, y: nn.functional.cross_entropy(z, y, ignore_index=PAD, reduction="sum")
    if name.startswith("entmax15"):
        return lambda z, y: M.fy_loss(z, y, 1.5, ignore_index=PAD, reduction="sum")
    alpha = torch.tensor(1.5)                      # a tensor α always takes the bisection path
    return lambda z, y: M.fy_loss(z, y, alpha.to(z.dtype), ignore_index=PAD, reduction="sum")


def profile_sizes(profile: str) -> dict:
    """Model and batch sizes of the MT experiment in this profile (the composed Hydra config)."""
    cfg = compose(["experiment=peters2019/table2_mt", f"profile={profile}"])
    m = cfg.model
    return {"emb": int(m.emb_size), "hidden": int(m.hidden_size), "layers": int(m.enc_layers),
            "batch": int(cfg.task.batch_size)}


def make_batches(n: int, batch: int, vocab: int, min_len: int, max_len: int, seed: int) -> list[dict]:
    g = torch.Generator().manual_seed(seed)
    zipf = zipf_weights(vocab)                        # token id 3 + k has probability ∝ 1 / (k + 1)
    out = []
    for _ in range(n):
        sl = torch.randint(min_len, max_len + 1, (batch,), generator=g)
        tl = torch.randint(min_len, max_len + 1, (batch,), generator=g)
        src = torch.full((batch, int(sl.max())), PAD)
        tgt_in = torch.full((batch, int(tl.max()) + 1), PAD)
        tgt_out = torch.full_like(tgt_in, PAD)
        for b in range(batch):
            s = 3 + torch.multinomial(zipf, int(sl[b]), replacement=True, generator=g)
            t = 3 + torch.multinomial(zipf, int(tl[b]), replacement=True, generator=g)
            src[b, : len(s)] = s
            tgt_in[b, 0] = BOS
            tgt_in[b, 1: len(t) + 1] = t
            tgt_out[b, : len(t)] = t
            tgt_out[b, len(t)] = EOS
        out.append({"src": src, "src_len": sl, "tgt_in": tgt_in, "tgt_out": tgt_out,
                    "tokens": int((tgt_out != PAD).sum())})
    return out


def build(name: str, sizes: dict, vocab: int, seed: int) -> tuple[nn.Module, torch.optim.Optimizer]:
    torch.manual_seed(seed)
    model = Seq2Seq(vocab, vocab, src_pad_id=PAD, tgt_pad_id=PAD, bos_id=BOS, eos_id=EOS, emb_size=sizes["emb"],
                    hidden_size=sizes["hidden"], enc_layers=sizes["layers"], dec_layers=sizes["layers"],
                    dropout=0.0,
                    attention=lambda query_size, key_size: GlobalAttention(query_size, key_size,
                                                                           normalizer=normalizer(name)))
    model.train()
    return model, torch.optim.Adam(model.parameters(), lr=1e-3)


def step(model, opt, loss, batch) -> float:
    t0 = time.perf_counter()
    opt.zero_grad(set_to_none=True)
    logits = model(batch["src"], batch["src_len"], batch["tgt_in"])
    value = loss(logits.reshape(-1, logits.size(-1)), batch["tgt_out"].reshape(-1))
    value.backward()
    opt.step()
    return time.perf_counter() - t0


def run(args) -> str:
    torch.set_num_threads(args.threads)
    sizes = profile_sizes(args.profile)
    for k in ("emb", "hidden", "layers", "batch"):
        if getattr(args, k) is not None:
            sizes[k] = getattr(args, k)
    batches = make_batches(args.batches, sizes["batch"], args.vocab, args.min_len, args.max_len, args.seed)
    models = {name: (*build(name, sizes, args.vocab, args.seed), loss_fn(name)) for name in MAPPINGS}
    steps_of = {name: (lambda b, m=m: step(*m, b)) for name, m in models.items()}
    times, tokens = time_rounds(steps_of, batches, args.warmup, args.steps, args.seed)
    speed = speeds(times)
    paper = paper_speeds()
    rows = []
    for name in MAPPINGS:
        ratio = speed[name] / speed["softmax"]
        pr = (f"{paper[name]:,.0f} ({paper[name] / paper['softmax']:.2f})"
              if name in paper and "softmax" in paper else "–")
        rows.append(f"| {name} | {speed[name]:,.0f} | {ratio:.2f} | {pr} |")
    device = cpu_description()
    lines = [
        "# Figure 6 — training speed of the LSTM NMT model, target tokens/s",
        "",
        f"Peters, Niculae & Martins (2019), Figure 6. Profile: **{args.profile}** (model sizes of "
        f"`experiment=peters2019/table2_mt profile={args.profile}`). Benchmark `benchmarks/bench_mt_speed.py`, "
        f"run {datetime.date.today().isoformat()}.",
        "",
        f"- device: {device}; torch {torch.__version__}; torch threads: {torch.get_num_threads()}",
        f"- model: {sizes['layers']}-layer BiLSTM encoder / {sizes['layers']}-layer LSTM decoder, emb {sizes['emb']}, "
        f"hidden {sizes['hidden']}, vocabulary {args.vocab} (source and target), attention α = output α",
        f"- batches: {args.batches} synthetic batches of {sizes['batch']} sentence pairs, lengths "
        f"{args.min_len}–{args.max_len} tokens (+EOS), Zipf-distributed ids; {statistics.mean(tokens):.0f} target "
        f"tokens per batch on average; untrained models (sparsity of early training)",
        f"- timing: {args.warmup} warm-up steps per model, then {args.steps} rounds, each running every mapping on "
        "the same batch in a shuffled order; one step = forward + loss + backward + Adam; speed = 1 / median seconds "
        "per target token",
        "",
        "| mapping (attention and output) | target tokens/s | ratio to softmax | paper, GPU: words/s (ratio) |",
        "|---|---|---|---|",
        *rows,
        "",
        "Paper column: papers.yaml `figure6_training_speed_deen` (a single GTX 1080, IWSLT17 de-en; reference only). "
        "Ours is a CPU measurement: the ratios, not the speeds, are comparable.",
        "",
    ]
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--profile", default="cpu", choices=["smoke", "cpu", "paper"])
    ap.add_argument("--out", default=None, help="write the Markdown table here too "
                                                "(make bench-mt-speed: reports/peters2019/<profile>/figure6_speed.md)")
    ap.add_argument("--threads", type=int, default=int(os.environ.get("OMP_NUM_THREADS", "2") or 2))
    ap.add_argument("--vocab", type=int, default=8000, help="source and target vocabulary size")
    ap.add_argument("--batches", type=int, default=8)
    ap.add_argument("--min-len", type=int, default=8)
    ap.add_argument("--max-len", type=int, default=25)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    for k in ("emb", "hidden", "layers", "batch"):
        ap.add_argument(f"--{k}", type=int, default=None, help=f"override the profile's {k}")
    args = ap.parse_args(argv)
    text = run(args)
    print(text)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
