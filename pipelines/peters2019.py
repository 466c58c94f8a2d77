"""Peters, Niculae & Martins (2019), "Sparse Sequence-to-Sequence Models": morphological inflection.

Usage: ``python pipelines/peters2019.py --profile {smoke,cpu,paper} [--out DIR] [--report-only] [--jobs N]``

Artefacts of the paper reproduced here (inflection part):
  * Table 1   – word accuracy on CoNLL–SIGMORPHON 2018 task 1, output α × attention α ∈ {1,1.5,2}²,
                high and medium settings, mean of the seeds ("avg") and their ensemble ("ens");
  * §5 text   – share of inputs whose whole probability mass is on one sequence, and share for which
                beam search (size 5) is exact, for the best configuration (81%/87% high, 66%/79% medium);
  * Figure 1  – every output with nonzero probability for a few inputs (examples.md);
  * sparsity  – attended source positions and output support size; training speed relative to softmax.

Runs (resumable: finished jobs are skipped) the sweeps ``peters2019/table1_<setting>`` with the
profile's seeds and, where the profile ensembles, ``peters2019/ensemble_<setting>``; then writes
``reports/peters2019/<profile>/`` from the run records only.
"""
from __future__ import annotations

import argparse
import csv
import json
import sys
from collections import defaultdict
from pathlib import Path
from statistics import mean

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import (choose_profile, launcher_overrides, md_table, records, reference, report_dir, sweep,  # noqa: E402
                    write_configs, write_index)

PAPER = "peters2019"
ALPHAS = (1.0, 1.5, 2.0)
SETTINGS = ("high", "medium")
NOT_RUN = "not run in this profile"

# What each profile runs. Sizes/steps live in the configs (conf/{data,model,task}, experiment files).
PLAN = {
    "smoke": {"settings": ["medium"], "seeds": [0, 1], "ensemble": True, "launcher": None},
    "cpu": {"settings": ["medium"], "seeds": [0], "ensemble": False, "launcher": "parallel"},
    "paper": {"settings": ["high", "medium"], "seeds": [0, 1, 2], "ensemble": True, "launcher": None},
}

ARTIFACTS = [
    ("Table 1", "table1.md", "accuracy, output α × attention α, high/medium, avg of seeds and ensemble, vs paper"),
    ("Sparsity and exactness", "sparsity.md",
     "single-sequence and exact-beam shares vs paper; attended positions and support size; training speed"),
    ("Figure 1-style examples", "examples.md", "every nonzero-probability output of a few validation inputs"),
    ("Per-language accuracy", "per_language.csv", "accuracy and edit distance per language and configuration"),
    ("Accuracy by α", "accuracy_by_alpha.png", "macro accuracy against attention α, one line per output α"),
    ("Support-size histogram", "support_histogram.png", "output support size per target step (teacher forcing)"),
    ("Run configs", "runs.jsonl", "config, hash and metrics of every run used"),
]


def key(rec) -> tuple[float, float]:
    m = rec["config"]["mapping"]
    return float(m["alpha"]), float(m["attn_alpha"])


def setting_of(rec) -> str:
    return rec["config"]["data"]["setting"]


def run_all(profile: str, jobs: int | None) -> None:
    plan = PLAN[profile]
    launcher = launcher_overrides(plan["launcher"], jobs)
    for setting in plan["settings"]:
        seeds = ",".join(map(str, plan["seeds"]))
        sweep(f"{PAPER}/table1_{setting}", profile, [f"seed={seeds}", *launcher])
        if plan["ensemble"]:
            sweep(f"{PAPER}/ensemble_{setting}", profile, [*launcher])


# ---------------------------------------------------------------- collection
def collect(profile: str):
    train, ens = {}, {}
    for s in SETTINGS:
        train[s] = [r for r in records(profile, f"{PAPER}/table1_{s}") if setting_of(r) == s]
        ens[s] = [r for r in records(profile, f"{PAPER}/ensemble_{s}") if setting_of(r) == s]
    return train, ens


def by_config(recs):
    out = defaultdict(list)
    for r in recs:
        out[key(r)].append(r)
    for v in out.values():
        v.sort(key=lambda r: int(r["config"]["seed"]))
    return out


def reductions(profile: str, recs: list[dict]) -> list[str]:
    """Human-readable description of the profile's scale, read from the run configs."""
    if not recs:
        return [f"profile `{profile}`: no finished runs yet"]
    c = recs[0]["config"]
    d, m, t, tr = c["data"], c["model"], c["task"], c["trainer"]
    seeds = sorted({int(r["config"]["seed"]) for r in recs})
    n_lang = sorted({int(r["metrics"].get("n_languages", 0)) for r in recs})
    lines = [
        f"profile **{profile}**; settings run: {', '.join(PLAN[profile]['settings'])}; seeds {seeds}; "
        f"ensembles: {'yes' if PLAN[profile]['ensemble'] else 'no'}",
        f"languages per setting: {'all' if int(d['max_languages']) == 0 else 'first ' + str(d['max_languages'])} "
        f"({', '.join(map(str, n_lang))} decoded)",
        f"training lines per language: {'all' if int(d['train_per_language']) == 0 else 'first ' + str(d['train_per_language'])}",
        f"model selection on dev: {'all' if int(d['val_per_language']) == 0 else 'first ' + str(d['val_per_language'])} "
        f"lines per language (greedy word accuracy), checked every "
        f"{t.get('val_check_interval') or 'epoch'}{' batches' if t.get('val_check_interval') else ''}",
        f"reported accuracy on `{t['eval_split']}`: {'all' if int(d['eval_per_language']) == 0 else 'first ' + str(d['eval_per_language'])} "
        f"lines per language, beam {t['beam']}",
        f"model: {m['enc_layers']}-layer BiLSTM encoder / {m['dec_layers']}-layer LSTM decoder, emb {m['emb_size']}, "
        f"hidden {m['hidden_size']}, dropout {m['dropout']} (paper: 2/2 layers, 300/300, 0.3)",
        f"training: Adam lr {t['lr']}, batch {t['batch_size']} (batches drawn from length-sorted pools), "
        f"max_epochs {tr['max_epochs']}, max_steps {tr['max_steps']}",
    ]
    epochs = [float(r["metrics"]["train_samples"]) / int(r["extra"]["n_train"])
              for r in recs if r["metrics"].get("train_samples") and r.get("extra", {}).get("n_train")]
    if epochs:
        lines.append(f"epochs actually trained: {min(epochs):.2f}–{max(epochs):.2f} "
                     f"(paper: until dev accuracy stops improving)")
    return lines


def header(title: str, profile: str, recs) -> str:
    lines = [f"# {title}", "", f"Peters, Niculae & Martins (2019), CoNLL–SIGMORPHON 2018 task 1. Profile: **{profile}**.", ""]
    lines += ["Reductions / settings of this profile (from the run configs):", ""]
    lines += [f"- {x}" for x in reductions(profile, recs)]
    return "\n".join(lines) + "\n\n"


def seed_mean(rs, metric):
    vals = [float(r["metrics"][metric]) for r in rs if metric in r["metrics"]]
    return mean(vals) if vals else None


def delta(ours, ref):
    return None if ours is None or ref is None else ours - ref


# ---------------------------------------------------------------- reports
def table1(profile, train, ens, ref) -> str:
    rows_ref = ref.get("table1_sigmorphon2018", {}).get("rows", {})
    cols = ref.get("table1_sigmorphon2018", {}).get("columns", ["high_avg", "high_ens", "medium_avg", "medium_ens"])
    plan = PLAN[profile]
    tr = {s: by_config(train[s]) for s in SETTINGS}
    en = {s: by_config(ens[s]) for s in SETTINGS}
    hdr = ["output α", "attention α"]
    for s in SETTINGS:
        for kind in ("avg", "ens"):
            hdr += [f"{s} {kind} (ours)", f"{s} {kind} (paper)", "Δ"]
    rows = []
    for a in ALPHAS:
        for b in ALPHAS:
            row = [a, b]
            refrow = rows_ref.get(f"{a:.1f},{b:.1f}")
            for s in SETTINGS:
                for kind in ("avg", "ens"):
                    rv = refrow[cols.index(f"{s}_{kind}")] if refrow else None
                    rv = float(rv) if rv is not None else None
                    run_here = s in plan["settings"] and (kind == "avg" or plan["ensemble"])
                    if not run_here:
                        row += [NOT_RUN, rv, "–"]
                        continue
                    rs = tr[s].get((a, b), []) if kind == "avg" else en[s].get((a, b), [])
                    ours = seed_mean(rs, "acc")
                    if ours is None:
                        row += ["missing run", rv, "–"]
                        continue
                    row += [ours, rv, delta(ours, rv)]
            rows.append(row)
    all_recs = [r for s in SETTINGS for r in train[s]]
    text = header("Table 1 — word accuracy (%) by output α × attention α", profile, all_recs)
    text += ("Accuracy is exact-match word accuracy per language, macro-averaged over languages (as in the paper). "
             "\"avg\" = mean over the seeds' runs; \"ens\" = one decode with the seeds' models' per-step "
             "probabilities averaged. Paper columns are the published values (papers.yaml, reference only); "
             "Δ = ours − paper. Ours are computed on a reduced setup where the header says so, so Δ is not a "
             "like-for-like comparison outside the paper profile.\n\n")
    text += md_table(hdr, rows)
    # edit distance beside accuracy
    text += "\n## Mean edit distance (macro over languages), ours\n\n"
    hdr2 = ["output α", "attention α"] + [f"{s} {k}" for s in SETTINGS for k in ("avg", "ens")]
    rows2 = []
    for a in ALPHAS:
        for b in ALPHAS:
            row = [a, b]
            for s in SETTINGS:
                for kind in ("avg", "ens"):
                    run_here = s in plan["settings"] and (kind == "avg" or plan["ensemble"])
                    rs = tr[s].get((a, b), []) if kind == "avg" else en[s].get((a, b), [])
                    v = seed_mean(rs, "edit_distance") if run_here else None
                    row.append(v if run_here and v is not None else (NOT_RUN if not run_here else "missing run"))
            rows2.append(row)
    text += md_table(hdr2, rows2)
    uzh = ref.get("table1_sigmorphon2018", {}).get("shared_task_best_uzh")
    base = ref.get("sigmorphon2018_official_baseline_dev", {}).get("values")
    if uzh or base:
        text += "\nContext (paper / shared task, reference only): "
        if uzh:
            text += f"best shared-task system (UZH) ens: high {uzh.get('high_ens')}, medium {uzh.get('medium_ens')}. "
        if base:
            text += f"official non-neural baseline, dev: medium {base.get('medium')}, high {base.get('high')}."
        text += "\n"
    return text


def best_config(profile, train):
    """The configuration with the highest mean accuracy in the largest setting run."""
    for s in ("high", "medium"):
        if s in PLAN[profile]["settings"] and train[s]:
            g = by_config(train[s])
            k = max(sorted(g), key=lambda k: seed_mean(g[k], "acc") or -1)
            return s, k, g[k]
    return None, None, []


def sparsity(profile, train, ens, ref) -> tuple[str, dict]:
    sp_ref = ref.get("sparsity_inflection", {})
    all_recs = [r for s in SETTINGS for r in train[s]]
    text = header("Sparsity, exactness of beam search, training speed", profile, all_recs)
    text += ("Shares are over the decoded inputs (all languages pooled). *Single sequence*: the model puts all its "
             "probability on one output. *Exact beam*: the finished hypotheses of beam search (size 5, zero-probability "
             "continuations pruned) hold probability 1 (within 1e-6), so the beam contains every output of nonzero "
             "probability. Paper: best configuration, validation data; ours: the decoded evaluation split named in the "
             "header (the dev set is used for model selection).\n\n")
    rows = []
    for s in SETTINGS:
        if s not in PLAN[profile]["settings"]:
            rows.append([s, NOT_RUN, "", "", sp_ref.get("best_config_single_sequence_share", {}).get(s), "",
                         sp_ref.get("beam_exact_share", {}).get(s)])
            continue
        g = by_config(train[s])
        if not g:
            rows.append([s, "missing run", "", "", None, "", None])
            continue
        k = max(sorted(g), key=lambda k: seed_mean(g[k], "acc") or -1)
        rows.append([s, f"output α {k[0]}, attention α {k[1]}", seed_mean(g[k], "acc"),
                     seed_mean(g[k], "single_share"), sp_ref.get("best_config_single_sequence_share", {}).get(s),
                     seed_mean(g[k], "exact_share"), sp_ref.get("beam_exact_share", {}).get(s)])
    text += md_table(["setting", "best configuration (ours)", "accuracy", "single-sequence share (ours)",
                      "single-sequence share (paper)", "exact-beam share (ours)", "exact-beam share (paper)"], rows)
    speed = {}
    for s in PLAN[profile]["settings"]:
        g = by_config(train[s])
        if not g:
            continue
        text += f"\n## Grid, {s} setting (mean over seeds)\n\n"
        text += ("Teacher-forced validation data: *attended positions* = nonzero attention weights per target step; "
                 "*support* = output symbols with nonzero probability per target step "
                 f"(target vocabulary size: {g[sorted(g)[0]][0]['extra'].get('target_vocab_size', '?')}).\n\n")
        base = g.get((1.0, 1.0))
        base_speed = seed_mean(base, "train_samples_per_s") if base else None
        rows = []
        for k in sorted(g):
            sp = seed_mean(g[k], "train_samples_per_s")
            ratio = sp / base_speed if sp and base_speed else None
            speed[(s,) + k] = (sp, ratio)
            rows.append([k[0], k[1], seed_mean(g[k], "attn_support"), seed_mean(g[k], "out_support"),
                         seed_mean(g[k], "single_share"), seed_mean(g[k], "exact_share"), seed_mean(g[k], "acc")])
        text += md_table(["output α", "attention α", "attended positions", "output support", "single-sequence share",
                          "exact-beam share", "accuracy"], rows)
        threads = sorted({r.get("threads") for k in g for r in g[k]})
        text += (f"\n### Training speed, {s} setting\n\nTraining samples per second over the optimiser steps only "
                 f"(torch threads per job: {threads}; jobs may have shared the machine, so ratios are indicative). "
                 "Ratio = speed / speed of output α 1, attention α 1 (softmax/softmax).\n\n")
        text += md_table(["output α", "attention α", "samples/s", "ratio to softmax/softmax"],
                         [[k[0], k[1], speed[(s,) + k][0], speed[(s,) + k][1]] for k in sorted(g)])
    return text, speed


def examples_md(profile, train, ens) -> str:
    all_recs = [r for s in SETTINGS for r in train[s]]
    text = header("Examples — every output with nonzero probability (cf. the paper's Figure 1)", profile, all_recs)
    text += ("For the first validation (dev) input of a few languages, all finished beam hypotheses with their "
             "probabilities (beam 5). When *exact* is yes, these are all outputs with nonzero probability.\n")
    for s in PLAN[profile]["settings"]:
        g = by_config(train[s])
        for k in [(1.0, 1.0), (1.5, 1.5), (2.0, 2.0)]:
            if k not in g:
                continue
            r = g[k][0]
            text += f"\n## {s} setting, output α {k[0]}, attention α {k[1]} (seed {r['config']['seed']})\n\n"
            rows = []
            for ex in r["extra"].get("examples", []):
                outs = "; ".join(f"{o['form']!r} {o['prob']:.4g}" for o in ex["outputs"]) or "(none finished)"
                rows.append([ex["lang"], ex["lemma"], ex["tags"], ex["gold"], outs, "yes" if ex["exact"] else "no",
                             ex["mass"]])
            text += md_table(["language", "lemma", "tags", "gold", "outputs (probability)", "exact", "mass"], rows)
    return text


def per_language_csv(path: Path, train, ens) -> None:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["setting", "kind", "output_alpha", "attention_alpha", "seed", "language", "accuracy",
                    "edit_distance", "n", "exact_share", "single_share"])
        for kind, src in (("single", train), ("ensemble", ens)):
            for s in SETTINGS:
                for r in sorted(src[s], key=lambda r: (key(r), int(r["config"]["seed"]))):
                    a, b = key(r)
                    seed = r["config"]["seed"] if kind == "single" else "+".join(
                        str(m["seed"]) for m in r["extra"].get("members", []))
                    for lang, v in sorted(r["extra"].get("per_language", {}).items()):
                        w.writerow([s, kind, a, b, seed, lang, f"{v['accuracy']:.2f}", f"{v['edit_distance']:.4f}",
                                    v["n"], f"{v['exact_share']:.4f}", f"{v['single_share']:.4f}"])


def figures(out: Path, profile, train) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    settings = [s for s in PLAN[profile]["settings"]]
    fig, axes = plt.subplots(1, len(settings), figsize=(5 * len(settings), 4), squeeze=False)
    for ax, s in zip(axes[0], settings):
        g = by_config(train[s])
        for a in ALPHAS:
            xs = [b for b in ALPHAS if (a, b) in g]
            ys = [seed_mean(g[(a, b)], "acc") for b in xs]
            ax.plot(xs, ys, marker="o", label=f"output α={a}")
        ax.set_xlabel("attention α")
        ax.set_ylabel("word accuracy (%)")
        ax.set_title(f"{s} setting ({profile})")
        ax.set_xticks(list(ALPHAS))
        ax.legend()
    fig.tight_layout()
    fig.savefig(out / "accuracy_by_alpha.png", dpi=100, metadata={"Software": None})
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(6, 4))
    s = settings[-1]
    g = by_config(train[s])
    for a in ALPHAS:
        hist = defaultdict(int)
        for b in ALPHAS:
            for r in g.get((a, b), []):
                for size, n in r["extra"].get("support_histogram", {}).items():
                    hist[int(size)] += int(n)
        if not hist:
            continue
        tot = sum(hist.values())
        xs = sorted(hist)
        ax.step(xs, [hist[x] / tot for x in xs], where="mid", label=f"output α={a}")
    ax.set_xscale("log")
    ax.set_xlabel("output support size (symbols with nonzero probability)")
    ax.set_ylabel("share of target steps")
    ax.set_title(f"support size, {s} setting, all attention α ({profile})")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out / "support_histogram.png", dpi=100, metadata={"Software": None})
    plt.close(fig)


def write_reports(profile: str, out: Path) -> list[dict]:
    ref = reference(PAPER)
    train, ens = collect(profile)
    (out / "table1.md").write_text(table1(profile, train, ens, ref))
    sp_text, _ = sparsity(profile, train, ens, ref)
    (out / "sparsity.md").write_text(sp_text)
    (out / "examples.md").write_text(examples_md(profile, train, ens))
    per_language_csv(out / "per_language.csv", train, ens)
    figures(out, profile, train)
    recs = [r for s in SETTINGS for r in train[s] + ens[s]]
    write_configs(out, recs)
    write_index(out, f"Peters, Niculae & Martins (2019) — inflection, profile {profile}", ARTIFACTS, recs,
                notes="; ".join(reductions(profile, [r for s in SETTINGS for r in train[s]])))
    return recs


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--profile", default=None, choices=sorted(PLAN))
    ap.add_argument("--out", default=None, help="report directory (default reports/peters2019/<profile>)")
    ap.add_argument("--report-only", action="store_true", help="do not run sweeps; report from existing records")
    ap.add_argument("--jobs", type=int, default=None,
                    help="parallel jobs for profiles that use the parallel launcher (1 = sequential)")
    args = ap.parse_args(argv)
    profile = choose_profile(args.profile)
    print(f"[{PAPER}] artefacts: " + ", ".join(a[0] for a in ARTIFACTS), flush=True)
    if not args.report_only:
        run_all(profile, args.jobs)
    out = report_dir(PAPER, profile, args.out)
    recs = write_reports(profile, out)
    print(f"[{PAPER}] {len(recs)} run records -> {out}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
