"""Check command-line overrides before Hydra runs, so a typo lists the valid keys.

Hydra's own message for an unknown key says only "Key 'x' is not in struct";
ours names the unknown key and the valid keys of its parent node. The check
composes the config the job will get, with every group choice (``experiment=…``,
``mapping=…``, ``profile=…``) applied, so a key that an experiment adds can be
overridden and only keys that are missing from that config are blamed. Sweeps
(``a=1,2``, ``range(…)``, ``choice(…)``) are checked with their first value.
"""
from __future__ import annotations

import difflib
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from omegaconf import DictConfig

from sparselab.errors import ConfigError


@dataclass(frozen=True)
class _Override:
    key: str  # config key (mapping.alpha) or config group (experiment, hydra/launcher)
    value: str  # the value to compose with (a sweep's first value)
    is_group: bool

    @property
    def line(self) -> str:
        return f"{self.key}={self.value}"


def _parse(conf_dir: Path, args: list[str]) -> list[_Override] | None:
    """The plain key=value overrides of the job config; None when Hydra should judge the line itself."""
    from hydra.core.override_parser.overrides_parser import OverridesParser
    from hydra.core.override_parser.types import OverrideType

    lines = [a for a in args if not a.startswith("-") and "=" in a]
    try:
        parsed = OverridesParser.create().parse_overrides(lines)
    except Exception:
        return None
    out = []
    for o in parsed:
        key = o.key_or_group
        # hydra.* / hydra/*: the run's machinery, not the job config; +, ++, ~ add or delete on purpose.
        if key == "hydra" or key.startswith(("hydra.", "hydra/")) or o.type != OverrideType.CHANGE or o.package:
            continue
        try:
            value = next(iter(o.sweep_string_iterator())) if o.is_sweep_override() else o.get_value_element_as_str()
        except Exception:
            continue
        out.append(_Override(key, value, (Path(conf_dir) / key).is_dir()))
    return out


def check_overrides(conf_dir: Path, args: list[str], checks: Sequence[Callable] = ()) -> None:
    """Exit 2 with one explanation when the command line names an unknown key or group option (or a value that
    :func:`sparselab.engine.checks.check_config` refuses, with the entry point's ``checks``)."""
    msg = override_error(conf_dir, args, checks)
    if msg:
        print(msg, file=sys.stderr)
        sys.exit(2)


def override_error(conf_dir: Path, args: list[str], checks: Sequence[Callable] = ()) -> str | None:
    """The ``error: …`` message for a bad override, or None when the overrides compose (or Hydra should judge)."""
    from hydra.errors import ConfigCompositionException, MissingConfigException

    msg = _bad_alpha(args) or _bad_values(args)
    if msg:
        return msg
    overrides = _parse(conf_dir, args)
    if not overrides:
        return None
    msg = _missing_option(conf_dir, overrides)  # also refuses the shared bases (`_*.yaml`), which would compose
    if msg:
        return msg
    try:
        cfg = _compose(conf_dir, [o.line for o in overrides])
    except MissingConfigException:
        return None  # e.g. a defaults list naming a missing file: Hydra reports it its own way
    except ConfigCompositionException as err:
        if "not in struct" in str(err) or "Could not override" in str(err):
            return _unknown_key(conf_dir, overrides)
    except Exception:
        return None
    return _bad_config(cfg, checks)


def _bad_config(cfg: DictConfig, checks: Sequence[Callable] = ()) -> str | None:
    """The composed job config resolved and its values checked (sparselab.engine.checks), before Hydra names its
    folder: a value that cannot be resolved would otherwise name it ``unresolvable-config``."""
    from sparselab.engine.checks import check_config
    from sparselab.errors import describe, user_error
    from sparselab.engine.record import resolved

    try:
        check_config(cfg, checks)
        resolved(cfg)
    except Exception as err:
        user = user_error(err)
        return f"error: {describe(user)}" if user is not None else None
    return None


def _values(args: list[str], keys) -> list[tuple[str, str]]:
    """``(key, value)`` for every value (each point of a sweep) of the command line's overrides of ``keys``."""
    from hydra.core.override_parser.overrides_parser import OverridesParser

    lines = [a for a in args if not a.startswith("-") and a.split("=", 1)[0].lstrip("+") in keys]
    try:
        parsed = OverridesParser.create().parse_overrides(lines)
    except Exception:
        return []
    out = []
    for o in parsed:
        try:
            values = list(o.sweep_string_iterator()) if o.is_sweep_override() else [o.get_value_element_as_str()]
        except Exception:
            continue
        out += [(o.key_or_group, v) for v in values]
    return out


def _bad_values(args: list[str]) -> str | None:
    """Every value (each point of a sweep) of a key that sparselab.engine.checks judges alone, e.g. seed=0,-1."""
    from sparselab.engine.checks import CHECKS, check_value
    from sparselab.errors import ConfigError

    for key, value in _values(args, CHECKS):
        try:
            check_value(key, value)
        except ConfigError as err:
            return f"error: {err}"
        except Exception:
            continue
    return None


def _bad_alpha(args: list[str]) -> str | None:
    """Every value of an α override (each point of a sweep) checked by the mappings' own rule, before any data
    is read or any run folder made."""
    from sparselab.engine.execute import ALPHA_KEYS
    from sparselab.mappings._validate import check_alpha_float

    for key, value in _values(args, ALPHA_KEYS):
        if value == "null":
            continue  # a learned α: the mapping config says what it starts from
        try:
            check_alpha_float(value, key)
        except ValueError as err:
            return f"error: {err}"
    return None


def _compose(conf_dir: Path, overrides: list[str]) -> DictConfig:
    from hydra import compose, initialize_config_dir

    with initialize_config_dir(version_base="1.3", config_dir=str(conf_dir), job_name="check"):
        return compose(config_name="config", overrides=overrides)


def _has(node: DictConfig, leaf: str) -> bool:
    return leaf in [str(k) for k in node.keys()]  # keys() includes '???' values, `in node` does not


def _leaves(node, prefix: str = ""):
    if isinstance(node, DictConfig):
        for k in node.keys():
            path = f"{prefix}.{k}" if prefix else str(k)
            yield path
            yield from _leaves(node._get_node(k), path)


def _unknown_key(conf_dir: Path, overrides: list[_Override]) -> str | None:
    """Compose with the group choices only, then name the first key override missing from that config."""
    try:
        cfg = _compose(conf_dir, [o.line for o in overrides if o.is_group])
    except Exception:
        return None
    for o in overrides:
        if o.is_group:
            continue
        parts = o.key.split(".")
        node: DictConfig = cfg
        for i, part in enumerate(parts):
            if not isinstance(node, DictConfig):
                parent = ".".join(parts[:i])
                return f"error: unknown config key '{o.key}': '{parent}' is a value, not a config node"
            if not _has(node, part):
                break
            node = node._get_node(part)
        else:
            continue  # the key exists in the composed config
        parent = ".".join(parts[:i])
        where = f"'{parent}'" if parent else "the top level"
        valid = ", ".join(sorted(str(k) for k in node.keys())) or "(none)"
        msg = f"error: unknown config key '{o.key}'"
        if i < len(parts) - 1:  # a whole node is missing, e.g. `mapping` in an experiment whose task reads no α
            missing = ".".join(parts[:i + 1])
            msg += f": this config has no '{missing}'"
            if i == 0 and (Path(conf_dir) / parts[0]).is_dir():
                msg += f" (the experiment sets {parts[0]}: null because its task does not read it)"
        msg += f". Valid keys under {where}: {valid}."
        hint = _did_you_mean(cfg, o.key, parent, parts[i], node)
        if hint:
            msg += f" Did you mean {hint}?"
        return msg + f"\n(use +{o.key}=… to add a new key on purpose)"
    return None


def _did_you_mean(cfg: DictConfig, key: str, parent: str, missing: str, node: DictConfig) -> str | None:
    close = difflib.get_close_matches(missing, [str(k) for k in node.keys()], n=1, cutoff=0.75)
    if close:
        return f"'{parent + '.' if parent else ''}{close[0]}'"
    leaf = key.rsplit(".", 1)[-1]
    same = [p for p in _leaves(cfg) if p.rsplit(".", 1)[-1] == leaf and p != key]
    return " or ".join(f"'{p}'" for p in same[:3]) or None


def group_options(conf_dir: Path, group: str) -> list[str]:
    """Every option of a config group, nested ones as `paper/artifact`.

    Files whose name starts with ``_`` are shared bases that options include through their
    defaults list; they are not options themselves. (The Peters bases live outside every group,
    ``conf/_peters2019_table1.yaml``, so that Hydra's ``--help`` does not list them either.)
    """
    base = Path(conf_dir) / group
    return sorted(str(p.relative_to(base).with_suffix("")) for p in base.rglob("*.yaml")
                  if not p.name.startswith("_"))


def _missing_option(conf_dir: Path, overrides: list[_Override]) -> str | None:
    for o in overrides:
        if not o.is_group:
            continue
        options = group_options(conf_dir, o.key)
        if o.value not in options and o.value != "null":
            return (f"error: unknown {o.key} '{o.value}'. Valid {o.key} options:\n  "
                    + "\n  ".join(options or ["(none)"]))
    return None


def check_no_mapping(cfg) -> None:
    """The Martins tasks choose their loss with ``task.loss``; a ``mapping`` group would be ignored.

    Their experiments drop the group (``override /mapping: null``), so ``mapping.alpha=…`` on the
    command line is refused as an unknown key; this refuses ``mapping=…`` brought back by hand.
    """
    if cfg.get("mapping") is not None:
        raise ConfigError(f"mapping: task {cfg.task.name} does not read α; choose its loss with task.loss "
                          f"(softmax = α 1, sparsemax = α 2) and drop mapping=… from the command line")
