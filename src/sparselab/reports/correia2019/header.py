"""What every Correia report starts with: the profile's settings from the run configs, and its scaling rule."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from .analysis import alpha_room
from .runs import LEARNED, PAIRS, TABLE1, seed_of, variant_of
from ..tables import NONE, md_header
from ..templates import template

text = template(__name__)


def training_line(c: Mapping[str, Any]) -> str:
    t = c["task"]
    patience = t.get("early_stopping_patience")
    stop = (text("stop_early", patience=patience, min_delta=t.get("early_stopping_min_delta", 0.0))
            if patience is not None else text("stop_cap"))
    return text("training", t=t, tr=c["trainer"], alpha_lr=t["alpha_lr"] if t.get("alpha_lr") else "the same lr",
                stop=stop)


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
    warmup = dict(w=w, frac=w / steps, pw=pw, psteps=psteps)
    return [
        text("rule_reduced", corpus=corpus, m=m, pm=pm, t=t, pt=pt, steps=steps, psteps=psteps),
        text("rule_warmup_same", **warmup) if same_fraction else text("rule_warmup_other", pfrac=pw / psteps, **warmup),
        (text("rule_alpha_own", alpha_lr=t["alpha_lr"], ratio=a_lr / float(t["lr"])) if t.get("alpha_lr")
         else text("rule_alpha_same"))
        + text("rule_alpha_room", room=alpha_room(a_lr, w, steps), proom=alpha_room(pa_lr, pw, psteps)),
        text("rule_validation", v=v, n=steps // v, pv=pv, psteps=psteps, pn=psteps // pv,
             same=psteps and steps * pv // psteps),
        text("rule_budget_fixed") if t.get("early_stopping_patience") is None else text("rule_budget_early"),
    ]


def reductions(profile: str, options: Mapping[str, Any], recs: Sequence[dict], ref: Mapping[str, Any],
               rule_line: str = "") -> list[str]:
    """The profile's scale in words, read from the run configs; ``rule_line``: the α rule's side experiment."""
    if not recs:
        return [f"profile `{profile}`: no finished runs yet"]
    c = next((r for r in recs if variant_of(r) in LEARNED), recs[0])["config"]
    seeds = sorted({seed_of(r) for r in recs})
    lines = [f"profile **{profile}**; directions run: {', '.join(options.get('pairs', [])) or 'none'}; "
             f"seeds {seeds}",
             text("model", m=c["model"], tied="tied to" if c["model"].get("tie_output") else "separate from"),
             training_line(c), *(scaling_rule(c, paper_profile_config()) if profile != "paper" else []),
             *([rule_line] if rule_line else []),
             text("decoding", t=c["task"], length_norm=c["task"].get("length_norm", 0.0)),
             f"paper (papers.yaml `training`): {ref.get('training', NONE)}"]
    reasons = dict(options.get("not_run") or {})
    lines += [f"{p}: not run — {reasons[p]}" for p in PAIRS if p in reasons and p not in options.get("pairs", [])]
    return lines


def header(title: str, profile: str, options, recs, ref, rule_line: str = "") -> str:
    return md_header(title, f"Correia, Niculae & Martins (2019). Profile: **{profile}**.", "Settings of this profile "
                     "(from the run configs):", reductions(profile, options, recs, ref, rule_line))
