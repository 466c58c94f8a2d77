"""The sparsity and exactness of Peters et al. (2019) §5 on inflection (``sparsity.md``)."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from . import header
from .runs import SETTINGS, Config, best_key, by_config, settings_run, trained
from ..tables import MISSING, NOT_RUN, md_table, seed_mean
from ..templates import template

text = template(__name__)
NOT_RECORDED = "not recorded"


def best_rows(train, options: Mapping[str, Any], ref: Mapping[str, Any]) -> list[list[Any]]:
    """Per setting: the dev-best configuration, its accuracies and dev single-sequence / exact-beam shares."""
    sp_ref = ref.get("sparsity_inflection", {})
    single_ref = sp_ref.get("best_config_single_sequence_share", {})
    exact_ref = sp_ref.get("beam_exact_share", {})
    rows = []
    for s in SETTINGS:
        g = by_config(train[s]) if s in settings_run(options) else {}
        if not g:
            why = MISSING if s in settings_run(options) else NOT_RUN
            rows.append([s, why, "", "", "", single_ref.get(s), "", exact_ref.get(s)])
            continue
        k = best_key(g)
        rows.append([s, f"output α {k[0]}, attention α {k[1]}", seed_mean(g[k], "val_acc_best"),
                     seed_mean(g[k], "acc"), dev_share(g[k], "single"), single_ref.get(s),
                     dev_share(g[k], "exact"), exact_ref.get(s)])
    return rows


def dev_share(rs: Sequence[dict], kind: str) -> Any:
    """Mean ``val_<kind>_share`` over the runs; runs from before it was measured read "not recorded"."""
    v = seed_mean(rs, f"val_{kind}_share")
    return NOT_RECORDED if v is None else v


def grid_text(s: str, g: Mapping[Config, list[dict]]) -> str:
    vocab = g[sorted(g)[0]][0]["extra"].get("target_vocab_size", "?")
    return "\n" + text("grid", setting=s, vocab=vocab) + "\n\n" + md_table(
        ["output α", "attention α", "attended positions", "output support", "single-sequence share (dev)",
         "exact-beam share (dev)", "dev accuracy", "accuracy (eval split)"],
        [[k[0], k[1], seed_mean(g[k], "attn_support"), seed_mean(g[k], "out_support"), dev_share(g[k], "single"),
          dev_share(g[k], "exact"), seed_mean(g[k], "val_acc_best"), seed_mean(g[k], "acc")] for k in sorted(g)])


def sparsity_text(profile: str, options: Mapping[str, Any], train, ref: Mapping[str, Any]) -> str:
    out = header.inflection("Sparsity and exactness of beam search", profile, options, trained(train))
    out += text("intro") + "\n\n"
    out += md_table(["setting", "best configuration on dev (ours)", "dev accuracy", "accuracy (eval split)",
                     "single-sequence share, dev (ours)", "(paper)", "exact-beam share, dev (ours)", "(paper)"],
                    best_rows(train, options, ref))
    for s in settings_run(options):
        g = by_config(train[s])
        if g:
            out += grid_text(s, g)
    return out
