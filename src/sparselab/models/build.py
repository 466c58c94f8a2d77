"""Build a sequence-to-sequence model from its Hydra config, and save / load it as plain containers.

Shared by every task that trains a :class:`~sparselab.models.seq2seq.Seq2Seq` (inflection, translation):
the config's ``_target_`` and sizes, with the vocabulary sizes and special ids filled in, are stored beside
the weights, so ``model.pt`` rebuilds the model and loads with ``torch.load(..., weights_only=True)``.
"""
from __future__ import annotations

from pathlib import Path

import torch
from hydra.utils import instantiate
from omegaconf import OmegaConf

from sparselab.data.text import Vocab
from sparselab.errors import ConfigError
from sparselab.models.seq2seq import Seq2Seq


def model_config(cfg_model, src: Vocab, tgt: Vocab) -> dict:
    """The model config (``_target_`` and its arguments) with the vocabulary sizes and special ids filled in:
    a plain dict that :func:`build_model` instantiates and ``model.pt`` stores."""
    mcfg = OmegaConf.to_container(cfg_model, resolve=True) if not isinstance(cfg_model, dict) else dict(cfg_model)
    mcfg.update(src_vocab=len(src), tgt_vocab=len(tgt), src_pad_id=src.pad_id, tgt_pad_id=tgt.pad_id,
                bos_id=tgt.bos_id, eos_id=tgt.eos_id)
    return mcfg


def build_model(mcfg: dict) -> Seq2Seq:
    """``hydra.utils.instantiate`` of the model config; a value the model rejects (an odd hidden size, an
    initial learned α outside (1, 2)) is a :class:`ConfigError` naming it, not a traceback."""
    from hydra.errors import InstantiationException

    try:
        return instantiate(mcfg)
    except InstantiationException as err:
        cause = err.__cause__
        if isinstance(cause, ValueError):
            raise ConfigError(f"model: {cause}") from err
        raise


def save_model(path: Path, model: Seq2Seq, mcfg: dict, src: Vocab, tgt: Vocab, alpha: float, attn_alpha: float,
               langs: list[str]) -> None:
    """Weights and everything needed to rebuild the model, as plain containers (loads with weights_only=True)."""
    torch.save({"state_dict": {k: v.detach().cpu() for k, v in model.state_dict().items()}, "model_cfg": mcfg,
                "src_vocab": src.to_dict(), "tgt_vocab": tgt.to_dict(), "alpha": float(alpha),
                "attn_alpha": float(attn_alpha), "languages": list(langs)}, path)


def load_model(path: Path, device=None):
    blob = torch.load(path, map_location="cpu", weights_only=True)
    src, tgt = Vocab.from_dict(blob["src_vocab"]), Vocab.from_dict(blob["tgt_vocab"])
    model = build_model(blob["model_cfg"])
    model.load_state_dict(blob["state_dict"])
    model.eval()
    if device is not None:
        model.to(device)
    return model, src, tgt, blob
