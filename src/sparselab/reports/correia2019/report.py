"""Reports of Correia, Niculae & Martins (2019), "Adaptively Sparse Transformers".

* Table 1  – BLEU per direction for softmax, 1.5-entmax and α-entmax attention (softmax output): tokenized BLEU
             beside the paper's, detokenized SacreBLEU with its signature, mean ± std over seeds, out-of-domain
             test sets, each run's convergence, the hypothesis / reference files (``bleu_files/``) and, beyond the
             paper, α-entmax with a learned output α (runs of ``correia2019/output_alpha``) — ``table1_bleu.md``;
* Figures 2–6, attention maps, learning curves and the numbers behind them, with a computed statement per claim
             of the paper (:mod:`.analysis`) — ``analysis.md`` and the PNGs;
* §5.2 head roles (:mod:`.heads`) — ``head_roles.md``;
* training speed: ``speed.md`` is written by ``benchmarks/bench_transformer_speed.py`` (listed when present);
  the runs' own tokens/s are not reported (jobs shared the machine);
* the W&B report outline (:mod:`..wandb_report`) — ``wandb_report.md``; ``index.html`` and ``runs.jsonl``.

Each report is built in four steps: load the records (:mod:`.runs`), compute the cells, format the
text, write the file. Paper numbers come from ``papers.yaml`` only, in labelled reference columns.
"""
from __future__ import annotations

import re
from pathlib import Path
from statistics import mean
from typing import Any, Mapping, Sequence

from . import alpha_rule
from . import analysis
from .analysis import alpha_room
from . import claims
from . import heads
from .. import mt_common
from .runs import (CONFIGS, EXTRAS, LABELS, LEARNED, PAIRS, PAPER, TABLE1, TABLE1_VARIANTS, alpha_lr_controls,
                   alpha_lr_of, analysed, by_key, collect, committed, seed_of, split, variant_of, write_extras)
from ..claims import table
from ..index import write_configs, write_index
from ..mt_common import BLEU_DIR, curve_summary, mean_std, pair_of, pair_status, settings_rows, values
from ..numbers import pick
from ..records import relative_run, runs_root, scrub
from ..reference import reference
from ..tables import MISSING, NONE, md_table

ARTIFACTS = [
    ("Claims", "claims.md", "every claim of the paper: the test, our estimate with its interval, the verdict"),
    ("Table 1 (BLEU)", "table1_bleu.md",
     "tokenized BLEU beside the paper's, SacreBLEU with signatures, seeds, out-of-domain sets, convergence, "
     "learned output α (beyond the paper), run speeds"),
    ("Figures 2–6: numbers", "analysis.md",
     "α trajectories and histograms, head density, JS per layer, learning curves, every head's α"),
    ("Figure 2 (α trajectories)", "figure2_alpha_trajectories.png", "every head's learned α over training"),
    ("Figure 3 (learned α)", "figure3_alpha_histograms.png", "histograms of the learned α per attention type"),
    ("Figure 4 (head density)", "figure4_density_histograms.png", "head density, 1.5-entmax against α-entmax"),
    ("Figure 5 (sorted head density)", "figure5_sorted_density.png", "each layer's head densities, sorted"),
    ("Figure 6 (JS head diversity)", "figure6_js_per_layer.png", "JS head diversity per layer and model"),
    ("Learning curves", "learning_curves.png", "validation token accuracy against training step, every run"),
    ("Head roles (§5.2)", "head_roles.md", "positional, BPE-merging and interrogation heads vs the paper"),
    ("Training speed", "speed.md", "benchmark: training tokens/s, 1.5-entmax and α-entmax as ratios to softmax"),
    ("W&B report", "wandb_report.md", "outline of the W&B report (saved to W&B when online with a key)"),
    ("Run configs", "runs.jsonl", "config, hash and metrics of every run used"),
    ("Run records", "run_extras.jsonl", "the rest of every run's record (per-head α at every recorded step, head "
     "statistics at step 0 and at the end, validation curves): with runs.jsonl, `--report-only` rebuilds every "
     "file here without run directories"),
]
SPEED = "speed.md"      # written by benchmarks/bench_transformer_speed.py; the index links it only when present


# ---------------------------------------------------------------- reference
def paper_bleu(ref: Mapping[str, Any], variant: str, pair: str) -> float | None:
    """The paper's Table 1 cell (papers.yaml ``table1_bleu``: columns "<pair> <corpus>")."""
    t = ref.get("table1_bleu", {})
    cols = [str(c).split()[0] for c in t.get("columns", [])]
    row = t.get("rows", {}).get(variant)
    if not row or pair not in cols or row[cols.index(pair)] is None:
        return None
    return float(row[cols.index(pair)])


def paper_corpus(ref: Mapping[str, Any], pair: str) -> str:
    cols = [str(c).split(maxsplit=1) for c in ref.get("table1_bleu", {}).get("columns", [])]
    return next((c[1] for c in cols if c[0] == pair and len(c) > 1), "?")


# ---------------------------------------------------------------- header
def model_line(c: Mapping[str, Any]) -> str:
    m = c["model"]
    return (f"model: Transformer, {m['enc_layers']} encoder / {m['dec_layers']} decoder layers, {m['heads']} heads, "
            f"d {m['d_model']}, FF {m['d_ff']}, dropout {m['dropout']}, attention dropout {m['attn_dropout']}, "
            f"output {'tied to' if m.get('tie_output') else 'separate from'} the target embedding")


def training_line(c: Mapping[str, Any]) -> str:
    t = c["task"]
    patience = t.get("early_stopping_patience")
    stop = (f"early stopping after {patience} validations without a better validation token accuracy (min delta "
            f"{t.get('early_stopping_min_delta', 0.0)}), best state kept" if patience is not None
            else "no early stopping (step cap), best validation state kept")
    return (f"training: Adam (0.9, 0.98), peak lr {t['lr']} after a linear warm-up over {t['warmup_steps']} steps, "
            f"then inverse-sqrt decay; α parameters at {'the same lr' if not t.get('alpha_lr') else t['alpha_lr']}; "
            f"batches of at most {t['batch_tokens']} padded tokens; at most {c['trainer']['max_steps']} steps, "
            f"validation every {c['trainer']['val_check_interval']} steps; {stop}")


def paper_profile_config() -> Mapping[str, Any] | None:
    """The ``paper`` profile's Table 1 job config (composed from ``conf/``), or None where it cannot be composed."""
    from omegaconf import OmegaConf

    from ..profile_diff import compose
    try:
        c = compose(TABLE1, "paper")
        # only the groups the rule reads (the hydra node needs a running job to resolve)
        return {k: OmegaConf.to_container(c[k], resolve=True) for k in ("task", "trainer", "model", "data")}
    except Exception:      # a report must not fail on a config it only quotes (e.g. an unknown data root)
        return None


def scaling_rule(c: Mapping[str, Any], paper: Mapping[str, Any] | None) -> list[str]:
    """What the profile reduces, and how each protocol quantity follows from the paper profile's."""
    if paper is None:
        return ["scaling rule: the paper profile's config could not be composed"]
    t, tr, m = c["task"], c["trainer"], c["model"]
    pt, ptr, pm = paper["task"], paper["trainer"], paper["model"]
    steps, psteps = int(tr["max_steps"]), int(ptr["max_steps"])
    w, pw = int(t["warmup_steps"]), int(pt["warmup_steps"])
    same_fraction = steps > 0 and psteps > 0 and abs(w / steps - pw / psteps) < 1e-9
    a_lr, pa_lr = float(t.get("alpha_lr") or t["lr"]), float(pt.get("alpha_lr") or pt["lr"])
    # the paper's interval for this run's direction (the composed paper config resolves its default direction's)
    v, pv = int(tr["val_check_interval"]), int(paper["data"]["pairs"][c["data"]["pair"]]["val_every"])
    corpus = c["data"]["pairs"][c["data"]["pair"]]["train"].split("/")[0]
    lines = [
        f"scaling rule — reduced: corpus {corpus} instead of the paper's (IWSLT17 for de-en); depth "
        f"{m['enc_layers']} + {m['dec_layers']} layers (paper profile {pm['enc_layers']} + {pm['dec_layers']}); width "
        f"d {m['d_model']}, FF {m['d_ff']} (paper {pm['d_model']}, {pm['d_ff']}); heads {m['heads']} (paper "
        f"{pm['heads']}); batches of {t['batch_tokens']} tokens (paper {pt['batch_tokens']}); step budget {steps:,} "
        f"(paper profile {psteps:,}); peak lr {t['lr']} (paper {pt['lr']}), not scaled",
        f"scaling rule — warm-up: {w:,} steps = {w / steps:.0%} of the step budget, "
        + (f"the paper profile's fraction ({pw:,} of {psteps:,})" if same_fraction else
           f"**not** the paper profile's fraction ({pw:,} of {psteps:,} = {pw / psteps:.0%})"),
        "scaling rule — α: " + ("the same optimiser, schedule and peak learning rate as every other weight, as in "
                                "the paper" if not t.get("alpha_lr") else
                                f"**its own peak learning rate {t['alpha_lr']}** ({a_lr / float(t['lr']):.1f} × the "
                                "other weights'; the paper trains α like every other weight), chosen so that")
        + f" the sum of α's learning rate over the budget (how far Adam can move its pre-sigmoid parameter) is "
          f"{alpha_room(a_lr, w, steps):.1f} (paper profile {alpha_room(pa_lr, pw, psteps):.1f}); why: "
          "`reports/correia2019/diagnosis/alpha_lr.md`",
        f"scaling rule — validation: every {v:,} steps, {steps // v} validations in the budget (paper profile every "
        f"{pv:,} of {psteps:,}: {psteps // pv}); the same number would be every {psteps and steps * pv // psteps:,} "
        "steps — ours is finer, for the choice of the best checkpoint",
        "scaling rule — budget: one fixed step budget for the three models, no early stopping, each evaluated at "
        "its best validation state (the convergence table of `table1_bleu.md` checks that each stopped improving "
        "before the budget)" if t.get("early_stopping_patience") is None else
        "scaling rule — budget: early stopping, so the models may train different numbers of steps",
    ]
    return lines


def reductions(profile: str, options: Mapping[str, Any], recs: Sequence[dict], ref: Mapping[str, Any],
               rule_line: str = "") -> list[str]:
    """The profile's scale in words, read from the run configs (the plan says only what was run); the α lines from
    a run that learns α. ``rule_line``: the α rule's side experiment in one line."""
    if not recs:
        return [f"profile `{profile}`: no finished runs yet"]
    c = next((r for r in recs if variant_of(r) in LEARNED), recs[0])["config"]
    seeds = sorted({seed_of(r) for r in recs})
    lines = [f"profile **{profile}**; directions run: {', '.join(options.get('pairs', [])) or 'none'}; "
             f"seeds {seeds}",
             model_line(c), training_line(c), *(scaling_rule(c, paper_profile_config()) if profile != "paper" else []),
             *([rule_line] if rule_line else []),
             f"decoding: beam {c['task']['beam']}, length normalisation {c['task'].get('length_norm', 0.0)}, at most "
             f"{c['task']['max_decode_len']} BPE tokens",
             f"paper (papers.yaml `training`): {ref.get('training', NONE)}"]
    reasons = dict(options.get("not_run") or {})
    lines += [f"{p}: not run — {reasons[p]}" for p in PAIRS if p in reasons and p not in options.get("pairs", [])]
    return lines


def header(title: str, profile: str, options, recs, ref, rule_line: str = "") -> str:
    lines = [f"# {title}", "", f"Correia, Niculae & Martins (2019). Profile: **{profile}**.", "",
             "Settings of this profile (from the run configs):", ""]
    lines += [f"- {x}" for x in reductions(profile, options, recs, ref, rule_line)]
    return "\n".join(lines) + "\n\n"


# ---------------------------------------------------------------- Table 1: cells
def variants_present(recs) -> list[str]:
    """The Table 1 rows, and the output-α row when such runs exist."""
    extra = ["output_alpha"] if any(variant_of(r) == "output_alpha" for r in recs) else []
    return [*TABLE1_VARIANTS, *extra]


def bleu_cell(rs: Sequence[dict], status: str | None, metric: str) -> str:
    if status is not None:
        return status
    vals = values(rs, metric)
    return mean_std(vals) if vals else MISSING


def table1_rows(recs, options, ref, metric: str = "bleu_tok", with_paper: bool = True) -> list[list[Any]]:
    g = by_key(recs)
    rows = []
    for v in variants_present(recs):
        row = [LABELS[v]]
        for p in PAIRS:
            row.append(bleu_cell(g.get((p, v), []), pair_status(options, p), metric))
            if with_paper:
                x = paper_bleu(ref, v, p)
                row.append(f"{x:.2f}" if x is not None else NONE)
        rows.append(row)
    return rows


def table1_header(ref, with_paper: bool = True) -> list[str]:
    hdr = ["attention"]
    for p in PAIRS:
        hdr += [f"{p} (ours)", f"{p} (paper, {paper_corpus(ref, p)})"] if with_paper else [p]
    return hdr


def test_set_lines(recs, ref) -> list[str]:
    """Which test set each direction run is scored on, against the paper's."""
    out = {}
    for r in recs:
        e = r.get("extra", {})
        sp = e.get("splits", {})
        n = sp.get("test", {}).get("n", "?")
        extra = ", ".join(f"{k.split(':', 1)[1]}: {x['spec']} ({x['n']})" for k, x in sorted(sp.items())
                          if k.startswith("extra:"))
        out.setdefault(pair_of(r), f"- **{pair_of(r)}**: ours trained on {e.get('corpus', '?')}, Table 1 scored on "
                                   f"`{e.get('test', {}).get('spec', '?')}` ({n} sentences)"
                                   + (f"; out of domain: {extra}" if extra else "")
                                   + f"; paper: {paper_corpus(ref, pair_of(r))} test")
    return list(out.values())


def extra_rows(recs) -> list[list[Any]]:
    """Out-of-domain sets (IWSLT17 test for de-en trained on Multi30k): SacreBLEU / tokenized BLEU per variant."""
    g = by_key(recs)
    names = sorted({n for r in recs for n in r.get("extra", {}).get("extra_test", {})})
    rows = []
    for name in names:
        for p in PAIRS:
            rs = [r for v in variants_present(recs) for r in g.get((p, v), [])
                  if name in r["extra"].get("extra_test", {})]
            if not rs:
                continue
            spec = rs[0]["extra"]["extra_test"][name]
            row = [name, p, f"{spec['spec']} ({int(spec['metrics']['n'])})"]
            for v in variants_present(recs):
                got = g.get((p, v), [])
                row.append(f"{bleu_cell(got, None, f'bleu_{name}')} / {bleu_cell(got, None, f'bleu_tok_{name}')}")
            rows.append(row)
    return rows


def schedule_of(rec) -> tuple:
    """(step budget, peak lr, warm-up, validation interval, early-stopping patience) of a run; α's own lr, which
    only runs that learn α have, is the α rule (:func:`equal_budget_lines` names it apart)."""
    t, tr = rec["config"]["task"], rec["config"]["trainer"]
    return (tr.get("max_steps"), t.get("lr"), t.get("warmup_steps"), tr.get("val_check_interval"),
            t.get("early_stopping_patience"))


def budget_verdict(rec) -> dict[str, Any]:
    """Whether a run trained its whole step budget and had stopped improving before its end
    (:func:`mt_common.convergence`): ``ok`` True / False, and the reason in words."""
    m, budget = rec["metrics"], rec["config"]["trainer"].get("max_steps")
    conv = mt_common.convergence(rec.get("extra", {}).get("history", []))
    steps = int(m["steps"]) if m.get("steps") is not None else None
    if steps is None or budget is None or budget < 0 or steps < budget:
        why = "early stopping" if rec.get("extra", {}).get("stopped_early") else "unknown"
        return {**conv, "ok": False, "why": f"no: ended at step {steps} of the {budget} budget ({why})"}
    if conv["stopped"] is None:
        return {**conv, "ok": False, "why": f"not judged: {conv['why']}"}
    return {**conv, "ok": bool(conv["stopped"]),
            "why": "yes" if conv["stopped"] else "no: still improving at the budget"}


def convergence_rows(recs) -> list[list[Any]]:
    rows = []
    for r in recs:
        e, m = r.get("extra", {}), r["metrics"]
        v = budget_verdict(r)
        rows.append([pair_of(r), LABELS[variant_of(r)], seed_of(r), len(e.get("history", [])),
                     int(m["steps"]) if m.get("steps") is not None else NONE, r["config"]["trainer"].get("max_steps"),
                     int(m["best_step"]) if m.get("best_step") is not None else NONE,
                     curve_summary(e.get("history", [])),
                     f"{v['trend']:+.2f}" if "trend" in v else NONE, f"{v['record']:+.2f}" if "record" in v else NONE,
                     v["why"]])
    return rows


def equal_budget_lines(recs) -> list[str]:
    """One step budget and one schedule for every Table 1 run, each trained to its budget and stopped improving
    before it: the condition under which Table 1 compares the models at equal training."""
    t1 = [r for r in recs if variant_of(r) in TABLE1_VARIANTS]
    if not t1:
        return []
    schedules = sorted({schedule_of(r) for r in t1}, key=str)
    trained = sorted({int(r["metrics"].get("steps", -1)) for r in t1})
    done = [budget_verdict(r)["ok"] for r in t1]
    words = "step budget {}, peak lr {}, warm-up {}, validation every {} steps, early-stopping patience {}"
    alpha_lrs = sorted({alpha_lr_of(r) or float(r["config"]["task"]["lr"]) for r in t1 if variant_of(r) in LEARNED})
    lines = [("one step budget and one schedule for all Table 1 runs: " + words.format(*schedules[0]))
             if len(schedules) == 1 else
             (f"**{len(schedules)} different budgets / schedules** among the Table 1 runs: "
              + "; ".join(words.format(*s) for s in schedules)),
             f"steps trained: {', '.join(f'{s:,}' for s in trained)}"
             + (" (the same for every run)" if len(trained) == 1 else " — **not the same for every run**"),
             f"stopped improving before the budget ({mt_common.convergence_rule()}): {sum(done)} of {len(done)} runs"]
    ok = len(schedules) == 1 and len(trained) == 1 and all(done)
    lines.append("equal budgets: **yes** — every model trained the same steps under one schedule and had stopped "
                 "improving before the budget" if ok else
                 "equal budgets: **no** — Table 1 does not compare the models at equal, converged training")
    if alpha_lrs:
        lines.append("the learned α's peak lr (the α rule, α-entmax only): " + ", ".join(f"{x:g}" for x in alpha_lrs))
    return lines


def val_acc_spread(recs) -> list[str]:
    """Per direction: how far apart the Table 1 models are in best validation token accuracy (means over seeds)."""
    g = by_key(recs)
    out = []
    for p in PAIRS:
        acc = {v: mean(values(g[(p, v)], "val_acc_best")) for v in TABLE1_VARIANTS
               if (p, v) in g and values(g[(p, v)], "val_acc_best")}
        if len(acc) >= 2:
            out.append(f"{p}: the Table 1 models lie within {max(acc.values()) - min(acc.values()):.2f} points of "
                       "best validation token accuracy (" + ", ".join(f"{LABELS[v]} {a:.2f}" for v, a in acc.items())
                       + ")")
    return out


# ---------------------------------------------------------------- output α and speed
def output_alpha_rows(recs) -> list[list[Any]]:
    """Per direction with output-α runs: α-entmax with softmax output against α-entmax with a learned output α."""
    g = by_key(recs)
    rows = []
    for p in PAIRS:
        base, learned = g.get((p, "alpha_entmax"), []), g.get((p, "output_alpha"), [])
        if not learned:
            continue
        for metric in ("bleu_tok", "bleu", "val_acc_best"):
            b, o = values(base, metric), values(learned, metric)
            diff = mean(o) - mean(b) if b and o else None
            rows.append([p, metric, mean_std(b), len(b), mean_std(o), len(o), diff])
        rows.append([p, "output α (final)", "1 (softmax)", len(base), mean_std(values(learned, "output_alpha"), 3),
                     len(learned), None])
    return rows


def output_alpha_verdict(recs) -> list[str]:
    """Whether the learned output α helps over the softmax output, read from the tokenized BLEU and the
    validation accuracy (no significance test; the seed counts are given)."""
    out = []
    g = by_key(recs)
    for p in PAIRS:
        base, learned = g.get((p, "alpha_entmax"), []), g.get((p, "output_alpha"), [])
        b, o = values(base, "bleu_tok"), values(learned, "bleu_tok")
        if not learned:
            continue
        if not b or not o:
            out.append(f"- {p}: no α-entmax run with softmax output to compare with")
            continue
        d = mean(o) - mean(b)
        acc = mean(values(learned, "val_acc_best")) - mean(values(base, "val_acc_best"))
        word = "helps" if round(d, 2) > 0 else "does not help" if round(d, 2) < 0 else "makes no difference"
        out.append(f"- {p}: the learned output α {word} on tokenized BLEU ({d:+.2f} BLEU; validation token "
                   f"accuracy {acc:+.2f} points), over {len(o)} vs {len(b)} seed(s), no significance test")
    return out


# ---------------------------------------------------------------- Table 1: text
INTRO = (
    "**Tokenized BLEU** (the paper's metric) is the first table, beside the paper's; **detokenized SacreBLEU** the "
    "second. Each cell: mean over seeds, ± the sample standard deviation when there are several. Paper columns: "
    "papers.yaml `correia2019.table1_bleu` (reference only, on the paper's corpora; outside the `paper` profile "
    "they are not like for like: the list above says which test set ours uses). All three models have a softmax "
    "output layer, as in the paper.\n\n")


SPEED_MODEL = re.compile(r"^- model: Transformer, (\d+) encoder / (\d+) decoder layers, (\d+) heads, d (\d+), "
                         r"FF (\d+).*?learns (\d+) α's", re.M)


def speed_model_check(out: Path, recs) -> str:
    """Whether ``speed.md`` measured the Table 1 model: its model line against the runs' model config."""
    path = Path(out) / SPEED
    if not path.is_file() or not recs:
        return ""
    m = recs[0]["config"]["model"]
    want = (m["enc_layers"], m["dec_layers"], m["heads"], m["d_model"], m["d_ff"],
            m["heads"] * (m["enc_layers"] + 2 * m["dec_layers"]))     # a learned α per head: enc self, dec self, context
    words = "{} + {} layers, {} heads, d {}, FF {}, {} α's"
    found = SPEED_MODEL.search(path.read_text(encoding="utf-8"))
    if found is None:
        return f"`{SPEED}` names no model: re-measure it (`make bench-transformer-speed PROFILE=<profile>`)."
    got = tuple(int(x) for x in found.groups())
    if got == tuple(int(x) for x in want):
        return f"`{SPEED}` measured the Table 1 model ({words.format(*got)})."
    return (f"**`{SPEED}` is stale**: it measured {words.format(*got)}, not the Table 1 model ({words.format(*want)}); "
            "re-measure it on an otherwise idle machine with `make bench-transformer-speed PROFILE=<profile>`.")


def table1_text(profile: str, options, recs, ref, file_rows: Sequence[Sequence[Any]] = (),
                left_out: Sequence[str] = (), speed_note: str = "", rule: Sequence[alpha_rule.RuleRow] = ()) -> str:
    """``left_out``: the run directories of finished runs that are no Table 1 cell (named in the header);
    ``rule``: the α rule's side experiment."""
    alpha_lr = options.get("alpha_lr")
    rule_line = alpha_rule.summary(rule, alpha_lr) if rule else ""
    text = header("Table 1 — BLEU of softmax, 1.5-entmax and α-entmax attention", profile, options, recs, ref,
                  rule_line)
    if left_out:
        text += (f"Left out: {len(left_out)} finished run(s) whose attention blocks mix normalizers, use another α "
                 f"or another output α, so they are no cell of this table: {', '.join(f'`{d}`' for d in left_out)}."
                 "\n\n")
    sr = settings_rows(recs)
    if sr:
        text += "Per direction (from the run configs and records; sizes are sentence pairs):\n\n"
        text += md_table(["direction", "corpus", "train", "validation", "test (reported)", "extra test sets",
                          "BPE merges", "validation", "max steps", "early stopping"], sr) + "\n"
    text += "Test sets:\n\n" + ("\n".join(test_set_lines(recs, ref)) or "- no runs") + "\n\n"
    text += ("How BLEU is computed (from the records):\n\n" + ("\n".join(mt_common.tokenization_lines(recs))
                                                                or "- no runs") + "\n\n")
    text += INTRO + "## Tokenized BLEU (ours) beside the paper\n\n"
    text += md_table(table1_header(ref), table1_rows(recs, options, ref, "bleu_tok"))
    text += "\n## Detokenized SacreBLEU (ours)\n\n"
    text += md_table(table1_header(ref, False), table1_rows(recs, options, ref, "bleu", with_paper=False))
    ex = extra_rows(recs)
    if ex:
        text += ("\n## Out-of-domain test sets (the same models)\n\nModels trained on the profile's corpus, decoded "
                 "on an extra test set (for de-en trained on Multi30k: IWSLT17 test, the paper's test domain). "
                 "Cells: SacreBLEU / tokenized BLEU.\n\n")
        text += md_table(["set", "direction", "test data (sentences)",
                          *(LABELS[v] for v in variants_present(recs))], ex)
    oa = output_alpha_rows(recs)
    if oa:
        text += ("\n## Beyond the paper: a learned output α\n\nα-entmax attention with the softmax output of Table 1 "
                 "against α-entmax attention whose output layer learns its α too (`correia2019/output_alpha`: a "
                 "learnable `sparselab.mappings.Entmax` starting at 1.5, trained through the Fenchel–Young loss). "
                 "Difference = learned output α − softmax output, means over seeds.\n\n")
        text += md_table(["direction", "metric", "softmax output", "seeds", "learned output α", "seeds",
                          "difference"], oa)
        text += "\n" + "\n".join(output_alpha_verdict(recs)) + "\n"
    if rule:
        text += alpha_rule.text(rule, alpha_lr)
    conv = convergence_rows(recs)
    if conv:
        text += ("\n## Convergence of each run\n\nEach model is evaluated at its best validation state (validation "
                 "token accuracy, teacher forcing). Equal budgets:\n\n"
                 + "\n".join(f"- {line}" for line in equal_budget_lines(recs)) + "\n\n"
                 f"Trend / record: the gain of the smoothed curve and of the best validation over the last "
                 f"{mt_common.PLATEAU_STEPS:,} steps (both below {mt_common.PLATEAU_GAIN} points: stopped improving)."
                 "\n\n")
        text += md_table(["direction", "attention", "seed", "validations", "steps trained", "step budget", "best step",
                          "val. token accuracy: first → best (step) → last", "trend", "record",
                          "stopped improving before the budget"], conv)
        text += "".join(f"\n{line}\n" for line in val_acc_spread(recs))
        # no tokens/s from the runs: they shared the machine with other jobs, so their ratios measure contention
        text += (f"\n## Training speed\n\nNot read from these runs, which shared the machine with other jobs. "
                 f"`{SPEED}` (`benchmarks/bench_transformer_speed.py`) measures the three side by side on the same "
                 "batches, beside the paper's ratios." + (f" {speed_note}" if speed_note else "") + "\n")
    text += mt_common.bleu_cli_section(file_rows, "<direction>.<attention>[.alpha_lr<α's lr>].seed<seed>.<set>")
    return text


def bleu_file_stem(rec, set_name: str) -> str:
    """Named by the cell; a run with α's own learning rate adds it (the α rule and its control share a cell)."""
    lr = alpha_lr_of(rec) if variant_of(rec) in LEARNED else None
    return f"{pair_of(rec)}.{variant_of(rec)}{'' if lr is None else f'.alpha_lr{lr:g}'}.seed{seed_of(rec)}.{set_name}"


def restore_files(rec, report: Path) -> int:
    """A committed run's BLEU files back into its run directory (``sparselab.reports.restore``)."""
    from ..restore import restore_bleu_files

    return restore_bleu_files(rec, Path(report), bleu_file_stem)


# ---------------------------------------------------------------- all reports
def write_wandb_outline(out: Path, profile: str) -> Path:
    """The W&B report's outline (offline it cannot be saved: ``python -m sparselab.reports.wandb_report``)."""
    from .. import wandb_report

    path = Path(out) / "wandb_report.md"
    path.write_text(wandb_report.outline(wandb_report.build(PAPER, profile), profile) + "\n", encoding="utf-8")
    return path


def index_items(out: Path) -> list[tuple[str, str, str]]:
    # speed.md is the benchmark's (make reproduce-correia2019 runs it first); write_index names it when absent
    return ARTIFACTS + [(f"Attention maps: {p.stem.removeprefix('attention_maps_')}", p.name,
                     "one example sentence, every head of every layer (exact zeros white)")
                    for p in sorted(out.glob("attention_maps_*.png"))]


def write_reports(profile: str, out: Path, options: Mapping[str, Any], runs=None,
                  ref: Mapping[str, Any] | None = None) -> list[dict]:
    """Every report file of the paper in ``out``; returns the records behind them."""
    runs = runs_root() if runs is None else runs
    ref = reference(PAPER) if ref is None else ref
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    alpha_lr = options.get("alpha_lr")
    recs, others = collect(runs, profile, alpha_lr)
    live = bool(recs or others)
    if not live:
        # a clone without run directories: the records committed beside the report (runs.jsonl + run_extras.jsonl)
        recs, others = split(committed(out, runs), alpha_lr)
        if recs:
            print(f"[{PAPER}] no run records of profile {profile} under the runs root: reports rebuilt from the "
                  f"committed {CONFIGS} and {EXTRAS} ({len(recs)} runs)", flush=True)
    controls = alpha_lr_controls(others, alpha_lr)
    others = [r for r in others if not any(r is c for c in controls)]
    file_rows = mt_common.copy_bleu_files(out, [*recs, *controls], bleu_file_stem, copy=live)
    rule = alpha_rule.rows(out / BLEU_DIR, [r for r in recs if variant_of(r) == "alpha_entmax"], controls,
                           bleu_file_stem)
    left_out = [relative_run(r["run_dir"], runs) for r in others]
    speed_note = speed_model_check(out, recs)
    analysed_runs = analysed(options, recs)
    found = claims.claims(out / BLEU_DIR, recs, bleu_file_stem, analysed_runs, ref)
    (out / "claims.md").write_text(scrub(claims.claims_text(profile, found), runs))
    (out / "table1_bleu.md").write_text(scrub(table1_text(profile, options, recs, ref, file_rows, left_out, speed_note,
                                                          rule)
                                              + "\n## The paper's claims on BLEU (rows of `claims.md`)\n\n"
                                              + table([c for c in found if c.section == claims.S4]), runs))
    rule_line = alpha_rule.summary(rule, alpha_lr) if rule else ""
    settings = reductions(profile, options, recs, ref, rule_line)     # composes the paper profile: once
    alpha_lines = [x for x in settings if x.startswith(("scaling rule — α", "α rule"))]
    text = analysis.write(out, profile, options, recs, ref, alpha_lines)
    text += claims.per_head_section(analysed_runs) + ("\nThe claims these numbers test: `claims.md`. The paper's §5 "
                                                      "analyses are on en-de WMT14; ours on de-en Multi30k.\n")
    (out / "analysis.md").write_text(scrub(text, runs))
    (out / "head_roles.md").write_text(scrub(heads.head_roles_text(profile, options, recs, ref), runs))
    write_wandb_outline(out, profile)
    # the left-out runs too: the table names them, and --report-only from these files names them again
    write_configs(out, [*recs, *controls, *others], runs)
    write_extras(out, [*recs, *controls, *others], runs)
    note = "; ".join(settings)
    write_index(out, f"Correia, Niculae & Martins (2019) — adaptively sparse Transformers, profile {profile}",
                index_items(out), recs, notes=note, runs=runs, profile=profile, claims=found)
    return recs


def numbers(runs, profile: str) -> dict[str, dict[str, float]]:
    """Per run (direction, attention, seed): the metrics the tables read (timings left out)."""
    names = ("bleu", "bleu_tok", "val_acc_best", "output_alpha", "density_enc_self", "density_dec_self",
             "density_context")
    out = {}
    for r in collect(runs, profile)[0]:
        extra = [f"{m}_{n}" for n in r.get("extra", {}).get("extra_test", {}) for m in ("bleu", "bleu_tok")]
        js = sorted(k for k in r["metrics"] if k.startswith("js_"))
        out[f"table1_bleu/{pair_of(r)},{variant_of(r)},seed={seed_of(r)}"] = pick(r["metrics"], [*names, *extra, *js])
    return out
