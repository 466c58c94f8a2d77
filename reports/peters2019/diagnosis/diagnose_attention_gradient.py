"""Issue 20: does sparse attention under a softmax output start late because its scorer gets no gradient?

Peters et al. (2019) inflection, cpu profile (medium, 10 languages, 160-d, Adam at the profile's lr). The grid's
sparse-attention runs under a softmax output start to learn epochs after softmax attention, and end attending to
~1.0 source position. Two explanations predict different things at the start of training:

* **starved scorer.** sparsemax / 1.5-entmax have a zero Jacobian wherever the support is one position
  (J = diag(s) - s s^T / |S| for sparsemax: 1 - 1 = 0 when |S| = 1, and the same for entmax's
  s^(2-α)-weighted form), so a decoder step that attends to one position sends no gradient to the attention
  scores. If most steps attend to one position early on, the scorer (``attention.linear_in``, W_a) learns only
  through the few steps with a wider support, and the model must first learn to attend without that signal.
  Prediction: a high share of one-position steps and a scorer gradient far below softmax attention's; and a
  scorer initialised to zero (W_a = 0: every score equal, so the support is the whole source at step 0) removes
  the late start.
* **slow optimisation only** (learning rate): the scorer gets a gradient of the same order, the one-position share
  stays low, and W_a = 0 changes nothing.

This trains the real model (the run's config, data and loss; not Lightning, because the point is to read the
scorer's gradient at every step) for ``--steps`` steps per arm, and every ``--every`` steps prints, on a fixed
dev sample of 100 words per language (the same words for every seed): the greedy word accuracy (the runs'
validation metric), and with teacher forcing the token accuracy and loss, the mean number of attended positions,
exp(attention entropy), the share of decoder steps attending to exactly one position, the gap between the two
highest attention scores, and the scorer's gradient norm (averaged over the steps since the last line) and its
ratio to the output layer's. ``--standardize TAU`` is the intervention that keeps the scores' scale fixed.

    python reports/peters2019/diagnosis/diagnose_attention_gradient.py --attn-alpha 2 --init zero --steps 1600 \
        --out diag.jsonl
    python reports/peters2019/diagnosis/diagnose_attention_gradient.py --summary diag.jsonl > diag.md  (a table per arm)
    python reports/peters2019/diagnosis/diagnose_attention_gradient.py --compare 1600 a.jsonl b.jsonl \
        > side_by_side.md                                                                      (a row per arm)
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

import torch

PROJECT = Path(__file__).resolve().parents[3]   # reports/peters2019/diagnosis/ -> the checkout


def config(attn_alpha: float, alpha: float, extra: list[str]):
    from hydra import compose, initialize_config_dir

    from sparselab.engine import resolvers

    resolvers.register()
    with initialize_config_dir(version_base="1.3", config_dir=str(PROJECT / "conf"), job_name="diagnose"):
        return compose(config_name="config", overrides=[
            "experiment=peters2019/table1_medium", "profile=cpu", f"mapping.alpha={alpha}",
            f"mapping.attn_alpha={attn_alpha}", "seed=0", *extra])


def dev_sample(val: dict, per_language: int, seed: int = 0) -> dict:
    """A fixed random sample of each language's dev words (the language is part of the source)."""
    return {lang: random.Random(seed).sample(val[lang], min(per_language, len(val[lang]))) for lang in sorted(val)}


def standardized(scores: torch.Tensor, tau: float) -> torch.Tensor:
    """Each row over its finite entries: (s - mean) / sd * tau; -inf (padding) stays -inf, a one-position row 0."""
    real = torch.isfinite(scores)
    n = real.sum(-1, keepdim=True).clamp(min=1)
    x = torch.where(real, scores, torch.zeros_like(scores))
    mean = x.sum(-1, keepdim=True) / n
    var = torch.where(real, (x - mean) ** 2, torch.zeros_like(x)).sum(-1, keepdim=True) / n
    return torch.where(real, (x - mean) / torch.sqrt(var + 1e-6) * tau, scores)


@torch.no_grad()
def measure(model, module, batches) -> dict:
    model.eval()
    loss = tokens = correct = steps = one = attended = gap = perplexity = 0.0
    gap_rows = 0
    words = module.make_metric()              # the runs' model-selection metric: greedy exact-match word accuracy
    scores: list[torch.Tensor] = []           # the attention scores of each decoder step, as the normalizer got them
    hook = model.attention.normalizer.register_forward_hook(lambda mod, args, out: scores.append(args[0]))
    for b in batches:
        words.update(module.decode(b), b["tgt_out"])
        scores.clear()
        logits, attn = model(b["src"], b["src_len"], b["tgt_in"], return_attn=True)
        gold = b["tgt_out"]
        real = gold != model.tgt_pad_id
        # the gap between the two highest scores: sparsemax attends to one position exactly when it is >= 1
        top2 = torch.stack(scores, 1).topk(2, dim=-1).values            # (B,T,2)
        two = real & torch.isfinite(top2[..., 1])                        # steps whose source has 2+ positions
        gap += float((top2[..., 0] - top2[..., 1])[two].sum())
        gap_rows += int(two.sum())
        # exp(entropy): how many positions the attention spreads over, for dense and sparse weights alike
        ent = -(attn * attn.clamp_min(1e-30).log()).sum(-1)
        perplexity += float(ent.exp()[real].sum())
        loss += float(module.loss(b, reduction="sum"))
        tokens += float(real.sum())
        correct += float(((logits.argmax(-1) == gold) & real).sum())
        support = (attn > 0).sum(-1)[real].float()           # attended source positions per real target step
        steps += support.numel()
        one += float((support == 1).sum())
        attended += float(support.sum())
    hook.remove()
    model.train()
    return {"dev_word_acc": float(words.compute()), "dev_tok_acc": 100 * correct / tokens, "dev_loss": loss / tokens,
            "attended": attended / steps, "attention_perplexity": perplexity / steps,
            "one_position_share": one / steps, "top_score_gap": gap / max(gap_rows, 1)}


COLUMNS = (("step", "step", "{:d}"), ("epoch", "epoch", "{:.1f}"), ("dev_word_acc", "dev word acc (greedy)", "{:.1f}"),
           ("dev_tok_acc", "dev token acc", "{:.1f}"), ("dev_loss", "dev loss", "{:.3f}"),
           ("attended", "attended positions", "{:.2f}"), ("attention_perplexity", "exp(attention entropy)", "{:.2f}"),
           ("one_position_share", "share at 1 position", "{:.2f}"), ("top_score_gap", "top-2 score gap", "{:.2f}"),
           ("scorer_grad", "scorer grad norm", "{:.4f}"), ("scorer_to_output_grad", "scorer / output grad", "{:.3f}"))


def arm_name(r: dict, with_lr: bool = False) -> str:
    return (f"output α {r['alpha']:g}, attention α {r['attn_alpha']:g}, scorer init {r['init']}"
            + (f", lr {r['lr']:g}" if with_lr else "")
            + (f", scores standardised to sd {r['standardize']:g}" if r.get("standardize") is not None else "")
            + (f", {' '.join(r['overrides'])}" if r["overrides"] else ""))


def measurements(path: Path) -> list[dict]:
    """The stored measurements of a file written with ``--out``, one per line."""
    return [json.loads(line) for line in path.read_text().splitlines()]


def cells(r: dict, columns) -> str:
    """A measurement's cells for ``columns`` ((key, header, format) triples); '–' where it was not measured."""
    return " | ".join("–" if r.get(k) is None else f.format(r[k]) for k, _, f in columns)


def summary(path: Path) -> str:
    """Markdown: one table per arm, in the order the arms were first written."""
    arms: dict[str, list[dict]] = {}
    for r in measurements(path):
        arms.setdefault(arm_name(r, with_lr=True), []).append(r)
    out = [f"# Issue 20 diagnosis: {path.stem.replace('_', ' ')}", "",
           "Written by `python reports/peters2019/diagnosis/diagnose_attention_gradient.py "
           f"--summary {path.name}` from the measurements "
           f"in `{path.name}` (one JSON line each, with its arm's settings). Each arm was run as `python "
           "reports/peters2019/diagnosis/diagnose_attention_gradient.py --attn-alpha A [--alpha B] [--init zero] [--standardize TAU] --steps 1600 "
           f"--every 100 --out {path.name}` (cpu profile, medium, 10 languages, seed 0 unless the arm names another, 1 thread). The dev sample "
           "is 100 words per language; 'attended positions' counts nonzero weights, so softmax attention always "
           "counts the whole source. Scorer = the attention's W_a; its gradient norm is averaged over the steps "
           "since the previous row.", ""]
    for key, rows in arms.items():
        out += [f"### {key}", "", "| " + " | ".join(c[1] for c in COLUMNS) + " |",
                "|" + "---|" * len(COLUMNS)]
        for r in sorted(rows, key=lambda r: r["step"]):
            out.append(f"| {cells(r, COLUMNS)} |")
        out.append("")
    return "\n".join(out)


COMPARED = (("dev_word_acc", "dev word acc (greedy)", "{:.1f}"), ("dev_tok_acc", "dev token acc", "{:.1f}"),
            ("attended", "attended positions", "{:.2f}"), ("one_position_share", "share at 1 position", "{:.2f}"),
            ("top_score_gap", "top-2 score gap", "{:.2f}"))


def compare(paths: list[Path], step: int) -> str:
    """Markdown: one row per arm at ``step``, across measurement files (an arm met twice, e.g. the same settings in
    two files, is shown once: the first file's), ordered by attention α, standardisation, output α."""
    arms: dict[str, dict] = {}
    for path in paths:
        for r in measurements(path):
            if r["step"] == step:
                arms.setdefault(arm_name(r), {**r, "file": path.name})
    order = sorted(arms.values(), key=lambda r: (r["attn_alpha"], r.get("standardize") is not None,
                                                 r.get("standardize") or 0, r["overrides"], r["alpha"]))
    out = [f"# Issue 20 diagnosis: the arms side by side at step {step:,}", "",
           f"Written by `python reports/peters2019/diagnosis/diagnose_attention_gradient.py --compare {step} "
           + " ".join(p.name for p in paths) + "` from the stored measurements (each arm's own table is in the "
           "file named in its row). Same settings as there: cpu profile, medium, 10 languages, 1 thread, the dev "
           "sample of 100 words per language; `–`: not measured by that file's version of the script.", "",
           "| arm | " + " | ".join(c[1] for c in COMPARED) + " | file |", "|---|" + "---|" * (len(COMPARED) + 1)]
    for r in order:
        out.append(f"| {arm_name(r)} | {cells(r, COMPARED)} | {r['file']} |")
    return "\n".join(out)


def main(argv=None) -> int:
    if argv is None and len(sys.argv) == 3 and sys.argv[1] == "--summary":
        print(summary(Path(sys.argv[2])))
        return 0
    if argv is None and len(sys.argv) >= 4 and sys.argv[1] == "--compare":
        print(compare([Path(a) for a in sys.argv[3:]], int(sys.argv[2])))
        return 0
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--attn-alpha", type=float, required=True)
    p.add_argument("--alpha", type=float, default=1.0, help="output α (1 = softmax output, the collapsing case)")
    p.add_argument("--init", choices=("default", "zero"), default="default",
                   help="zero: the attention scorer W_a starts at 0 (all scores equal, full support at step 0)")
    p.add_argument("--standardize", type=float, default=None, metavar="TAU",
                   help="the intervention: each row of attention scores standardised over its source positions "
                        "(mean 0, standard deviation TAU) before the normalizer, so their scale cannot grow; "
                        "masked positions stay -inf. (Bounding each score by C*tanh(s/C) instead saturated: the "
                        "top scores tied at C and attention went uniform.)")
    p.add_argument("--steps", type=int, default=800)
    p.add_argument("--every", type=int, default=50)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--out", type=Path, required=True, help="JSON lines, one per measurement (appended)")
    p.add_argument("overrides", nargs="*", help="more Hydra overrides, e.g. task.lr=3e-3")
    a = p.parse_args(argv)

    from sparselab.data import inflection_data
    from sparselab.models.build import model_config
    from sparselab.tasks import settings
    from sparselab.training.inflection_module import InflectionModule

    torch.set_num_threads(a.threads)
    cfg = config(a.attn_alpha, a.alpha, a.overrides)
    torch.manual_seed(int(cfg.seed))
    with tempfile.TemporaryDirectory() as tmp:
        data = inflection_data.prepare(settings.inflection_data(cfg), Path(tmp) / "vocab.json",
                                       int(cfg.task.batch_size), int(cfg.task.decode_batch_size), int(cfg.seed),
                                       settings.loader_options(cfg))
    model = settings.build_model(model_config(settings.model_container(cfg), data.src, data.tgt))
    if a.init == "zero":
        torch.nn.init.zeros_(model.attention.linear_in.weight)
    if a.standardize is not None:
        model.attention.normalizer.register_forward_pre_hook(lambda mod, args: (standardized(args[0], a.standardize),))
    module = InflectionModule(model, a.alpha, lr=float(cfg.task.lr))
    _, dev_dl = inflection_data.loader(dev_sample(data.val, 100), data.src, data.tgt, 250)
    dev = list(dev_dl)
    opt = torch.optim.Adam(model.parameters(), lr=float(cfg.task.lr))
    scorer, out_layer = model.attention.linear_in.weight, model.out.weight
    arm = {"attn_alpha": a.attn_alpha, "alpha": a.alpha, "init": a.init, "lr": float(cfg.task.lr),
           "overrides": a.overrides, **({"standardize": a.standardize} if a.standardize is not None else {})}
    step, g_scorer, g_out, n_grad, t0 = 0, 0.0, 0.0, 0, time.perf_counter()

    def emit():
        row = {**arm, "step": step, "epoch": step / len(data.train_dl), **measure(model, module, dev),
               "scorer_grad": g_scorer / max(n_grad, 1), "scorer_to_output_grad": g_scorer / g_out if g_out else None,
               "seconds": round(time.perf_counter() - t0, 1)}
        with a.out.open("a") as f:
            f.write(json.dumps(row) + "\n")
        print(" ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}" for k, v in row.items()), flush=True)

    emit()
    model.train()
    while step < a.steps:
        for batch in data.train_dl:
            opt.zero_grad(set_to_none=True)
            module.loss(batch).backward()
            g_scorer += float(scorer.grad.norm()) if scorer.grad is not None else 0.0
            g_out += float(out_layer.grad.norm())
            n_grad += 1
            opt.step()
            step += 1
            if step % a.every == 0:
                emit()
                g_scorer, g_out, n_grad = 0.0, 0.0, 0
            if step >= a.steps:
                break
    return 0


if __name__ == "__main__":
    sys.exit(main())
