"""The header of every Peters report file: the profile's reductions and settings in words, read from the run configs
(the plan says only what was run); :func:`inflection` for the inflection files, :func:`translation` for the MT ones."""
from __future__ import annotations

from typing import Any, Mapping

from .runs import mt_options, seed_of, settings_run
from ..templates import template

text = template(__name__)
# the cpu budget's reference: 15,000 updates at batch 64 are about the paper's epochs per run (docs/peters2019.md)
BUDGET_UPDATES = 15000


def first(n) -> str:
    return "all" if int(n) == 0 else f"first {int(n)}"


def halving_rule(t: Mapping[str, Any], previous: str = "validation") -> str:
    """The learning-rate rule of the task config (``task.lr_rule``; records made before it existed: "best")."""
    return text("halving_previous", previous=previous) if t.get("lr_rule", "best") == "previous" else text("halving_best")


def validation_schedule(tr: Mapping[str, Any], t: Mapping[str, Any]) -> str:
    """When validation runs and when it stops training, from the trainer and task configs."""
    vci = tr.get("val_check_interval") or t.get("val_check_interval")
    every = int(tr.get("check_val_every_n_epoch") or 1)
    when = f"every {vci} batches" if vci else ("every epoch" if every == 1 else f"every {every} epochs")
    patience = t.get("early_stopping_patience")
    delta = float(t.get("early_stopping_min_delta") or 0.0)
    by = f" by more than {delta:g} points" if delta else ""
    start = float(t.get("early_stopping_start") or 0.0)
    unit = "point" if start == 1 else "points"
    counted = (f", counted once dev accuracy is more than {start:g} {unit} above its first validation"
               if start and patience is not None else "")
    stop = (f"; training stops when it has not improved{by} for {patience} validations (early stopping{counted})"
            if patience is not None else "; no early stopping")
    return when + stop


# ---------------------------------------------------------------- inflection
def reductions(profile: str, options: Mapping[str, Any], recs: list[dict]) -> list[str]:
    """The inflection profile's scale in words, read from the run configs."""
    if not recs:
        return [f"profile `{profile}`: no finished runs yet"]
    c = recs[0]["config"]
    d, m, t, tr = c["data"], c["model"], c["task"], c["trainer"]
    seeds = sorted({int(r["config"]["seed"]) for r in recs})
    n_lang = sorted({int(r["metrics"].get("n_languages", 0)) for r in recs})
    lines = [
        f"profile **{profile}**; settings run: {', '.join(settings_run(options))}; seeds {seeds}; "
        f"ensembles: {'yes' if options.get('ensemble') else 'no'}",
        (f"languages: {', '.join(d['languages'])} ({len(d['languages'])} of the setting; see conf/data)"
         if d.get("languages") else
         f"languages per setting: {first(d['max_languages'])} ({', '.join(map(str, n_lang))} decoded)"),
        f"training lines per language: {first(d['train_per_language'])}",
        f"model selection on dev: {first(d['val_per_language'])} "
        f"lines per language (greedy word accuracy), checked {validation_schedule(tr, t)}",
        f"reported accuracy on `{t['eval_split']}`: {first(d['eval_per_language'])} "
        f"lines per language, beam {t['beam']}",
        f"model: {m['enc_layers']}-layer BiLSTM encoder / {m['dec_layers']}-layer LSTM decoder, emb {m['emb_size']}, "
        f"hidden {m['hidden_size']}, dropout {m['dropout']} (paper: 2/2 layers, 300/300, 0.3)",
        f"training: Adam lr {t['lr']}, batch {t['batch_size']} (batches drawn from length-sorted pools), "
        f"max_epochs {tr['max_epochs']}, max_steps {tr['max_steps']}; {halving_rule(t)}",
    ]
    if profile == "cpu":                  # the rule from the paper's protocol to the cpu miniature
        lines.append(scaling_rule(recs))
    epochs = [float(r["metrics"]["train_samples"]) / int(r["extra"]["n_train"])
              for r in recs if r["metrics"].get("train_samples") and r.get("extra", {}).get("n_train")]
    if epochs:
        lines.append(f"epochs actually trained: {min(epochs):.2f}–{max(epochs):.2f} "
                     f"(paper: until dev accuracy stops improving)")
    return lines


def scaling_rule(recs: list[dict]) -> str:
    """How the profile's protocol follows from the paper's: the cadence is kept in epochs, and the
    updates between two validations it implies are read from the records."""
    c = recs[0]["config"]
    every = int(c["trainer"].get("check_val_every_n_epoch") or 1)
    n_train = [int(r["extra"]["n_train"]) for r in recs if r.get("extra", {}).get("n_train")]
    per_epoch = f"{n_train[0] / int(c['task']['batch_size']) * every:,.0f} updates" if n_train else "–"
    return text("scaling_inflection", every=every, plural="s" if every > 1 else "", per_epoch=per_epoch,
                patience=c["task"].get("early_stopping_patience"))


def inflection(title: str, profile: str, options: Mapping[str, Any], recs) -> str:
    lines = [f"# {title}", "", f"Peters, Niculae & Martins (2019), CoNLL–SIGMORPHON 2018 task 1. Profile: **{profile}**.", ""]
    lines += ["Reductions / settings of this profile (from the run configs):", ""]
    lines += [f"- {x}" for x in reductions(profile, options, recs)]
    return "\n".join(lines) + "\n\n"


# ---------------------------------------------------------------- translation
def mt_reductions(profile: str, options: Mapping[str, Any], recs) -> list[str]:
    """The MT profile's scale in words, read from the run configs (the plan says only what was run)."""
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
        f"{d['max_len']} BPE tokens dropped; {halving_rule(t, 'one')}; "
        f"model selection on validation token accuracy (teacher forcing); data limits per split: train "
        f"{first(d['max_train'])}, validation {first(d['max_val'])}, test {first(d['max_test'])}, extra test sets "
        f"{first(d['max_extra_test'])}",
        f"decoding: beam {t['beam']}, length normalisation {t.get('length_norm', 0.0)}, at most "
        f"min({t['max_decode_len']}, 2 × longest source + 10) BPE tokens",
    ]
    if profile == "cpu":                  # the rule from the paper's protocol to the cpu miniature
        lines.append(mt_scaling_rule(recs))
    for p, reason in sorted((opts.get("not_run") or {}).items()):
        lines.append(f"{p}: not run — {reason}")
    return lines


def mt_scaling_rule(recs) -> str:
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
    return text("scaling_mt", parts="; ".join(parts))


def translation(title: str, profile: str, options: Mapping[str, Any], recs) -> str:
    lines = [f"# {title}", "", f"Peters, Niculae & Martins (2019), machine translation. Profile: **{profile}**.", "",
             "Reductions / settings of this profile (from the run configs):", ""]
    lines += [f"- {x}" for x in mt_reductions(profile, options, recs)]
    return "\n".join(lines) + "\n\n"

