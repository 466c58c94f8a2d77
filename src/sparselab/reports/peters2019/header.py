"""The header of every Peters report file: the profile's reductions and settings, read from the run configs."""
from __future__ import annotations

from typing import Any, Mapping

from .runs import mt_options, seed_of, settings_run
from ..tables import md_header
from ..templates import template

text = template(__name__)
SETTINGS = "Reductions / settings of this profile (from the run configs):"
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
    languages = (text("languages_listed", names=", ".join(d["languages"]), n=len(d["languages"])) if d.get("languages")
                 else text("languages_first", first=first(d["max_languages"]), decoded=", ".join(map(str, n_lang))))
    lines = text("settings_inflection", profile=profile, settings=", ".join(settings_run(options)), seeds=seeds,
                 ensembles="yes" if options.get("ensemble") else "no", languages=languages,
                 train=first(d["train_per_language"]), val=first(d["val_per_language"]),
                 schedule=validation_schedule(tr, t), eval=first(d["eval_per_language"]), m=m, t=t, tr=tr,
                 halving=halving_rule(t)).splitlines()
    if profile == "cpu":                  # the rule from the paper's protocol to the cpu miniature
        lines.append(scaling_rule(recs))
    epochs = [float(r["metrics"]["train_samples"]) / int(r["extra"]["n_train"])
              for r in recs if r["metrics"].get("train_samples") and r.get("extra", {}).get("n_train")]
    if epochs:
        lines.append(f"epochs actually trained: {min(epochs):.2f}–{max(epochs):.2f} "
                     f"(paper: until dev accuracy stops improving)")
    return lines


def scaling_rule(recs: list[dict]) -> str:
    """The cadence is kept in epochs; the updates between two validations are read from the records."""
    c = recs[0]["config"]
    every = int(c["trainer"].get("check_val_every_n_epoch") or 1)
    n_train = [int(r["extra"]["n_train"]) for r in recs if r.get("extra", {}).get("n_train")]
    per_epoch = f"{n_train[0] / int(c['task']['batch_size']) * every:,.0f} updates" if n_train else "–"
    return text("scaling_inflection", every=every, plural="s" if every > 1 else "", per_epoch=per_epoch,
                patience=c["task"].get("early_stopping_patience"))


def inflection(title: str, profile: str, options: Mapping[str, Any], recs) -> str:
    return md_header(title, f"Peters, Niculae & Martins (2019), CoNLL–SIGMORPHON 2018 task 1. Profile: "
                     f"**{profile}**.", SETTINGS, reductions(profile, options, recs))


# ---------------------------------------------------------------- translation
def mt_reductions(profile: str, options: Mapping[str, Any], recs) -> list[str]:
    """The MT profile's scale in words, read from the run configs (the plan says only what was run)."""
    opts = mt_options(options)
    if not recs:
        return [f"profile `{profile}`: no finished MT runs yet"]
    c = recs[0]["config"]
    m, t, d = c["model"], c["task"], c["data"]
    seeds = sorted({seed_of(r) for r in recs})
    lines = text("settings_mt", profile=profile, pairs=", ".join(opts.get("pairs", [])) or "none", seeds=seeds,
                 m=m, t=t, d=d, halving=halving_rule(t, "one"), train=first(d["max_train"]), val=first(d["max_val"]),
                 test=first(d["max_test"]), extra=first(d["max_extra_test"]),
                 length_norm=t.get("length_norm", 0.0)).splitlines()
    if profile == "cpu":                  # the rule from the paper's protocol to the cpu miniature
        lines.append(mt_scaling_rule(recs))
    for p, reason in sorted((opts.get("not_run") or {}).items()):
        lines.append(f"{p}: not run — {reason}")
    return lines


def mt_scaling_rule(recs) -> str:
    """Per direction: the epochs of the reference budget, validations per budget, patience in updates."""
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
    return md_header(title, f"Peters, Niculae & Martins (2019), machine translation. Profile: **{profile}**.",
                     SETTINGS, mt_reductions(profile, options, recs))

