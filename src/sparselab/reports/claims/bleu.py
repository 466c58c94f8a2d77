"""One pair of MT systems on one test set: sacrebleu's paired bootstrap p and the variance of the BLEU difference."""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterable

import numpy as np
from sacrebleu.metrics import BLEU

from . import stats
from .. import mt_common

RESAMPLES = 1000
SEED = 12345            # sacrebleu's own default seed (SACREBLEU_SEED), so the resamples are the CLI's


def _lines(path: Path) -> list[str]:
    return Path(path).read_text(encoding="utf-8").splitlines()


def pair(ref: Path, hyp_a: Path, hyp_b: Path) -> tuple[float, float, float]:
    """(BLEU a − BLEU b, its variance over sacrebleu's paired resamples, sacrebleu's paired p); tokenized BLEU."""
    _, (base, res) = mt_common.paired_bootstrap(ref, [hyp_b, hyp_a])
    metric, refs = BLEU(tokenize="none", force=True), [_lines(ref)]
    stats = [np.asarray(metric._extract_corpus_statistics(_lines(h), refs), dtype="float32") for h in (hyp_a, hyp_b)]
    idx = np.random.default_rng(SEED).choice(len(stats[0]), size=(RESAMPLES, len(stats[0])), replace=True)
    diff = [metric._compute_score_from_stats(stats[0][i].sum(0)).score
            - metric._compute_score_from_stats(stats[1][i].sum(0)).score for i in idx]
    return float(res.score - base.score), float(np.var(diff, ddof=1)), float(res.p_value)


def seed_pairs(folder: Path, runs: Iterable[tuple[dict, dict]], stem: Callable[[dict, str], str]) -> stats.Test | str:
    """(a, b) run pairs' tokenized test BLEU a − b from the files in ``folder``, combined with the seed variance
    (:func:`stats.combined_bleu`); the missing file's name when one is absent."""
    diffs, var = [], []
    for ra, rb in runs:
        f = [Path(folder) / f"{stem(r, 'test')}.tok" for r in (ra, rb)]
        if not all(Path(f"{x}.{k}.txt").exists() for x in f for k in ("hyp", "ref")):
            return f"BLEU files missing: {f[0].name}"
        d, v, _ = pair(Path(f"{f[0]}.ref.txt"), Path(f"{f[0]}.hyp.txt"), Path(f"{f[1]}.hyp.txt"))
        diffs.append(d)
        var.append(v)
    return stats.combined_bleu(diffs, var)
