"""One pair of MT systems on one test set: sacrebleu's paired bootstrap p and the variance of the BLEU difference."""
from __future__ import annotations

from pathlib import Path

import numpy as np
from sacrebleu.metrics import BLEU

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
