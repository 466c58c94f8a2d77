"""The translation task reads its config once: ``run`` resolves it to plain values and builds
:class:`~sparselab.tasks.settings.TranslationSettings`; the layers below take only those typed settings."""
from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest
from hydra import compose, initialize_config_dir
from omegaconf import DictConfig, OmegaConf

from sparselab.run import CONF_DIR
from sparselab.tasks import settings

TRANSLATION = Path(settings.__file__).with_name("translation.py")


def composed(experiment: str, profile: str, *overrides: str) -> DictConfig:
    with initialize_config_dir(version_base="1.3", config_dir=str(CONF_DIR)):
        return compose("config", overrides=[f"experiment={experiment}", f"profile={profile}", *overrides])


def no_config_inside(value) -> list[str]:
    """Paths inside ``value`` that still hold an omegaconf container."""
    if isinstance(value, (DictConfig,)) or type(value).__module__.startswith("omegaconf"):
        return ["<here>"]
    if dataclasses.is_dataclass(value):
        value = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return [f"{k}.{p}" for k, v in value.items() for p in no_config_inside(v)]
    if isinstance(value, (list, tuple)):
        return [f"{i}.{p}" for i, v in enumerate(value) for p in no_config_inside(v)]
    return []


@pytest.mark.parametrize("experiment,profile,overrides", [
    ("peters2019/table2_mt", "cpu", ["data.pair=de-en", "mapping.alpha=1.25"]),
    ("peters2019/table2_mt", "paper", ["data.pair=ja-en"]),
    ("correia2019/table1_bleu", "cpu", ["mapping=alpha_entmax"]),
])
def test_settings_from_plain_values_equal_those_from_the_config(experiment, profile, overrides):
    cfg = composed(experiment, profile, *overrides)
    plain = settings.translation(OmegaConf.to_container(cfg, resolve=True))
    assert plain == settings.translation(cfg)
    assert no_config_inside(plain) == []
    assert plain.task == cfg.task.name and plain.seed == cfg.seed and plain.data.pair == cfg.data.pair
    assert plain.alpha == float(cfg.mapping.alpha)
    assert plain.fit.trainer == OmegaConf.to_container(cfg.trainer, resolve=True)
    if plain.task == "transformer_translation":     # learned attention α: no fixed attention α; tokens per batch
        assert plain.attn_alpha is None and plain.batch_tokens and plain.batch_size is None
        assert plain.alpha_every == cfg.task.alpha_every and set(plain.module) == {"lr", "warmup_steps", "alpha_lr"}
    else:
        assert plain.attn_alpha == float(cfg.mapping.attn_alpha) and plain.batch_size == cfg.task.batch_size
        assert plain.n_autocomplete == cfg.task.n_autocomplete and set(plain.module) == {"lr", "lr_rule"}
    with pytest.raises(dataclasses.FrozenInstanceError):
        plain.seed = 1


def test_run_hands_the_config_only_to_the_device_choice_and_the_resolver():
    tree = ast.parse(TRANSLATION.read_text())
    funcs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    takes_cfg = sorted(name for name, f in funcs.items() if any(a.arg == "cfg" for a in f.args.args))
    assert takes_cfg == ["run"]
    uses = [n for n in ast.walk(funcs["run"]) if isinstance(n, ast.Call)
            and any(isinstance(x, ast.Name) and x.id == "cfg" for a in n.args for x in ast.walk(a))]
    assert sorted(ast.unparse(n.func) for n in uses) == ["OmegaConf.to_container", "job_device"]
