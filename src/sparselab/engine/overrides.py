"""Check command-line overrides before Hydra runs, so a typo lists the valid keys.

Hydra's own message for an unknown key says only "Key 'x' is not in struct";
ours names the valid keys of the parent node.
"""
from __future__ import annotations

import sys
from pathlib import Path

from omegaconf import DictConfig, OmegaConf


def _plain(args: list[str]) -> list[str]:
    """The key=value overrides Hydra would apply to the job config (sweeps reduced to their first value)."""
    out = []
    for a in args:
        if a.startswith("-") or "=" not in a:
            continue
        key, value = a.split("=", 1)
        if key.startswith(("hydra", "+", "~", "++")) or "/" in key.split(".")[0] and key.startswith("hydra"):
            continue
        if "," in value and not value.startswith(("[", "{", "'", '"')):
            value = value.split(",", 1)[0]
        if value.startswith(("range(", "choice(", "interval(", "glob(")):
            continue
        out.append(f"{key}={value}")
    return out


def check_overrides(conf_dir: Path, args: list[str]) -> None:
    from hydra import compose, initialize_config_dir
    from hydra.errors import ConfigCompositionException, MissingConfigException

    overrides = _plain(args)
    try:
        with initialize_config_dir(version_base="1.3", config_dir=str(conf_dir), job_name="check"):
            compose(config_name="config", overrides=overrides)
    except MissingConfigException as err:
        msg = _missing_option(conf_dir, overrides)
        if msg:
            print(msg, file=sys.stderr)
            sys.exit(2)
        return  # let Hydra report it its own way
    except ConfigCompositionException as err:
        msg = _explain(conf_dir, overrides, err)
        if msg:
            print(msg, file=sys.stderr)
            sys.exit(2)
    except Exception:  # noqa: BLE001 - anything else: let Hydra report it its own way
        return


def _explain(conf_dir: Path, overrides: list[str], err: Exception) -> str | None:
    if "not in struct" not in str(err) and "Could not override" not in str(err):
        return None
    from hydra import compose, initialize_config_dir

    groups = [o for o in overrides if "." not in o.split("=", 1)[0]]
    with initialize_config_dir(version_base="1.3", config_dir=str(conf_dir), job_name="check"):
        cfg = compose(config_name="config", overrides=groups)
    for o in overrides:
        key = o.split("=", 1)[0]
        if OmegaConf.select(cfg, key, default="__missing__") != "__missing__":
            continue
        parent, _, leaf = key.rpartition(".")
        node = OmegaConf.select(cfg, parent) if parent else cfg
        if isinstance(node, DictConfig):
            valid = ", ".join(sorted(str(k) for k in node.keys()))
            where = f"'{parent}'" if parent else "the top level"
            return (f"error: unknown config key '{key}'. Valid keys under {where}: {valid}.\n"
                    f"(use +{key}=… to add a new key on purpose)")
        return f"error: unknown config key '{key}': '{parent}' is not a config node"
    return None


def group_options(conf_dir: Path, group: str) -> list[str]:
    """Every option of a config group, nested ones as `paper/artifact`."""
    base = Path(conf_dir) / group
    return sorted(str(p.relative_to(base).with_suffix("")) for p in base.rglob("*.yaml"))


def _missing_option(conf_dir: Path, overrides: list[str]) -> str | None:
    for o in overrides:
        group, value = o.split("=", 1)
        if "." in group or not (Path(conf_dir) / group).is_dir():
            continue
        options = group_options(conf_dir, group)
        if value not in options and value != "null":
            return (f"error: unknown {group} '{value}'. Valid {group} options:\n  "
                    + "\n  ".join(options or ["(none)"]))
    return None
