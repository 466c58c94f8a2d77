"""Reports of Peters, Niculae & Martins (2019), "Sparse Sequence-to-Sequence Models": machine translation.

* Table 2   – BLEU per direction × mapping (softmax α=1, 1.5-entmax, sparsemax α=2; the same α for attention
              and output): tokenized BLEU beside the paper's (tokenized multi-bleu) and detokenized SacreBLEU with
              its signature; mean ± std over seeds; out-of-domain extra test sets (IWSLT17 for de↔en trained on
              Multi30k in the cpu profile); whether each difference to 1.5-entmax exceeds test-set noise
              (sacrebleu's paired bootstrap); convergence of each run (``table2_mt.md``);
* Table 3   – attended source tokens and target tokens with nonzero probability per step (teacher forcing on
              validation), and the beam statistics (exact-search share, single-output share) per configuration
              (``table3_sparsity.md``);
* Figure 4  – de-en validation token accuracy over attention α (output α 1.5) and output α (attention α 1.5)
              (``figure4_alpha_grid.png`` + ``.md``);
* Figure 2  – forced decoding of a few test references: every target token with nonzero probability per step
              (``autocomplete_examples.md``);
* Figure 6  – training speed, written by ``benchmarks/bench_mt_speed.py`` (``make bench-mt-speed``), not here;
* ``bleu_files/`` – every Table 2 cell's hypotheses and references as plain text, so that the ``sacrebleu`` CLI
              reproduces each BLEU (the commands are in ``table2_mt.md``);
* ``runs_mt.jsonl`` + ``run_extras_mt.jsonl`` – the records behind these files (:mod:`.extras`): with
              ``bleu_files/``, a clone's ``--report-only`` rebuilds them.

Every number comes from the run records of ``peters2019/table2_mt`` (:func:`collect`); the paper's from
``papers.yaml`` (reference columns only). The plan options say what the profile runs, under ``options["mt"]``::

    {"pairs": [...], "seeds": [...], "not_run": {pair: reason}, "figure4": {"attn": [...], "out": [...]}}

Pairs that are neither run nor given a reason read "not run in this profile".
"""
from __future__ import annotations

from pathlib import Path
from statistics import mean, stdev
from typing import Any, Mapping, Sequence

from sparselab import plots
from sparselab.analysis import plateau
from .extras import AUTOCOMPLETE, CONFIGS_MT, EXTRAS, write_extras
from .. import mt_common
from ..index import write_configs
from ..mt_common import (BLEU_DIR, curve_summary, mean_std, pair_of, pair_status, run_sets,
                         settings_rows, values)
from ..numbers import pick
from ..records import grouped, latest_per_config, load, runs_root, scrub
from ..reference import reference
from ..tables import MISSING, NONE, NOT_RUN, lr_schedule, md_table

PAPER = "peters2019"
EXPERIMENT = "peters2019/table2_mt"
PAIRS = ("de-en", "en-de", "ja-en", "en-ja", "ro-en", "en-ro")
# (papers.yaml row name, α, label) — Table 2 ties attention α to output α
MAPPINGS = (("softmax", 1.0, "softmax (α=1)"), ("entmax15", 1.5, "1.5-entmax"), ("sparsemax", 2.0, "sparsemax (α=2)"))
GRID = (1.0, 1.125, 1.25, 1.375, 1.5, 1.625, 1.75, 1.875, 2.0, 2.25)   # the paper's Figure 4 grid (papers.yaml)
FIXED = 1.5                    # the other α of each Figure 4 grid
FIG4_PAIR = "de-en"
NO_DATA = "no training data offline"

ARTIFACTS = [
    ("Table 2 (MT BLEU)", "table2_mt.md",
     "tokenized and detokenized BLEU per direction × mapping vs paper, seeds, out-of-domain sets, convergence"),
    ("Table 3 (MT sparsity) and beam statistics", "table3_sparsity.md",
     "attended source tokens and nonzero target tokens per step vs paper; exact-search and single-output shares"),
    ("Figure 4 (α grid), table", "figure4_alpha_grid.md", "de-en validation token accuracy over attention α and output α"),
    ("Figure 4 (α grid)", "figure4_alpha_grid.png", "de-en validation token accuracy, ours and paper"),
    ("MT learning curves", "mt_learning_curves.png",
     "validation token accuracy against training step, every MT run, one panel per direction"),
    ("Figure 2 (autocomplete sets)", "autocomplete_examples.md",
     "forced decoding of test references: every target token with nonzero probability per step"),
    ("Figure 6 (training speed)", "figure6_speed.md",
     "benchmark: target tokens/s of softmax, exact 1.5-entmax and bisection, ratios to softmax (make bench-mt-speed)"),
    ("MT run configs", "runs_mt.jsonl", "config, hash and metrics of every MT run used"),
    ("MT run records", EXTRAS[CONFIGS_MT], "what the reports read of the rest of every MT run's record: with "
     "runs_mt.jsonl and bleu_files/, `--report-only` rebuilds every MT file here without run directories"),
]

Key = tuple[str, float, float]          # (pair, output α, attention α)


# ---------------------------------------------------------------- load
def alphas(rec) -> tuple[float, float]:
    m = rec["config"]["mapping"]
    return float(m["alpha"]), float(m["attn_alpha"])


def key(rec) -> Key:
    return (pair_of(rec), *alphas(rec))


def seed_of(rec) -> int:
    return int(rec["config"]["seed"])


def curve_label(rec) -> str:
    a, b = alphas(rec)
    return f"out α={a:g}, attn α={b:g}, seed {seed_of(rec)}"


def collect(runs, profile: str, stored: Sequence[dict] | None = None) -> list[dict]:
    """Finished ``peters2019/table2_mt`` records (``stored``: among these committed ones); one per config hash (a
    hand run in ``run/`` and a sweep job with the same resolved config are the same run: the one finished last is
    kept)."""
    return sorted(latest_per_config(load(runs, profile, EXPERIMENT, stored=stored)),
                  key=lambda r: (key(r), seed_of(r), r["run_dir"]))


def by_key(recs) -> dict[Key, list[dict]]:
    return grouped(recs, key, seed_of)


def table2_records(recs) -> list[dict]:
    """The runs behind Table 2: attention α = output α ∈ {1, 1.5, 2}."""
    tied = {a for _, a, _ in MAPPINGS}
    return [r for r in recs if alphas(r)[0] == alphas(r)[1] and alphas(r)[0] in tied]


def mt_options(options: Mapping[str, Any]) -> dict[str, Any]:
    return dict(options.get("mt") or {})


def num(x: float | None) -> Any:
    """A reference value: integers without decimals (``17,993``), others as floats (two decimals)."""
    if x is None:
        return NONE
    return f"{int(x):,}" if float(x).is_integer() and abs(x) >= 1000 else float(x)


def as_int(x) -> Any:
    return int(x) if x is not None else NONE


# ---------------------------------------------------------------- reference
def paper_bleu(ref: Mapping[str, Any], mapping: str, pair: str) -> tuple[float, float] | None:
    """(mean, std) of the paper's Table 2 cell (papers.yaml ``table2_mt_bleu``), None if absent."""
    t = ref.get("table2_mt_bleu", {})
    row = t.get("rows", {}).get(mapping)
    cols = t.get("columns", list(PAIRS))
    if not row or pair not in cols:
        return None
    v = row[cols.index(pair)]
    if v is None:
        return None
    if isinstance(v, (list, tuple)):
        return float(v[0]), float(v[1]) if len(v) > 1 and v[1] is not None else None
    return float(v), None


def paper_cell(ref, mapping: str, pair: str) -> str:
    v = paper_bleu(ref, mapping, pair)
    if v is None:
        return NONE
    return f"{v[0]:.2f}" + (f" ± {v[1]:.2f}" if v[1] is not None else "")


# ---------------------------------------------------------------- header
def first(n) -> str:
    return "all" if int(n) == 0 else f"first {int(n)}"


def reductions(profile: str, options: Mapping[str, Any], recs) -> list[str]:
    """The profile's scale in words, read from the run configs (the plan says only what was run)."""
    opts = mt_options(options)
    if not recs:
        return [f"profile `{profile}`: no finished MT runs yet"]
    c = recs[0]["config"]
    m, t, d = c["model"], c["task"], c["data"]
    seeds = sorted({seed_of(r) for r in recs})
    lines = [
        f"profile **{profile}**; directions run: {', '.join(opts.get('pairs', [])) or 'none'}; seeds {seeds}",
        f"model: {m['enc_layers']}-layer BiLSTM encoder / {m['dec_layers']}-layer LSTM decoder with input feeding, "
        f"emb {m['emb_size']}, hidden {m['hidden_size']}, dropout {m['dropout']} (paper: 2 layers, 500-d, dropout 0.3)",
        f"training: Adam lr {t['lr']}, batch {t['batch_size']} sentence pairs, training pairs longer than "
        f"{d['max_len']} BPE tokens dropped; {halving_rule(t)}; "
        f"model selection on validation token accuracy (teacher forcing); data limits per split: train "
        f"{first(d['max_train'])}, validation {first(d['max_val'])}, test {first(d['max_test'])}, extra test sets "
        f"{first(d['max_extra_test'])}",
        f"decoding: beam {t['beam']}, length normalisation {t.get('length_norm', 0.0)}, at most "
        f"min({t['max_decode_len']}, 2 × longest source + 10) BPE tokens",
    ]
    if profile == "cpu":                  # the rule from the paper's protocol to the cpu miniature
        lines.append(scaling_rule(recs))
    for p, reason in sorted((opts.get("not_run") or {}).items()):
        lines.append(f"{p}: not run — {reason}")
    return lines


# the cpu budget's reference: 15,000 updates at batch 64 are about the paper's epochs per run (docs/peters2019.md)
BUDGET_UPDATES = 15000


def scaling_rule(recs) -> str:
    """How the cpu MT protocol follows from the paper's, per direction run, from the records: the epochs
    of the reference budget, validations per budget, and early stopping in updates."""
    parts = []
    for pair in sorted({r["config"]["data"]["pair"] for r in recs}):
        r = next(x for x in recs if x["config"]["data"]["pair"] == pair)
        c, n = r["config"], r.get("extra", {}).get("splits", {}).get("train", {}).get("n")
        every, patience = int(c["trainer"]["val_check_interval"]), c["task"].get("early_stopping_patience")
        epochs = (f" ({BUDGET_UPDATES * int(c['task']['batch_size']) / int(n):.0f} epochs of {int(n):,} pairs)"
                  if n else "")
        stop = (f"early stopping after {every * int(patience):,} updates ({patience} validations) without a "
                f"{c['task']['early_stopping_min_delta']}-point gain" if patience else "no early stopping")
        parts.append(f"{pair}: validation every {every:,} updates, {BUDGET_UPDATES // every} per {BUDGET_UPDATES:,}"
                     f"-update budget{epochs}; {stop}; at most {int(c['trainer']['max_steps']):,} updates")
    return ("scaling rule: fewer directions, lines and units than the paper; the budget is the paper's in epochs and "
            "the cadence the paper's number of validations per budget (10 on ja-en, 20 on de-en), with its "
            "lr-halving test at each; the paper trains a fixed budget and keeps the best validation, ours trains on "
            "until validation stops improving, the same rule for every mapping (the diagnosis in "
            "`reports/peters2019/diagnosis/mt_cadence.md` and `mt_fit.md`): " + "; ".join(parts))


def halving_rule(t: Mapping[str, Any]) -> str:
    """The learning-rate rule of the task config (records made before ``task.lr_rule`` existed: "best")."""
    if t.get("lr_rule", "best") == "previous":
        return ("learning rate halved after every validation whose loss is higher than at the previous one "
                "(the paper's rule)")
    return "learning rate halved after every validation whose loss is not the best so far"


def header(title: str, profile: str, options: Mapping[str, Any], recs) -> str:
    lines = [f"# {title}", "", f"Peters, Niculae & Martins (2019), machine translation. Profile: **{profile}**.", "",
             "Reductions / settings of this profile (from the run configs):", ""]
    lines += [f"- {x}" for x in reductions(profile, options, recs)]
    return "\n".join(lines) + "\n\n"


# ---------------------------------------------------------------- Table 2: compute
def bleu_cell(rs: Sequence[dict], status: str | None, metric: str = "bleu_tok") -> str:
    if status is not None:
        return status
    vals = values(rs, metric)
    return mean_std(vals) if vals else MISSING


def table2_rows(recs, options, ref, metric: str = "bleu_tok", with_paper: bool = True) -> list[list[Any]]:
    """Rows: mapping; per direction: ours (mean ± std over seeds) [and the paper's]."""
    opts, g = mt_options(options), by_key(table2_records(recs))
    rows = []
    for name, a, label in MAPPINGS:
        row = [label]
        for p in PAIRS:
            row.append(bleu_cell(g.get((p, a, a), []), pair_status(opts, p), metric))
            if with_paper:
                row.append(paper_cell(ref, name, p))
        rows.append(row)
    return rows


def table2_header(with_paper: bool = True) -> list[str]:
    hdr = ["mapping"]
    for p in PAIRS:
        hdr += [f"{p} (ours)", f"{p} (paper)"] if with_paper else [p]
    return hdr


def extra_sets(recs) -> list[str]:
    return sorted({name for r in recs for name in r.get("extra", {}).get("extra_test", {})})


def extra_rows(recs, options) -> list[list[Any]]:
    """Out-of-domain sets (e.g. IWSLT17 test for de↔en trained on Multi30k): detok / tok BLEU per direction run."""
    opts, g = mt_options(options), by_key(table2_records(recs))
    rows = []
    for name in extra_sets(recs):
        for p in PAIRS:
            rs_all = [r for a in (m[1] for m in MAPPINGS) for r in g.get((p, a, a), [])]
            if pair_status(opts, p) is not None or not any(name in r["extra"].get("extra_test", {}) for r in rs_all):
                continue
            spec = next(r["extra"]["extra_test"][name] for r in rs_all if name in r["extra"].get("extra_test", {}))
            row = [name, p, f"{spec['spec']} ({int(spec['metrics']['n'])})"]
            for _, a, _ in MAPPINGS:
                rs = g.get((p, a, a), [])
                row += [bleu_cell(rs, None, f"bleu_{name}"), bleu_cell(rs, None, f"bleu_tok_{name}")]
            rows.append(row)
    return rows


def ordering(scores: Mapping[str, float | None]) -> str:
    """Mapping names from best to worst (``a > b > c``; ``=`` for ties at two decimals)."""
    known = [(k, v) for k, v in scores.items() if v is not None]
    if not known:
        return NONE
    known.sort(key=lambda kv: -kv[1])
    out = known[0][0]
    for (k0, v0), (k, v) in zip(known, known[1:]):
        out += (" = " if round(v0, 2) == round(v, 2) else " > ") + k
    return out


def ordering_rows(recs, options, ref) -> list[list[Any]]:
    """Per direction run: our order of the three mappings by tokenized BLEU and by SacreBLEU, beside the paper's."""
    opts, g = mt_options(options), by_key(table2_records(recs))
    short = {"softmax": "softmax", "entmax15": "1.5-entmax", "sparsemax": "sparsemax"}
    rows = []
    for p in PAIRS:
        paper = ordering({short[n]: (paper_bleu(ref, n, p) or (None,))[0] for n, _, _ in MAPPINGS})
        status = pair_status(opts, p)
        if status is not None:
            rows.append([p, status, status, paper])
            continue
        tok = {short[n]: (mean(values(g.get((p, a, a), []), "bleu_tok")) if values(g.get((p, a, a), []), "bleu_tok")
                          else None) for n, a, _ in MAPPINGS}
        det = {short[n]: (mean(values(g.get((p, a, a), []), "bleu")) if values(g.get((p, a, a), []), "bleu")
                          else None) for n, a, _ in MAPPINGS}
        rows.append([p, ordering(tok), ordering(det), paper])
    return rows


def tokenization_lines(recs) -> list[str]:
    """How each target language's two BLEUs are tokenized, with the SacreBLEU signatures (Table 2 runs)."""
    return mt_common.tokenization_lines(table2_records(recs))


# ---------------------------------------------------------------- convergence
WINDOW_VALIDATIONS = 3      # a run without early stopping (a fixed budget) is judged over its last 3 validations
SMOOTH_VALIDATIONS = plateau.SMOOTH_VALIDATIONS     # the smoothing the translation task stops by


def plateau_window(rec) -> tuple[int, int]:
    """(window in steps, validations smoothed) of a run's convergence check: the window is the run's early-stopping
    patience in updates (patience × its validation cadence), so the check asks what stopping asked; a run without
    patience is judged over its last 3 validations. A record without a step cadence gets the kit's window."""
    cfg = rec.get("config", {})
    every = (cfg.get("trainer") or {}).get("val_check_interval")
    if not isinstance(every, int) or isinstance(every, bool) or every <= 0:
        return mt_common.PLATEAU_STEPS, mt_common.SMOOTH
    patience = (cfg.get("task") or {}).get("early_stopping_patience")
    return every * int(patience or WINDOW_VALIDATIONS), SMOOTH_VALIDATIONS


def plateau_gain(rec) -> float:
    """The gain below which the window counts as flat: the run's early-stopping ``min_delta``, the one it stopped
    by (``sparselab.training.plateau_stopping``); the kit's for a run without early stopping."""
    task = rec.get("config", {}).get("task") or {}
    if task.get("early_stopping_patience") is None or task.get("early_stopping_min_delta") is None:
        return mt_common.PLATEAU_GAIN
    return float(task["early_stopping_min_delta"])


def convergence_of(rec) -> dict[str, Any]:
    window, smooth = plateau_window(rec)
    return mt_common.convergence(rec.get("extra", {}).get("history", []), window=window, smooth=smooth,
                                 gain=plateau_gain(rec))


def convergence_rule_text() -> str:
    return (f"a run *stopped improving* when, over the window, both the smoothed validation token accuracy (mean of "
            f"{SMOOTH_VALIDATIONS} consecutive validations) and the best validation gained less than "
            f"{mt_common.PLATEAU_GAIN} points (the run's early-stopping min_delta where it has one); the window is "
            f"the run's early-stopping patience in updates (the last {WINDOW_VALIDATIONS} validations for a run "
            "without one). A run with early stopping trained until this rule fired (training/plateau_stopping.py)")


def has_stopped_improving(rec) -> bool | None:
    """The kit's rule (:func:`mt_common.convergence`) over the run's own window (:func:`plateau_window`), the same
    for every mapping."""
    return convergence_of(rec)["stopped"]


def convergence_rows(recs) -> list[list[Any]]:
    rows = []
    for r in recs:
        e, m = r.get("extra", {}), r["metrics"]
        stopped = e.get("stopped_early")
        why = {True: "early stopping (the rule below)", False: "step budget"}.get(stopped, "not recorded")
        conv = convergence_of(r)
        a, b = alphas(r)
        rows.append([pair_of(r), a, b, seed_of(r), len(e.get("history", [])), as_int(m.get("steps")),
                     r["config"]["trainer"].get("max_steps"), as_int(m.get("best_step")), curve_summary(e.get("history", [])),
                     *lr_schedule(r), why, f"{plateau_window(r)[0]:,}",
                     NONE if conv.get("trend") is None else f"{conv['trend']:+.2f}",
                     NONE if conv.get("record") is None else f"{conv['record']:+.2f}",
                     {True: "yes", False: "**no: still rising**", None: NONE}[conv["stopped"]], m.get("train_time_s")])
    return rows


def convergence_summary(recs) -> str:
    if not recs:
        return ""
    stopped = sum(1 for r in recs if r.get("extra", {}).get("stopped_early"))
    flat = sum(1 for r in recs if has_stopped_improving(r))
    # train_time_s, not the record's wall_time_s: a run resumed from its checkpoint keeps its training timer, while
    # wall_time_s counts only the process that finished it
    hours = sum(float(r["metrics"].get("train_time_s") or 0) for r in recs) / 3600
    return (f"{stopped} of {len(recs)} runs stopped by early stopping, {len(recs) - stopped} at the step budget; "
            f"{flat} of {len(recs)} had stopped improving when they ended ({convergence_rule_text()}). "
            f"Training time of these runs: {hours:.2f} h (the training steps only, across resumes; summed "
            f"over jobs, which may have run in parallel).")


# ---------------------------------------------------------------- hyp/ref files
def bleu_file_stem(rec, set_name: str) -> str:
    a, b = alphas(rec)
    return f"{pair_of(rec)}.alpha{a:g}-attn{b:g}.seed{seed_of(rec)}.{set_name}"


def copy_bleu_files(out: Path, recs, copy: bool = True) -> list[list[Any]]:
    """Copy every Table 2 run's hypothesis and reference files into ``out/bleu_files/`` (names
    ``<pair>.alpha<a>-attn<b>.seed<s>.<set>.<detok|tok>.<hyp|ref>.txt``); one row per (run, set, kind): file
    stem, BLEU from the record, and the ``sacrebleu`` command that reproduces it. ``copy=False``: committed records,
    whose files are the ones already in ``out/bleu_files/``."""
    return mt_common.copy_bleu_files(out, table2_records(recs), bleu_file_stem, copy=copy)


# ---------------------------------------------------------------- Table 2: test-set noise
SIGNIFICANCE_LEVEL = 0.05


def significance_rows(out: Path, recs) -> tuple[list[list[Any]], list[str], str | None]:
    """Per direction and per seed that all three mappings ran: sacrebleu's paired bootstrap
    (:func:`mt_common.paired_bootstrap`) on the tokenized test BLEU, read from the files in ``out/bleu_files/``,
    with 1.5-entmax as the baseline (the paper's claim is about it). Returns the rows, one ``sacrebleu`` command
    per direction and seed (run from ``out``) and the metric signature."""
    g, out = by_key(table2_records(recs)), Path(out)
    order = (MAPPINGS[1], MAPPINGS[0], MAPPINGS[2])          # baseline first, as sacrebleu takes it
    rows, commands, signature = [], [], None
    for p, seed in ((p, s) for p in PAIRS for s in sorted(set.intersection(
            *({seed_of(r) for r in g.get((p, a, a), [])} for _, a, _ in order)))):
        firsts = [next(r for r in g[(p, a, a)] if seed_of(r) == seed) for _, a, _ in order]
        stems = [f"{BLEU_DIR}/{bleu_file_stem(r, 'test')}.tok" for r in firsts]
        hyps, refs = [f"{s}.hyp.txt" for s in stems], [f"{s}.ref.txt" for s in stems]
        if not all((out / f).exists() for f in hyps + refs):
            rows.append([p, NONE, NONE, NONE, NONE, NONE, NONE, f"files missing in {BLEU_DIR}/"])
            continue
        if len({(out / f).read_bytes() for f in refs}) > 1:
            rows.append([p, NONE, NONE, NONE, NONE, NONE, NONE, "the runs' references differ: not comparable"])
            continue
        signature, results = mt_common.paired_bootstrap(out / refs[0], [out / h for h in hyps])
        base = results[0].score
        for (_, _, label), rec, res in zip(order, firsts, results):
            paired = res.p_value is not None
            rows.append([p, label, seed_of(rec), f"{res.score:.2f}", f"{res.mean:.2f} ± {res.ci:.2f}",
                         f"{res.score - base:+.2f}" if paired else "baseline",
                         f"{res.p_value:.4f}" if paired else NONE,
                         (("yes" if res.p_value < SIGNIFICANCE_LEVEL else "no") if paired else NONE)])
        commands.append(f"- {p}, seed {seed}: `sacrebleu {refs[0]} -i {' '.join(hyps)} -m bleu --paired-bs -tok none --force "
                        f"-f text`")
    return rows, commands, signature


def significance_text(sig: tuple[list[list[Any]], list[str], str | None]) -> str:
    rows, commands, signature = sig
    if not rows:
        return ""
    return ("\n## Are the differences larger than test-set noise? (paired bootstrap)\n\n"
            "sacrebleu's paired bootstrap resampling (the test of Moses' "
            "`bootstrap-hypothesis-difference-significance.pl`): 1,000 resamples of the test sentences, tokenized "
            "BLEU of the three mappings' runs of one seed, for every seed all three ran, 1.5-entmax as the baseline, "
            "since the paper's claim is about it. "
            "Interval: the bootstrap mean ± the half-width of its 95 % interval. p: how often a difference at least "
            f"this large arises by chance when both systems come from one process; a difference counts at p < "
            f"{SIGNIFICANCE_LEVEL:g} (0.0010 = 1/1001 is the smallest p that 1,000 resamples give). This is test-set sampling noise only: another training seed can move a cell "
            f"further.{f' Signature: `{signature}`.' if signature else ''}\n\n"
            + md_table(["direction", "mapping", "seed", "tok. BLEU", "bootstrap mean ± 95 % CI", "− 1.5-entmax",
                        "p", f"different at p < {SIGNIFICANCE_LEVEL:g}"], rows)
            + ("\nFrom this folder, each command prints the same numbers:\n\n" + "\n".join(commands) + "\n"
               if commands else ""))


# ---------------------------------------------------------------- Table 2: format
TABLE2_INTRO = (
    "**Tokenized BLEU** (the paper's metric: multi-bleu on tokenized text) is the first table; **detokenized "
    "SacreBLEU** the second. Each cell: mean over seeds, ± the sample standard deviation when there are several. "
    "Paper columns: the published values (papers.yaml `table2_mt_bleu`, mean ± std of 3 runs; reference only, "
    "on the paper's corpora — IWSLT17 de↔en, KFTT ja↔en, WMT16 ro↔en — so outside the `paper` profile they are "
    "not a like-for-like comparison: the header says which corpora ours use).\n\n")


def table2_text(profile: str, options: Mapping[str, Any], recs, ref: Mapping[str, Any],
                file_rows: Sequence[Sequence[Any]] | None = None,
                significance: tuple[list[list[Any]], list[str], str | None] | None = None) -> str:
    t2 = table2_records(recs)
    text = header("Table 2 — BLEU, LSTM NMT, same α for attention and output", profile, options, t2)
    sr = settings_rows(t2)
    if sr:
        text += "Per direction (from the run configs and records; sizes are sentence pairs):\n\n"
        text += md_table(["direction", "corpus", "train", "validation", "test (reported)", "extra test sets",
                          "BPE merges", "validation", "max steps", "early stopping"], sr) + "\n"
    text += "How BLEU is computed (from the records):\n\n" + ("\n".join(tokenization_lines(recs)) or "- no runs") + "\n\n"
    text += TABLE2_INTRO
    text += "## Tokenized BLEU (ours) beside the paper\n\n"
    text += md_table(table2_header(), table2_rows(recs, options, ref, "bleu_tok"))
    text += "\n## Detokenized SacreBLEU (ours)\n\n"
    text += md_table(table2_header(with_paper=False), table2_rows(recs, options, ref, "bleu", with_paper=False))
    ex = extra_rows(recs, options)
    if ex:
        text += ("\n## Out-of-domain test sets (the same models)\n\n"
                 "Models trained on the profile's training corpus, decoded on an extra test set (for de↔en trained on "
                 "Multi30k: IWSLT17 test, the paper's test domain). Cells: detokenized SacreBLEU / tokenized BLEU.\n\n")
        hdr = ["set", "direction", "test data (sentences)"]
        for _, _, label in MAPPINGS:
            hdr += [f"{label} SacreBLEU", f"{label} tok. BLEU"]
        text += md_table(hdr, ex)
    text += ("\n## Ordering of the mappings\n\nBest to worst by mean BLEU (`=`: equal at two decimals). "
             "Paper: 1.5-entmax best on all six directions.\n\n")
    text += md_table(["direction", "ours, tokenized BLEU", "ours, SacreBLEU", "paper"], ordering_rows(recs, options, ref))
    if significance is not None:
        text += significance_text(significance)
    conv = convergence_rows(recs)           # every MT run: Table 2's and the Figure 4 grid's
    if conv:
        text += ("\n## Convergence of each run\n\nEvery MT run of the profile: Table 2's (attention α = output α) "
                 "and the Figure 4 grid's. " + convergence_summary(recs) + " Every run's validation curve is in "
                 "`mt_learning_curves.png`.\n\n")
        text += md_table(["direction", "output α", "attention α", "seed", "validations", "steps trained", "step cap",
                          "best step", "val. token accuracy: first → best (step) → last", "lr halvings", "last lr",
                          "stopped by", "window (steps)", "trend over the window", "record over the window",
                          "stopped improving",
                          "training time (s)"], conv)
    text += mt_common.bleu_cli_section(file_rows, "<direction>.alpha<α>-attn<α>.seed<seed>.<set>")
    return text


# ---------------------------------------------------------------- Table 3 + beam statistics
def paper_sparsity(ref: Mapping[str, Any], mapping: str) -> tuple[float | None, float | None]:
    t = ref.get("table3_sparsity_deen", {})
    row = t.get("rows", {}).get(mapping)
    if not row:
        return None, None
    cols = t.get("columns", ["attended_source_tokens", "target_words_nonzero"])
    get = lambda c: float(row[cols.index(c)]) if c in cols and row[cols.index(c)] is not None else None  # noqa: E731
    return get("attended_source_tokens"), get("target_words_nonzero")


def table3_rows(recs, options, ref) -> list[list[Any]]:
    """Per direction × mapping: attended source tokens and nonzero target tokens per step (mean over seeds), the
    target vocabulary, and the paper's (de-en only, IWSLT17)."""
    opts, g = mt_options(options), by_key(table2_records(recs))
    rows = []
    for p in PAIRS:
        status = pair_status(opts, p)
        for name, a, label in MAPPINGS:
            pa, pt = paper_sparsity(ref, name) if p == FIG4_PAIR else (None, None)
            if status is not None:
                rows.append([p, label, status, num(pa), status, num(pt), NONE])
                continue
            rs = g.get((p, a, a), [])
            att, sup = values(rs, "attn_support"), values(rs, "out_support")
            vocab = sorted({int(r["extra"]["target_vocab_size"]) for r in rs if r["extra"].get("target_vocab_size")})
            rows.append([p, label, mean(att) if att else MISSING, num(pa), mean(sup) if sup else MISSING, num(pt),
                         ", ".join(map(str, vocab)) or NONE])
    return rows


def beam_rows(recs) -> list[list[Any]]:
    """Per configuration (every run: direction, α's) and decoded set: exact-search and single-output shares."""
    rows = []
    for k, rs in sorted(by_key(recs).items()):
        for s in [name for name, _, _ in run_sets(rs[0])]:
            ms = [m for r in rs for name, _, m in run_sets(r) if name == s]
            ex = [float(m["exact_share"]) for m in ms if m.get("exact_share") is not None]
            si = [float(m["single_share"]) for m in ms if m.get("single_share") is not None]
            n = sorted({int(m["n"]) for m in ms if m.get("n") is not None})
            rows.append([k[0], k[1], k[2], s, len(rs), ", ".join(map(str, n)) or NONE,
                         mean(ex) if ex else NONE, mean(si) if si else NONE])
    return rows


def table3_text(profile: str, options: Mapping[str, Any], recs, ref: Mapping[str, Any]) -> str:
    text = header("Table 3 — sparsity of attention and output; beam statistics", profile, options,
                  table2_records(recs))
    text += ("Teacher forcing on the validation set: *attended source tokens* = nonzero attention weights per target "
             "step; *nonzero target tokens* = target vocabulary entries (BPE units) with nonzero probability per "
             "step. Paper (papers.yaml `table3_sparsity_deen`): IWSLT17 de-en with its own vocabulary (17,993 "
             "target types), so only the de-en rows carry paper values; for softmax the support is the whole "
             "vocabulary by construction.\n\n")
    text += md_table(["direction", "mapping", "attended source tokens (ours)", "(paper)",
                      "nonzero target tokens (ours)", "(paper)", "target vocabulary (ours)"],
                     table3_rows(recs, options, ref))
    br = beam_rows(recs)
    if br:
        text += ("\n## Beam statistics (beam 5) per configuration\n\n*Exact search*: the finished hypotheses hold all "
                 "probability mass (within 1e-6), so the beam contains every output of nonzero probability. *Single "
                 "output*: one output has all the mass. Shares of the decoded sentences, mean over seeds.\n\n")
        text += md_table(["direction", "output α", "attention α", "set", "seeds", "sentences", "exact-search share",
                          "single-output share"], br)
    text += ("\nTraining speed is not taken from these runs (jobs share the machine, which distorts their ratios): "
             "`figure6_speed.md` measures the mappings side by side on the same batches.\n")
    return text


# ---------------------------------------------------------------- Figure 4
def figure4_points(recs, ref) -> dict[str, list[list[Any]]]:
    """Per grid (``attn``: attention α with output α 1.5; ``out``: output α with attention α 1.5): rows
    (α, ours mean val_acc_best, seeds, paper)."""
    g = by_key([r for r in recs if pair_of(r) == FIG4_PAIR])
    fig = ref.get("figure4_alpha_grid_deen", {})
    paper = {"attn": fig.get(f"attention_alpha_with_output_{FIXED}", {}) or {}, "out": fig.get("output_alpha", {}) or {}}
    paper = {k: {float(a): float(v) for a, v in d.items()} for k, d in paper.items()}
    out = {}
    for grid in ("attn", "out"):
        ours = {}
        for (p, a, b), rs in g.items():
            x = b if grid == "attn" else a
            if (a if grid == "attn" else b) == FIXED:
                ours[x] = rs
        xs = sorted(set(ours) | set(paper[grid]) | set(GRID))
        out[grid] = [[x, mean(values(ours[x], "val_acc_best")) if x in ours and values(ours[x], "val_acc_best") else None,
                      len(ours.get(x, [])), paper[grid].get(x)] for x in xs]
    return out


def planned_grid(options: Mapping[str, Any], grid: str) -> list[float]:
    return sorted(float(a) for a in (mt_options(options).get("figure4") or {}).get(grid, []))


def figure4_cell(v, n, planned: bool, pair_run: bool):
    if v is not None:
        return v
    if not pair_run:
        return NOT_RUN
    return MISSING if planned else NOT_RUN


def figure4_text(profile: str, options: Mapping[str, Any], recs, ref: Mapping[str, Any]) -> str:
    text = header("Figure 4 — de-en validation token accuracy over α", profile, options,
                  [r for r in recs if pair_of(r) == FIG4_PAIR])
    pts = figure4_points(recs, ref)
    run = FIG4_PAIR in mt_options(options).get("pairs", [])
    text += (f"Validation token accuracy (%, teacher forcing; the best validation of each run, mean over seeds) on "
             f"{FIG4_PAIR}. Left grid: attention α with output α = {FIXED}; right grid: output α with attention α = "
             f"{FIXED} (the point α = {FIXED} is the Table 2 1.5-entmax run in both). Paper: papers.yaml "
             "`figure4_alpha_grid_deen` (IWSLT17; reference only).\n\n")
    for grid, name in (("attn", "attention α"), ("out", "output α")):
        planned = set(planned_grid(options, grid)) | {FIXED}
        ran = [x for x, v, n, _ in pts[grid] if v is not None]
        text += (f"Points of the {name} grid run in this profile: {', '.join(f'{x:g}' for x in ran) or 'none'}"
                 f" (planned: {', '.join(f'{x:g}' for x in sorted(planned)) if run else 'none'}).\n\n")
    rows = []
    for (x, va, na, pa), (_, vo, no, po) in zip(pts["attn"], pts["out"]):
        rows.append([f"{x:g}", figure4_cell(va, na, x in set(planned_grid(options, "attn")) | {FIXED}, run), na or NONE,
                     pa, figure4_cell(vo, no, x in set(planned_grid(options, "out")) | {FIXED}, run), no or NONE, po])
    text += md_table(["α", f"attention α, output α {FIXED} (ours)", "seeds", "(paper)",
                      f"output α, attention α {FIXED} (ours)", "seeds", "(paper)"], rows)
    summary = ref.get("figure4_alpha_grid_deen", {}).get("reported_summary")
    if summary:
        text += f"\nPaper's summary: {summary}.\n"
    return text


def plot_figure4(path: Path, profile: str, recs, ref: Mapping[str, Any]) -> Path:
    """One y-axis per panel, ours and the paper's on it; error bars: the SD over seeds where a point has 2+."""
    plt = plots.pyplot()
    g = by_key([r for r in recs if pair_of(r) == FIG4_PAIR])
    pts = figure4_points(recs, ref)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for ax, (grid, name, fixed) in zip(axes, (("attn", "attention α", f"output α {FIXED}"),
                                               ("out", "output α", f"attention α {FIXED}"))):
        ours = [(x, v) for x, v, _, _ in pts[grid] if v is not None]
        paper = [(x, p) for x, _, _, p in pts[grid] if p is not None]
        if ours:
            xs = [x for x, _ in ours]
            runs = [values(g.get((FIG4_PAIR, FIXED, x) if grid == "attn" else (FIG4_PAIR, x, FIXED), []),
                           "val_acc_best") for x in xs]
            err = [stdev(v) if len(v) > 1 else 0.0 for v in runs]
            ax.errorbar(xs, [v for _, v in ours], yerr=err, marker="o", capsize=3, color="tab:blue",
                        label=f"ours ({profile}; bars: SD over seeds)")
        if paper:
            ax.plot(*zip(*paper), marker="s", linestyle="--", color="tab:gray", label="paper (IWSLT17)")
        ax.set_xlabel(name)
        ax.set_ylabel("validation token accuracy (%)")
        ax.set_title(f"{FIG4_PAIR}, {fixed}")
        ax.set_xticks(list(GRID))
        ax.tick_params(axis="x", labelrotation=45)
        ax.legend(loc="center right", fontsize=7)
    fig.tight_layout()
    return plots.save(fig, path, dpi=100)


# ---------------------------------------------------------------- Figure 2: autocomplete
def autocomplete_step_row(i: int, step: Mapping[str, Any], digits: int = 3) -> list[Any]:
    cands = " · ".join(f"`{tok}` {p:.{digits}f}" for tok, p in step["candidates"])
    shown, support = len(step["candidates"]), int(step["support"])
    more = "" if shown >= support else f" · … {support - shown} more (listed mass {step['shown_mass']:.3f})"
    return [i, f"`{step['gold']}` {step['gold_prob']:.{digits}f}", support, cands + more]


def autocomplete_runs(recs) -> list[tuple[str, str, dict]]:
    """(direction, mapping label, run) for each Table 2 configuration: its lowest seed, the run Figure 2 shows."""
    g = by_key(table2_records(recs))
    return [(p, label, g[(p, a, a)][0]) for p in PAIRS for _, a, label in MAPPINGS if g.get((p, a, a))]


def autocomplete_text(profile: str, options: Mapping[str, Any], recs, n_sentences: int = AUTOCOMPLETE) -> str:
    t2 = table2_records(recs)
    text = header("Figure 2 — autocomplete: every target token with nonzero probability", profile, options, t2)
    text += ("Forced decoding of the reference of the first test sentences (BPE units; `@@` joins a unit to the next). "
             "One row per target step: the gold token with its probability, the number of tokens with nonzero "
             "probability, and those tokens from most to least probable. Softmax gives every token nonzero "
             "probability: only the most probable are listed, with the mass they hold. Model: the lowest seed of each "
             "configuration.\n")
    for p, label, r in autocomplete_runs(recs):
        for ex in r.get("extra", {}).get("autocomplete", [])[:n_sentences]:
            text += (f"\n## {p}, {label} (seed {seed_of(r)}), test sentence {ex['index']}\n\n"
                     f"- source: {ex['src']}\n- reference: {ex['ref']}\n\n")
            text += md_table(["step", "gold (probability)", "nonzero tokens", "candidates (probability)"],
                             [autocomplete_step_row(i + 1, s) for i, s in enumerate(ex["steps"])])
    return text


# ---------------------------------------------------------------- all reports
def write_reports(profile: str, out: Path, options: Mapping[str, Any], runs=None,
                  ref: Mapping[str, Any] | None = None, recs: Sequence[dict] | None = None,
                  live: bool = True) -> list[dict]:
    """Every MT report file in ``out`` (not ``figure6_speed.md``: the benchmark writes it; not ``index.html``:
    :func:`sparselab.reports.peters2019.report.write_reports` lists these beside the inflection reports); returns the
    records behind them. ``recs``: these records (default: :func:`collect`); ``live=False``: they are the ones
    committed in ``out``, whose BLEU files are those of ``out/bleu_files/``."""
    runs = runs_root() if runs is None else runs
    ref = reference(PAPER) if ref is None else ref
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    recs = collect(runs, profile) if recs is None else list(recs)
    file_rows = copy_bleu_files(out, recs, copy=live)
    text = table2_text(profile, options, recs, ref, file_rows, significance_rows(out, recs))
    (out / "table2_mt.md").write_text(scrub(text, runs))
    (out / "table3_sparsity.md").write_text(scrub(table3_text(profile, options, recs, ref), runs))
    (out / "figure4_alpha_grid.md").write_text(scrub(figure4_text(profile, options, recs, ref), runs))
    plot_figure4(out / "figure4_alpha_grid.png", profile, recs, ref)
    mt_common.plot_learning_curves(out / "mt_learning_curves.png", recs, curve_label, "LSTM NMT")
    (out / "autocomplete_examples.md").write_text(autocomplete_text(profile, options, recs))
    write_configs(out, recs, runs, name=CONFIGS_MT)
    write_extras(out, CONFIGS_MT, recs, runs, shown=[r for _, _, r in autocomplete_runs(recs)])
    return recs


def notes(profile: str, options: Mapping[str, Any], recs) -> str:
    return "MT: " + "; ".join(reductions(profile, options, recs))


def numbers(runs, profile: str) -> dict[str, dict[str, float]]:
    """Per run (direction, α's, seed): the metrics the MT tables read (timings left out)."""
    names = ("bleu", "bleu_tok", "exact_share", "single_share", "attn_support", "out_support", "val_acc_best")
    out = {}
    for r in collect(runs, profile):
        p, a, b = key(r)
        extra = [f"bleu_{n}" for n in extra_sets([r])] + [f"bleu_tok_{n}" for n in extra_sets([r])]
        out[f"table2_mt/{p},alpha={a},attn_alpha={b},seed={seed_of(r)}"] = pick(r["metrics"], [*names, *extra])
    return out

