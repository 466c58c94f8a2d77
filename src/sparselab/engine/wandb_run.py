"""W&B that never hangs a run: offline by default, bounded init, offline fallback."""
from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

from omegaconf import DictConfig, OmegaConf

log = logging.getLogger("sparselab")


def start(cfg: DictConfig, run_dir: Path, name: str):
    """Return a wandb Run, or None when the logger is disabled."""
    lcfg = cfg.logger
    if lcfg.get("backend", "wandb") != "wandb" or lcfg.mode == "disabled":
        return None
    import wandb

    # Bounded wait for an unreachable server (STACK.md: ~108 s retry otherwise).
    os.environ.setdefault("WANDB_INIT_TIMEOUT", str(lcfg.get("init_timeout", 10)))
    os.environ.setdefault("WANDB_SILENT", "true")
    kwargs: dict[str, Any] = dict(
        project=lcfg.project,
        entity=lcfg.get("entity"),
        group=str(cfg.experiment_name),
        name=name,
        dir=str(run_dir),
        config=OmegaConf.to_container(cfg, resolve=True),
        reinit="finish_previous",
        settings=wandb.Settings(init_timeout=float(lcfg.get("init_timeout", 10)), console="off"),
    )
    try:
        return wandb.init(mode=lcfg.mode, **kwargs)
    except Exception as err:  # noqa: BLE001 - any failure online must not kill the run
        if lcfg.mode == "offline":
            raise
        # logged once (a warnings.warn beside it printed the same line a second time)
        log.warning("W&B %s init failed (%s: %s); logging offline instead", lcfg.mode, type(err).__name__, err)
        return wandb.init(mode="offline", **kwargs)


def finish(run, exit_code: int = 0) -> None:
    if run is not None:
        run.finish(exit_code=exit_code)
