"""The run's loggers: W&B that never hangs a run (offline by default, bounded init, offline fallback), or a local
TensorBoard (``logger=tensorboard``: event files in ``<run dir>/tensorboard``, no account).

:func:`context_loggers` gives the :class:`~sparselab.engine.context.RunContext` its Lightning logger (one per run)
and its metric logging (the training loop adds the media callback when there is a logger:
:func:`sparselab.training.validation_media.for_run`); :func:`log_record` writes a finished run's record into the
logger: the final metrics (the W&B summary; TensorBoard scalars) and the record's tables and figures
(:func:`sparselab.engine.media.log_record`)."""
from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

from omegaconf import DictConfig

from sparselab.engine.record import resolved

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
        config=resolved(cfg),     # the paper's settings for the other profiles are not this run's config
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


def _tensorboard(run_dir: Path):
    try:
        from lightning.pytorch.loggers import TensorBoardLogger

        # version "" : the event files sit in <run dir>/tensorboard itself, one folder per run
        return TensorBoardLogger(save_dir=str(run_dir), name="tensorboard", version="", default_hp_metric=False)
    except ModuleNotFoundError:   # neither tensorboard nor tensorboardX is installed
        from sparselab.engine.errors import ConfigError

        raise ConfigError("logger=tensorboard needs the tensorboard package, which is not installed: "
                          "pip install tensorboard, or use logger=wandb") from None


def context_loggers(cfg: DictConfig, run_dir: Path, run) -> dict[str, Any]:
    """``log_fn`` and ``lightning_logger_fn`` of the run's RunContext."""
    backend = cfg.logger.get("backend", "wandb") if cfg.get("logger") is not None else "none"
    # a missing tensorboard package stops the run here, before any training
    made: list = [_tensorboard(run_dir)] if run is None and backend == "tensorboard" else []

    def lightning_logger():
        if not made:
            if run is not None:
                from lightning.pytorch.loggers import WandbLogger

                made.append(WandbLogger(experiment=run))
            elif backend == "tensorboard":
                made.append(_tensorboard(run_dir))
            else:
                made.append(None)
        return made[0]

    def log_fn(metrics, step):
        if run is not None:
            run.log(metrics, step=step)
        elif backend == "tensorboard":
            lightning_logger().log_metrics(metrics, step=step or 0)

    return {"log_fn": log_fn, "lightning_logger_fn": lightning_logger}


def log_record(ctx, run, rec: dict[str, Any]) -> None:
    """A finished run's final metrics and its record's tables and figures into its logger."""
    from sparselab.engine import media

    numbers = {k: v for k, v in rec.get("metrics", {}).items() if isinstance(v, (int, float))}
    if run is not None:
        run.summary.update(numbers)
    logger = ctx.lightning_logger()
    if logger is None:
        return
    if run is None and numbers:   # TensorBoard has no summary: the final metrics as scalars at step 0
        logger.log_metrics(numbers, step=0)
    media.log_record([logger], rec, ctx.run_dir)
    if run is None:
        logger.finalize("success")


def finish(run, exit_code: int = 0) -> None:
    if run is not None:
        run.finish(exit_code=exit_code)
