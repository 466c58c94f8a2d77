"""The run's config, read once per task into the typed settings the layers below take: the config stops here.

Each task's ``run(cfg, ctx)`` calls these builders; data/, decoding/, training/ and models/ take the frozen
dataclasses (defined beside the code that reads them) and plain containers, never a DictConfig. Model configs
keep their ``_target_`` (a model's config is a plain dict stored in ``model.pt``): :func:`build_model`
instantiates it with Hydra here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from omegaconf import DictConfig, OmegaConf

from sparselab.data import parallel
from sparselab.data.inflection_data import InflectionSpec
from sparselab.data.mt_data import MTSpec, PairSettings
from sparselab.data.snli_data import SPLITS, SNLISpec
from sparselab.data.workers import loader_options as _loader_options
from sparselab.decoding.beam import BeamSettings
from sparselab.errors import ConfigError
from sparselab.training.loop import FitSettings


def plain(node: Any) -> Any:
    """A config node as plain containers: a DictConfig resolved, a plain dict or list (a config already resolved
    with ``OmegaConf.to_container``) as it is."""
    return OmegaConf.to_container(node, resolve=True) if isinstance(node, DictConfig) else node


def loader_options(cfg: Mapping) -> dict:
    """DataLoader workers and pinned memory (``engine.loader_workers``, ``engine.pin_memory``)."""
    engine = cfg.get("engine") or {}
    return _loader_options(int(engine.get("loader_workers", 0) or 0), bool(engine.get("pin_memory", False)))


def fit_settings(cfg: Mapping) -> FitSettings:
    """What :func:`sparselab.training.loop.fit` reads: the trainer, ``engine.resume``, early stopping."""
    tc = cfg["task"]
    return FitSettings(trainer=plain(cfg["trainer"]), resume=bool((cfg.get("engine") or {}).get("resume", True)),
                       early_stopping_patience=tc.get("early_stopping_patience"),
                       early_stopping_min_delta=tc.get("early_stopping_min_delta", 0.0),
                       early_stopping_start=tc.get("early_stopping_start", 0.0))


def beam_settings(cfg: Mapping) -> BeamSettings:
    tc = cfg["task"]
    return BeamSettings(beam=int(tc["beam"]), batch_size=int(tc["decode_batch_size"]), max_len=int(tc["max_decode_len"]),
                        length_norm=float(tc.get("length_norm", 0.0) or 0.0))


def inflection_data(cfg: DictConfig) -> InflectionSpec:
    d = cfg.data
    langs = d.get("languages")
    languages = None if langs is None else ((str(langs),) if isinstance(langs, str) else tuple(str(x) for x in langs))
    return InflectionSpec(setting=str(d.resource), root=d.get("root"), languages=languages,
                          max_languages=int(d.max_languages), train_per_language=int(d.train_per_language),
                          val_split=str(d.get("val_split", "dev")), val_per_language=int(d.val_per_language),
                          eval_per_language=int(d.eval_per_language), eval_split=str(cfg.task.eval_split))


def mt_data(cfg: Mapping) -> MTSpec:
    """The pair's corpora and the cuts; a pair that is not configured, or has no training corpus in this profile,
    is refused naming the key."""
    d = cfg["data"]
    parallel.parse_pair(d["pair"])
    pairs, name = d["pairs"], str(d["pair"])
    if name not in pairs:
        raise ConfigError(f"data.pair={name!r}: not configured; pairs: {', '.join(pairs)}")
    ps = pairs[name]
    if not ps.get("train"):
        raise ConfigError(f"data.pairs.{name}.train: no training corpus for {name} in profile "
                          f"{cfg['profile']['name']} ({ps.get('note', '')})")
    extra = {str(k): str(spec) for k, spec in (ps.get("extra_test") or {}).items() if spec is not None}
    pair = PairSettings(train=str(ps["train"]), val=str(ps["val"]), test=str(ps["test"]), extra_test=extra,
                        bpe_merges=int(ps["bpe_merges"]), bpe_joint=bool(ps["bpe_joint"]))
    return MTSpec(pair=name, pair_settings=pair, root=d.get("root"),
                  train_empty=str(d.get("train_empty", "drop")), max_train=int(d["max_train"]),
                  max_val=int(d["max_val"]), max_test=int(d["max_test"]), max_extra_test=int(d["max_extra_test"]),
                  max_len=int(d["max_len"]), cache_dir=str(d["cache_dir"]),
                  bpe_min_frequency=int(d.get("bpe_min_frequency", 2)))


def snli_data(cfg: DictConfig) -> SNLISpec:
    d, ex = cfg.data, cfg.task.examples
    return SNLISpec(splits={s: str(d.splits[s]) for s in SPLITS}, root=d.get("root"), lowercase=bool(d.lowercase),
                    limits={s: int(d.get(f"max_{s}", 0) or 0) for s in SPLITS}, n_test_examples=int(ex.n_test),
                    dev_pair_ids=tuple(str(i) for i in (ex.get("dev_pair_ids") or [])))


def model_container(cfg: Mapping) -> dict[str, Any]:
    """The ``model`` node, resolved, as a plain dict (its ``_target_`` kept)."""
    return plain(cfg["model"])


def nli_normalizer(tcfg: DictConfig) -> dict | None:
    """The normaliser config of ``task.attention`` (None: no attention); unknown variants list the valid ones."""
    variants = tcfg.normalizers
    name = str(tcfg.attention)
    if name not in variants:
        raise ConfigError(f"task.attention={name!r} is unknown; valid: {', '.join(map(str, variants))}")
    node = variants[name]
    return None if node is None else OmegaConf.to_container(node, resolve=True)


def build_model(mcfg: dict):
    """``hydra.utils.instantiate`` of a model config (a plain dict with its ``_target_``); a value the model rejects
    (an odd hidden size, an initial learned α outside (1, 2)) is a :class:`ConfigError` naming it, not a traceback."""
    from hydra.errors import InstantiationException
    from hydra.utils import instantiate

    try:
        return instantiate(mcfg)
    except InstantiationException as err:
        cause = err.__cause__
        if isinstance(cause, ValueError):
            raise ConfigError(f"model: {cause}") from err
        raise


@dataclass(frozen=True)
class TranslationSettings:
    """Everything ``tasks/translation.py`` reads of a run's config, read once (:func:`translation`)."""

    task: str                       # task.name: which LightningModule (LSTM or Transformer)
    alpha: float                    # mapping.alpha: the output (loss) α
    attn_alpha: float | None        # mapping.attn_alpha (LSTM; the Transformer's normalizers come with its model)
    seed: int
    data: MTSpec
    loader: dict                    # DataLoader workers and pinned memory
    batch_size: int | None          # sentence batches, or ...
    batch_tokens: int | None        # ... token-budget batches (the Transformer)
    decode_batch_size: int
    model: dict                     # the model config, its _target_ kept
    module: dict                    # the LightningModule's optimisation keywords
    fit: FitSettings
    beam: BeamSettings
    n_autocomplete: int
    autocomplete_max_candidates: int | None
    alpha_every: int | None         # Transformer: α recorded every this many steps
    n_attention_examples: int


def translation(cfg: Mapping) -> TranslationSettings:
    """The typed settings of a translation run, from its config (resolved to plain containers by the task); each
    task reads only its own keys (``task.alpha_every`` is the Transformer's, ``task.n_autocomplete`` the LSTM's)."""
    tc, m = cfg["task"], cfg["mapping"]
    name, tokens = str(tc["name"]), tc.get("batch_tokens")
    transformer = name == "transformer_translation"
    module = ({"lr": float(tc["lr"]), "warmup_steps": int(tc["warmup_steps"]), "alpha_lr": tc.get("alpha_lr")}
              if transformer else {"lr": float(tc["lr"]), "lr_rule": str(tc.get("lr_rule", "best"))})
    most = tc.get("autocomplete_max_candidates")
    return TranslationSettings(
        task=name, alpha=float(m["alpha"]), attn_alpha=None if m.get("attn_alpha") is None else float(m["attn_alpha"]),
        seed=int(cfg["seed"]), data=mt_data(cfg), loader=loader_options(cfg),
        batch_size=None if tokens is not None else int(tc["batch_size"]),
        batch_tokens=None if tokens is None else int(tokens), decode_batch_size=int(tc["decode_batch_size"]),
        model=model_container(cfg), module=module, fit=fit_settings(cfg), beam=beam_settings(cfg),
        n_autocomplete=0 if transformer else int(tc["n_autocomplete"]),
        autocomplete_max_candidates=None if most is None else int(most),
        alpha_every=int(tc["alpha_every"]) if transformer else None,
        n_attention_examples=int(tc["n_attention_examples"]) if transformer else 0)
