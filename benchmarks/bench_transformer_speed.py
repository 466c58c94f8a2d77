"""Correia, Niculae & Martins (2019): training speed of the Transformer with softmax, 1.5-entmax and α-entmax
(a learned α per head) attention, in target tokens per second, as ratios to softmax (the paper: 0.90 and 0.75).

    OMP_NUM_THREADS=2 .venv/bin/python benchmarks/bench_transformer_speed.py --profile cpu [--out FILE] [--quick]
    make bench-transformer-speed PROFILE=cpu      # writes reports/correia2019/<profile>/speed.md
    python pipelines/correia2019.py --benchmark   # (make reproduce-correia2019) into the report folder it builds

Progress lines go to stderr ("[bench] ..."), the Markdown to stdout.

A benchmark, never a timed test. Method:

* One process, one model per attention normalizer (``mapping=softmax|entmax15|alpha_entmax``), each built from
  the composed config of ``experiment=correia2019/table1_bleu profile=<profile> mapping=<m>`` (model sizes,
  learning rate, warm-up, batch tokens), then given the softmax model's weights, so all three start from the
  same weights (α-entmax adds its own ``a`` per head). The output layer is softmax (cross-entropy) in all three,
  as in the paper.
* One training step is the one of training: ``TransformerModule.loss`` (forward with teacher forcing, loss),
  backward, the module's own optimiser step (Adam (0.9, 0.98), the α's in the same optimiser) and schedule step.
* The same batches for all three: ``--pairs`` synthetic sentence pairs (source lengths uniform in
  [``--min-len``, ``--max-len``], target length the source length × U(0.8, 1.2), Zipf-distributed token ids
  over a ``--vocab`` vocabulary, by default the pair's BPE merges), batched like real training by
  :class:`sparselab.data.text.TokenBucketBatchSampler` into batches of at most ``task.batch_tokens`` padded
  tokens; the first ``--batches`` batches are used. The models are untrained (the sparsity of early training).
* Timing (``training_speed.time_rounds``): ``--warmup`` steps per model (torch.compile of the sparse kernels;
  by default one on every batch, so no batch shape is compiled for while timed), then ``--steps`` rounds
  running every model on the same batch in a shuffled order; speed = 1 / median seconds per target token;
  ratio = speed / softmax speed.
* ``--attention-impl`` (``model.attention_impl``): ``auto`` (the default: fused in CUDA training, materialised on
  CPU), ``fused`` (the Triton α-entmax kernel, softmax by ``scaled_dot_product_attention``), ``materialized``, or
  ``both``: every normalizer twice, materialised and fused, each ratio to the softmax of its own implementation
  and, in one more column, to the fused softmax (SDPA: what a user's own Transformer would run).
* Where α-entmax is slower than the paper's ratio (``--breakdown auto``; ``always`` / ``never``), torch.profiler
  runs ``--profile-steps`` steps of every model on the same batches and ``speed.md`` says where the time goes:
  self time grouped into normalizer forward, normalizer backward (with the α-gradient), matrix products, Adam
  and the rest, and α-entmax's top operators.
"""
from __future__ import annotations

import argparse
import contextlib
import datetime
import os
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

# Kineto, torch.profiler's C++ backend, prints "USDT:<time> ... SyncActivityProfilerHandler.cpp:52] profiler_start"
# (and profiler_stop) to stderr around every profile at every KINETO_LOG_LEVEL up to 5 (tried: -1, 3, 4, 5);
# 6 drops them. It hides Kineto's own error lines too; the breakdown's numbers come back through Python either
# way. Read when the profiler first starts, so set here, before torch is imported.
os.environ.setdefault("KINETO_LOG_LEVEL", "6")

import torch
from omegaconf import OmegaConf

sys.path.insert(0, str(Path(__file__).resolve().parent))
from training_speed import compose, device_description, progress, speeds, time_rounds, zipf_weights

from sparselab.data.text import PairDataset, TokenBucketBatchSampler, collate, to_device
from sparselab.engine.devices import set_matmul_precision
from sparselab.tasks.settings import build_model
from sparselab.reports.reference import reference
from sparselab.training.transformer_module import TransformerModule

EXPERIMENT = "correia2019/table1_bleu"
PAD, BOS, EOS = 0, 1, 2                   # id 3 is left to an unknown symbol, as in a real vocabulary
FIRST_TOKEN = 4
MAPPINGS = ("softmax", "entmax15", "alpha_entmax")          # conf/mapping, also the papers.yaml keys
LABELS = {"softmax": "softmax", "entmax15": "1.5-entmax", "alpha_entmax": "α-entmax (learned α per head)"}
MATMULS = frozenset({"aten::mm", "aten::bmm", "aten::addmm", "aten::baddbmm", "aten::addbmm", "aten::addmv",
                     "aten::mv", "aten::dot", "aten::_addmm_activation"})
GROUPS = ("normalizer forward", "normalizer backward (incl. α-gradient)", "fused attention (kernel or SDPA)",
          "matrix products", "Adam step", "rest")
# the fused attention's own events: its autograd Function (CPU side), its Triton kernels (device side), SDPA
FUSED_MARKS = ("EntmaxAttentionFunction", "entmax_attention_", "scaled_dot_product", "flash_attention",
               "efficient_attention", "fmha")
NORMALIZER_RANGE = "sparselab::attention_normalizer"
# --warmup None: one step on every batch, so that no batch shape is first seen (and compiled for) while timed
IMPLS = {"auto": ("auto",), "fused": ("fused",), "materialized": ("materialized",),
         "both": ("materialized", "fused")}
QUICK = {"pairs": 1024, "batches": 2, "warmup": None, "steps": 2, "profile_steps": 1}
DEFAULTS = {"pairs": 4096, "batches": 8, "warmup": None, "steps": 20, "profile_steps": 3}


def paper_ratios() -> dict[str, float]:
    """papers.yaml ``correia2019.training_speed_vs_softmax`` (the paper's ratios to softmax; {} if absent)."""
    vals = reference("correia2019").get("training_speed_vs_softmax", {}) or {}
    return {k: float(v) for k, v in vals.items() if v is not None}


# ------------------------------------------------------------------ configs, data, models
def configs(profile: str) -> dict:
    return {m: compose([f"experiment={EXPERIMENT}", f"profile={profile}", f"mapping={m}"]) for m in MAPPINGS}


PRECISIONS = ("32-true", "bf16-mixed")      # --precision: bf16-mixed is the paper profile's on a GPU


def matmul_setup(cfg, device: torch.device) -> None:
    """The profile's CUDA matmul precision, set as a training job sets it (``sparselab.engine.devices``)."""
    if device.type == "cuda":
        set_matmul_precision(cfg)


def default_vocab(cfg) -> int:
    """The pair's number of joint BPE merges, a stand-in for the size of the joint vocabulary it gives."""
    return int(cfg.data.pairs[str(cfg.data.pair)].bpe_merges)


def make_pairs(n: int, vocab: int, min_len: int, max_len: int, seed: int) -> PairDataset:
    if not 1 <= min_len <= max_len:
        raise ValueError(f"--min-len {min_len} / --max-len {max_len}: need 1 ≤ min ≤ max")
    if vocab <= FIRST_TOKEN:
        raise ValueError(f"--vocab {vocab}: must exceed the {FIRST_TOKEN} special ids")
    g = torch.Generator().manual_seed(seed)
    src_len = torch.randint(min_len, max_len + 1, (n,), generator=g)
    ratio = 0.8 + 0.4 * torch.rand(n, generator=g)
    tgt_len = (src_len * ratio).round().long().clamp(1, max_len)
    zipf = zipf_weights(vocab + 3 - FIRST_TOKEN)                  # ids FIRST_TOKEN .. vocab - 1
    ids = (FIRST_TOKEN + torch.multinomial(zipf, int(src_len.sum() + tgt_len.sum()), replacement=True,
                                           generator=g)).tolist()
    src, tgt, at = [], [], 0
    for s, t in zip(src_len.tolist(), tgt_len.tolist()):
        src.append(ids[at: at + s])
        tgt.append(ids[at + s: at + s + t] + [EOS])
        at += s + t
    return PairDataset(src, tgt)


def make_batches(ds: PairDataset, batch_tokens: int, n: int, seed: int, device) -> list[dict]:
    """The first ``n`` batches that training's token-bucketing sampler makes of ``ds``."""
    sampler = TokenBucketBatchSampler(ds, batch_tokens, seed=seed)
    out = []
    for idx in list(sampler)[:n]:
        b = collate([ds[i] for i in idx], PAD, PAD, BOS)
        b["tokens"] = int((b["tgt_out"] != PAD).sum())
        out.append(to_device(b, device))
    return out


def build(cfgs: dict, vocab: int, seed: int, device, attention_impl: str = "auto") -> dict[str, TransformerModule]:
    """One TransformerModule per mapping, all with the softmax model's initial weights."""
    modules = {}
    for name, cfg in cfgs.items():
        mcfg = OmegaConf.to_container(cfg.model, resolve=True)
        mcfg.update(src_vocab=vocab, tgt_vocab=vocab, src_pad_id=PAD, tgt_pad_id=PAD, bos_id=BOS, eos_id=EOS,
                    attention_impl=attention_impl)
        torch.manual_seed(seed)
        model = build_model(mcfg)
        if modules:
            missing, unexpected = model.load_state_dict(modules["softmax"].model.state_dict(), strict=False)
            if unexpected or any(not k.endswith(".a") for k in missing):
                raise RuntimeError(f"{name}: the models differ beyond the learned α's: {unexpected or missing}")
        tc = cfg.task
        module = TransformerModule(model, float(cfg.mapping.alpha), lr=float(tc.lr),
                                   warmup_steps=int(tc.warmup_steps), alpha_lr=tc.get("alpha_lr"))
        modules[name] = module.to(device).train()
    return modules


class Trainer:
    """One training step of a module, timed: loss, backward, optimiser step, schedule step."""

    def __init__(self, module: TransformerModule, device: torch.device, precision: str = "32-true"):
        opt = module.configure_optimizers()
        self.module, self.opt, self.sched = module, opt["optimizer"], opt["lr_scheduler"]["scheduler"]
        self.device = device
        # bf16-mixed: the forward and loss under bf16 autocast, as Lightning's "bf16-mixed" does (weights, gradients
        # and Adam stay float32; the mappings compute half-precision input in float32)
        self.autocast = (torch.autocast(device.type, dtype=torch.bfloat16) if precision == "bf16-mixed"
                         else contextlib.nullcontext())

    def _sync(self):
        if self.device.type == "cuda":
            torch.cuda.synchronize(self.device)

    def step(self, batch: dict) -> float:
        self._sync()
        t0 = time.perf_counter()
        self.opt.zero_grad(set_to_none=True)
        with self.autocast:
            loss = self.module.loss(batch)
        loss.backward()
        self.opt.step()
        self.sched.step()
        self._sync()
        return time.perf_counter() - t0


# ------------------------------------------------------------------ where the time goes
def normalizers(model) -> list[torch.nn.Module]:
    return ([layer.self_attn.normalizer for layer in model.encoder]
            + [m for layer in model.decoder for m in (layer.self_attn.normalizer, layer.context_attn.normalizer)])


@contextlib.contextmanager
def marked_normalizers(model, backward_nodes: set[str]):
    """Mark every attention normalizer's forward as a profiler range and collect the autograd node names of
    its outputs (their backward, which computes the α-gradient too, is then found by name)."""
    ranges = []

    def enter(mod, args):
        rf = torch.profiler.record_function(NORMALIZER_RANGE)
        rf.__enter__()
        ranges.append(rf)

    def leave(mod, args, out):
        ranges.pop().__exit__(None, None, None)
        if out.grad_fn is not None:
            backward_nodes.add(out.grad_fn.name())

    handles = [h for m in normalizers(model) for h in (m.register_forward_pre_hook(enter),
                                                       m.register_forward_hook(leave))]
    try:
        yield
    finally:
        for h in handles:
            h.remove()


def group_of(event, backward_nodes: set[str]) -> str:
    e = event
    while e is not None:
        if e.name == NORMALIZER_RANGE:
            return GROUPS[0]
        if e.name.startswith("autograd::engine::evaluate_function: ") and e.name.split(": ", 1)[1] in backward_nodes:
            return GROUPS[1]
        if any(mark in e.name for mark in FUSED_MARKS):
            return GROUPS[2]
        if e.name.startswith("Optimizer."):
            return GROUPS[4]
        e = e.cpu_parent
    return GROUPS[3] if event.name in MATMULS else GROUPS[5]


def breakdown(trainer: Trainer, batches: list[dict], steps: int, device: torch.device) -> dict:
    """Profile ``steps`` training steps: milliseconds per step by group and by operator (self time: CPU time,
    or device time on CUDA), and the calls per step of each operator."""
    acts = [torch.profiler.ProfilerActivity.CPU]
    if device.type == "cuda":
        acts.append(torch.profiler.ProfilerActivity.CUDA)
    nodes: set[str] = set()
    with marked_normalizers(trainer.module.model, nodes), torch.profiler.profile(activities=acts) as prof:
        for i in range(steps):
            trainer.step(batches[i % len(batches)])
    attr = "self_device_time_total" if device.type == "cuda" else "self_cpu_time_total"
    groups: dict[str, float] = defaultdict(float)
    ops: dict[tuple[str, str], float] = defaultdict(float)        # (operator, group) -> ms per step
    calls: Counter = Counter()
    for ev in prof.events():
        t = getattr(ev, attr) / 1e3 / steps                        # µs in total -> ms per step
        if t <= 0:
            continue
        key = (ev.name, group_of(ev, nodes))
        groups[key[1]] += t
        ops[key] += t
        calls[key] += 1
    return {"groups": dict(groups), "ops": dict(ops), "calls": {k: v / steps for k, v in calls.items()},
            "time": "device" if device.type == "cuda" else "CPU"}


def label(key: str) -> str:
    """A model's row label: its normalizer, and its attention implementation in ``--attention-impl both``."""
    mapping, _, impl = key.partition("@")
    return LABELS[mapping] + (f", {impl}" if impl else "")


def softmax_of(key: str) -> str:
    """The softmax model of the same attention implementation as model ``key``."""
    impl = key.partition("@")[2]
    return "softmax" + (f"@{impl}" if impl else "")


def breakdown_lines(prof: dict[str, dict], top: int, alpha_key: str = "alpha_entmax") -> list[str]:
    names = list(prof)
    head = "| part | " + " | ".join(f"{label(n)}: ms/step (share)" for n in names) + " |"
    lines = [head, "|---|" + "---|" * len(names)]
    totals = {n: sum(prof[n]["groups"].values()) for n in names}
    for g in GROUPS:
        cells = [f"{prof[n]['groups'].get(g, 0.0):,.1f} ({prof[n]['groups'].get(g, 0.0) / totals[n]:.0%})"
                 for n in names]
        lines.append(f"| {g} | " + " | ".join(cells) + " |")
    lines.append("| **total** | " + " | ".join(f"**{totals[n]:,.1f}**" for n in names) + " |")
    a = prof[alpha_key]
    lines += ["", f"Top {top} operators of {label(alpha_key)} by self {a['time']} time:", "",
              "| operator | part | ms/step | share | calls/step |", "|---|---|---|---|---|"]
    for (op, group), t in sorted(a["ops"].items(), key=lambda kv: -kv[1])[:top]:
        lines.append(f"| `{op}` | {group} | {t:,.1f} | {t / totals[alpha_key]:.0%} | "
                     f"{a['calls'][op, group]:g} |")
    return lines


# ------------------------------------------------------------------ the benchmark
def run(args) -> str:
    device = torch.device(args.device)
    torch.set_num_threads(args.threads)
    progress(f"training speed, profile {args.profile}, on {args.device}: composing the three configs")
    cfgs = configs(args.profile)
    cfg = cfgs["softmax"]
    vocab = args.vocab or default_vocab(cfg)
    max_len = args.max_len or int(cfg.data.max_len)
    batch_tokens = args.batch_tokens or int(cfg.task.batch_tokens)
    ds = make_pairs(args.pairs, vocab, args.min_len, max_len, args.seed)
    batches = make_batches(ds, batch_tokens, args.batches, args.seed, device)
    matmul_setup(cfg, device)
    impls = IMPLS[args.attention_impl]
    keyed = len(impls) > 1          # --attention-impl both: keys "mapping@impl"
    progress(f"{len(batches)} batches of {args.pairs} synthetic pairs; building the models")
    trainers = {(f"{name}@{impl}" if keyed else name): Trainer(m, device, args.precision)
                for impl in impls for name, m in build(cfgs, vocab, args.seed, device, impl).items()}
    times, tokens = time_rounds({n: t.step for n, t in trainers.items()}, batches, args.warmup, args.steps,
                                args.seed, say=progress)
    speed = speeds(times)
    # each model against the softmax of its own implementation; with both, also against SDPA softmax
    ratio = {n: speed[n] / speed[softmax_of(n)] for n in trainers}
    sdpa = speed.get("softmax@fused")
    paper = paper_ratios()

    def paper_cell(key: str) -> str:
        mapping = key.partition("@")[0]
        return "1 (reference)" if mapping == "softmax" else f"{paper[mapping]:.2f}" if mapping in paper else "–"

    rows = [f"| {label(n)} | {speed[n]:,.0f} | {ratio[n]:.2f} | "
            + (f"{speed[n] / sdpa:.2f} | " if keyed else "") + f"{paper_cell(n)} |" for n in trainers]
    alpha_key = "alpha_entmax@fused" if keyed else "alpha_entmax"
    m = cfg.model
    n_alpha = sum(p.numel() for k, p in trainers[alpha_key].module.model.named_parameters() if k.endswith(".a"))
    sizes = [len(b["src"]) for b in batches]
    lines = [
        "# Training speed of the adaptively sparse Transformer, target tokens/s",
        "",
        f"Correia, Niculae & Martins (2019). Profile: **{args.profile}** (model sizes and training settings of "
        f"`experiment={EXPERIMENT} profile={args.profile}`). Benchmark `benchmarks/bench_transformer_speed.py`"
        f"{' --quick' if args.quick else ''}, run {datetime.date.today().isoformat()}.",
        "",
        f"- machine: {device_description(device)}; torch {torch.__version__}; "
        f"torch threads: {torch.get_num_threads()}; precision {args.precision}; attention "
        f"`model.attention_impl={args.attention_impl}`",
        f"- model: Transformer, {m.enc_layers} encoder / {m.dec_layers} decoder layers, {m.heads} heads, "
        f"d {m.d_model}, FF {m.d_ff}, dropout {m.dropout}, attention dropout {m.attn_dropout}; joint vocabulary {vocab} "
        f"(tied output: {m.tie_output}); the normalizer in every attention block, softmax output (cross-entropy) in "
        f"all three; α-entmax learns {n_alpha} α's",
        "- training step: `TransformerModule.loss` + backward + Adam (β = (0.9, 0.98), the α's in the same "
        "optimiser) + schedule step, as in training; all models start from the same weights",
        f"- batches: the first {len(batches)} token-bucketed batches (≤ {batch_tokens} padded tokens, "
        f"`TokenBucketBatchSampler`) of {args.pairs} synthetic pairs, source lengths {args.min_len}–{max_len}, "
        f"target = source × U(0.8, 1.2) (+EOS), Zipf-distributed ids; {min(sizes)}–{max(sizes)} pairs and "
        f"{statistics.mean(tokens):.0f} target tokens per batch on average; untrained models (early-training "
        "sparsity)",
        f"- timing: {args.warmup} warm-up steps per model (torch.compile), then {args.steps} rounds, each running every "
        "model on the same batch in a shuffled order; speed = 1 / median seconds per target token",
        "",
        "| attention normalizer | target tokens/s | ratio to softmax | "
        + ("ratio to fused softmax (SDPA) | " if keyed else "") + "paper: ratio to softmax |",
        "|---|---|---|---|" + ("---|" if keyed else ""),
        *rows,
        "",
        "Paper column: papers.yaml `correia2019.training_speed_vs_softmax` (Correia's thesis; GPU training, reference "
        "only). Ours runs on the machine above: the ratios, not the speeds, are comparable.",
        "",
    ]
    limit = paper.get("alpha_entmax")
    slow = limit is not None and ratio[alpha_key] < limit
    if args.breakdown == "always" or (args.breakdown == "auto" and slow):
        progress(f"where the time goes: torch.profiler over {args.profile_steps} step(s) of each model")
        prof = {n: breakdown(t, batches, args.profile_steps, device) for n, t in trainers.items()}
        why = (f"{label(alpha_key)} runs at {ratio[alpha_key]:.2f}× softmax, below the paper's {limit:.2f}×"
               if slow else f"{label(alpha_key)} runs at {ratio[alpha_key]:.2f}× softmax")
        lines += [
            "## Where the time goes",
            "",
            f"{why}. torch.profiler over {args.profile_steps} training step(s) of each model on the same batches, "
            f"self {next(iter(prof.values()))['time']} time per step grouped by where it is spent: inside the attention "
            "normalizers' forward, in their backward (the autograd node of their output, which also computes the "
            "α-gradient), matrix products (`mm`/`bmm`/`addmm` outside the normalizers: projections, feed-forward, "
            "attention scores and context, output layer, forward and backward), Adam, and the rest (element-wise "
            "ops, layer norm, embeddings, the loss, masking); under `--attention-impl fused` the attention kernels "
            "(the Triton α-entmax passes, SDPA) are a group of their own. Profiler overhead included: compare the "
            "shares.",
            "",
            *breakdown_lines(prof, args.top, alpha_key),
            "",
        ]
    elif args.breakdown == "auto":
        lines += [f"{label(alpha_key)} runs at {ratio[alpha_key]:.2f}× softmax, not below the paper's "
                  f"{limit if limit is not None else '(absent)'}×: no profile (`--breakdown always` gives one).", ""]
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--profile", default="cpu", choices=["smoke", "cpu", "paper"])
    ap.add_argument("--out", default=None,
                    help="write the Markdown here too (make bench-transformer-speed: reports/correia2019/<profile>/speed.md)")
    ap.add_argument("--quick", action="store_true",
                    help="a fast check: " + ", ".join(f"--{k.replace('_', '-')} {v}" for k, v in QUICK.items()
                                                      if v is not None) + " unless given")
    ap.add_argument("--device", default="cpu", help="cpu, cuda[:N], or auto (cuda when there is a GPU)")
    ap.add_argument("--attention-impl", default="auto", choices=list(IMPLS),
                    help="model.attention_impl; both: materialised and fused side by side")
    ap.add_argument("--precision", default="32-true", choices=PRECISIONS,
                    help="bf16-mixed: forward and loss under bf16 autocast (the paper profile on a GPU)")
    ap.add_argument("--threads", type=int, default=int(os.environ.get("OMP_NUM_THREADS", "2") or 2))
    ap.add_argument("--vocab", type=int, default=None, help="joint vocabulary size (default: the pair's BPE merges)")
    ap.add_argument("--batch-tokens", type=int, default=None, help="override task.batch_tokens")
    ap.add_argument("--min-len", type=int, default=3)
    ap.add_argument("--max-len", type=int, default=None, help="longest source (default: data.max_len)")
    for k, v in DEFAULTS.items():
        ap.add_argument(f"--{k.replace('_', '-')}", type=int, default=None,
                        help=f"default {v if v is not None else 'one step per batch'}")
    ap.add_argument("--breakdown", default="auto", choices=["auto", "always", "never"],
                    help="profile where the time goes: auto = when α-entmax is slower than the paper's ratio")
    ap.add_argument("--top", type=int, default=12, help="operators listed in the breakdown")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    for k, v in DEFAULTS.items():
        if getattr(args, k) is None:
            setattr(args, k, QUICK[k] if args.quick else v)
    if args.warmup is None:
        args.warmup = args.batches
    if args.device == "auto":
        args.device = "cuda" if torch.cuda.is_available() else "cpu"
    if args.device.startswith("cuda") and not torch.cuda.is_available():
        ap.error(f"--device {args.device}: no CUDA device here")
    text = run(args)
    print(text)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text)
        progress(f"written {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
