"""The NLI classifier's config of a run (Martins & Astudillo 2016, §4.3) as a plain container: the model node with
the vocabulary, vector size, padding id and the attention normaliser of ``task.attention`` filled in (chosen and
instantiated by the task, :mod:`sparselab.tasks.settings`)."""
from __future__ import annotations

from typing import Any, Mapping


def model_config(model: Mapping[str, Any], vocab_size: int, dim: int, normalizer: dict | None, pad_id: int) -> dict:
    mcfg = dict(model)
    mcfg.update(vocab_size=vocab_size, embedding_dim=dim, normalizer=normalizer, pad_id=pad_id)
    return mcfg
