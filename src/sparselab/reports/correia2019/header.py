"""What every Correia, Niculae & Martins (2019) report starts with: the profile's settings read from the run
configs (model, training, decoding), the scaling rule against the paper profile, and the directions not run."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from .analysis import alpha_room
from .runs import LEARNED, PAIRS, TABLE1, seed_of, variant_of
from ..tables import NONE


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
