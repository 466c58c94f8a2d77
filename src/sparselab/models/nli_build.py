"""The NLI classifier of a run's config (Martins & Astudillo 2016, §4.3): its attention normaliser
(``task.attention`` picks one of ``task.normalizers``, instantiated with Hydra) and the model."""
from __future__ import annotations

from hydra.utils import instantiate
from omegaconf import DictConfig, OmegaConf

from sparselab.errors import ConfigError
from sparselab.models.nli import NLIClassifier


def normalizer_config(tcfg: DictConfig) -> dict | None:
    """The normaliser config of ``task.attention`` (None: no attention); unknown variants list the valid ones."""
    variants = tcfg.normalizers
    name = str(tcfg.attention)
    if name not in variants:
        raise ConfigError(f"task.attention={name!r} is unknown; valid: {', '.join(map(str, variants))}")
    node = variants[name]
    return None if node is None else OmegaConf.to_container(node, resolve=True)


def model_config(cfg_model, vocab_size: int, dim: int, normalizer: dict | None, pad_id: int) -> dict:
    mcfg = OmegaConf.to_container(cfg_model, resolve=True)
    mcfg.update(vocab_size=vocab_size, embedding_dim=dim, normalizer=normalizer, pad_id=pad_id)
    return mcfg


def build_model(mcfg: dict) -> NLIClassifier:
    from hydra.errors import InstantiationException

    try:
        return instantiate(mcfg)
    except InstantiationException as err:
        if isinstance(err.__cause__, ValueError):
            raise ConfigError(f"model: {err.__cause__}") from err
        raise
