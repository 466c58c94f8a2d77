"""A sequence-to-sequence model's config as a plain container, and saving / loading it.

Shared by every task that trains a :class:`~sparselab.models.seq2seq.Seq2Seq` (inflection, translation):
the config's ``_target_`` and sizes, with the vocabulary sizes and special ids filled in, are stored beside
the weights, so ``model.pt`` rebuilds the model and loads with ``torch.load(..., weights_only=True)``. The
``_target_`` is instantiated above this package (``sparselab.tasks.settings.build_model``, Hydra's instantiate):
models/ knows plain containers only.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Mapping

import torch

from sparselab.data.text import Vocab
from sparselab.models.seq2seq import Seq2Seq


def model_config(model: Mapping[str, Any], src: Vocab, tgt: Vocab) -> dict:
    """The model config (``_target_`` and its arguments, a plain resolved container) with the vocabulary sizes and
    special ids filled in: a plain dict that the task instantiates and ``model.pt`` stores."""
    mcfg = dict(model)
    mcfg.update(src_vocab=len(src), tgt_vocab=len(tgt), src_pad_id=src.pad_id, tgt_pad_id=tgt.pad_id,
                bos_id=tgt.bos_id, eos_id=tgt.eos_id)
    return mcfg


def save_model(path: Path, model: Seq2Seq, mcfg: dict, src: Vocab, tgt: Vocab, alpha: float, attn_alpha: float,
               langs: list[str]) -> None:
    """Weights and everything needed to rebuild the model, as plain containers (loads with weights_only=True)."""
    torch.save({"state_dict": {k: v.detach().cpu() for k, v in model.state_dict().items()}, "model_cfg": mcfg,
                "src_vocab": src.to_dict(), "tgt_vocab": tgt.to_dict(), "alpha": float(alpha),
                "attn_alpha": float(attn_alpha), "languages": list(langs)}, path)


def load_model(path: Path, build: Callable[[dict], Seq2Seq], device=None):
    """The model saved at ``path`` (built from its stored config by ``build``), its vocabularies and the stored blob."""
    blob = torch.load(path, map_location="cpu", weights_only=True)
    src, tgt = Vocab.from_dict(blob["src_vocab"]), Vocab.from_dict(blob["tgt_vocab"])
    model = build(blob["model_cfg"])
    model.load_state_dict(blob["state_dict"])
    model.eval()
    if device is not None:
        model.to(device)
    return model, src, tgt, blob
