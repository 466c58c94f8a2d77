"""What the reports read of the head statistics (:mod:`.heads`, :mod:`.head_roles`): the attention types and the
positional-head rule over recorded per-layer statistics. Plain Python, so that a report starts without torch."""
from __future__ import annotations

import statistics
from typing import Mapping, Sequence

KINDS = ("enc_self", "dec_self", "context")


def positional_heads(stats_by_layer: Mapping[int, Mapping[str, Sequence[float]]], offset: int = -1,
                     threshold: float = 0.9) -> dict:
    """The positional heads for ``offset`` (−1 previous, +1 next) over every layer of one attention type, from
    :meth:`PositionalHeads.compute` per layer: heads whose largest weight is on that token for at least
    ``threshold`` of the queries (Voita et al. 2019), each with its confidence (mean weight on that token), and
    the median confidence (None without such heads)."""
    if offset not in (-1, 1):
        raise ValueError(f"offset: expected -1 (previous token) or 1 (next token), got {offset!r}")
    key = "prev" if offset == -1 else "next"
    heads = [{"layer": int(layer), "head": h, "confidence": float(stats[key][h]),
              "argmax_share": float(stats[f"{key}_argmax"][h])}
             for layer, stats in sorted(stats_by_layer.items()) for h in range(len(stats[key]))
             if float(stats[f"{key}_argmax"][h]) >= threshold]
    median = statistics.median(h["confidence"] for h in heads) if heads else None
    return {"offset": offset, "threshold": threshold, "heads": heads, "median_confidence": median}
