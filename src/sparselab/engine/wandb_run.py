"""The run's loggers: W&B that never hangs a run (offline by default, bounded init, offline fallback), or a local
TensorBoard (``logger=tensorboard``: event files in ``<run dir>/tensorboard``, no account).

:func:`context_loggers` gives the :class:`~sparselab.engine.context.RunContext` its Lightning logger (one per run)
and its metric logging (the training loop adds the media callback when there is a logger:
:func:`sparselab.training.validation_media.for_run`); :func:`log_record` writes a finished run's record into the
logger: the final metrics (the W&B summary; TensorBoard scalars) and the record's tables and figures
(:func:`sparselab.engine.media.log_record`)."""
from __future__ import annotations

import importlib.util
import logging
import os
import re
from pathlib import Path
from typing import Any

from omegaconf import DictConfig, OmegaConf

from sparselab.engine.record import resolved

log = logging.getLogger("sparselab")


def start(cfg: DictConfig, run_dir: Path, name: str, job_id: str | None = None):
    """Return a wandb Run, or None when the logger is disabled.

    One W&B run per job: its id is the job's identity (``job_id``, the record's ``config_hash``) and
    ``resume="allow"``, so a resumed job goes on in the same run (offline: a second ``offline-run-*-<job id>``
    folder, which ``wandb sync`` uploads into that one run, in order). ``engine.resume=false`` (start the job over)
    gets a new run."""
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
        **({"id": job_id, "resume": "allow"} if job_id and OmegaConf.select(cfg, "engine.resume", default=True)
           else {}),
        settings=wandb.Settings(init_timeout=float(lcfg.get("init_timeout", 10)), console="off"),
    )
    try:
        return wandb.init(mode=lcfg.mode, **kwargs)
    except Exception as err:
        if lcfg.mode == "offline":
            raise
        # logged once (a warnings.warn beside it printed the same line a second time)
        log.warning("W&B %s init failed (%s: %s); logging offline instead", lcfg.mode, type(err).__name__, err)
        # the failed attempt may still hold the job's id in W&B's service ("run ID ... is in use"): start afresh
        wandb.teardown()
        return wandb.init(mode="offline", **kwargs)


def _tensorboard(run_dir: Path):
    from lightning.pytorch.loggers import TensorBoardLogger

    # version "" : the event files sit in <run dir>/tensorboard itself, one folder per run
    return TensorBoardLogger(save_dir=str(run_dir), name="tensorboard", version="", default_hp_metric=False)


def _check_tensorboard() -> None:
    """A missing tensorboard package stops the run before any training (checked without importing Lightning)."""
    if importlib.util.find_spec("tensorboard") is None and importlib.util.find_spec("tensorboardX") is None:
        from sparselab.errors import ConfigError

        raise ConfigError("logger=tensorboard needs the tensorboard package, which is not installed: "
                          "pip install tensorboard, or use logger=wandb")


def context_loggers(cfg: DictConfig, run_dir: Path, run) -> dict[str, Any]:
    """``log_fn``, ``lightning_logger_fn`` and ``record_logger_fn`` of the run's RunContext: the training loop's
    Lightning logger, made when it asks; what the engine logs itself goes to that logger once it exists, else to a
    direct sink (:class:`~sparselab.engine.media.WandbSink`, :class:`~sparselab.engine.media.TensorBoardSink`), so
    that a task that trains without Lightning (L-BFGS, the affix baseline) never imports it."""
    backend = cfg.logger.get("backend", "wandb") if cfg.get("logger") is not None else "none"
    if run is None and backend == "tensorboard":
        _check_tensorboard()
    made: list = []
    direct: list = []

    def lightning_logger():
        if not made:
            if run is not None:
                from lightning.pytorch.loggers import WandbLogger

                made.append(WandbLogger(experiment=run))
            elif backend == "tensorboard":
                if direct:   # the sink's writer first: one writer (and one event file) a run
                    direct.pop().finalize("success")
                made.append(_tensorboard(run_dir))
            else:
                made.append(None)
        return made[0]

    def record_logger():
        if made:
            return made[0]
        if not direct:
            from sparselab.engine import media

            direct.append(media.WandbSink(run) if run is not None else
                          media.TensorBoardSink(run_dir / "tensorboard") if backend == "tensorboard" else None)
        return direct[0]

    def log_fn(metrics, step):
        if run is not None:
            run.log(metrics, step=step)
        elif backend == "tensorboard":
            record_logger().log_metrics(metrics, step=step or 0)

    return {"log_fn": log_fn, "lightning_logger_fn": lightning_logger, "record_logger_fn": record_logger}


# Record metrics that are a quantity the run also logs while it trains, under that key (the record keeps its own
# names, which the reports read): the Transformer's head diversity js_<kind>_l<layer> is js/<kind>/l<layer>.
LOGGED_AS = ((re.compile(r"^js_(.+)_l(\d+)$"), r"js/\1/l\2"),)


def dashboard_key(name: str) -> tuple[str, bool]:
    """The dashboard key of record metric ``name``, and whether training logs that quantity under it already."""
    for pattern, key in LOGGED_AS:
        if pattern.match(name):
            return pattern.sub(key, name), True
    return name, False


def log_record(ctx, run, rec: dict[str, Any]) -> None:
    """A finished run's final metrics and its record's tables and figures into its logger: one key per quantity
    (W&B: the run summary, where a quantity's final value replaces its last logged one; TensorBoard, which has no
    summary: scalars at step 0, except the quantities whose curve it has already)."""
    from sparselab.engine import media

    numbers = {k: v for k, v in rec.get("metrics", {}).items() if isinstance(v, (int, float))}
    if run is not None:
        run.summary.update({dashboard_key(k)[0]: v for k, v in numbers.items()})
    logger = ctx.record_logger()
    if logger is None:
        return
    final = {k: v for k, v in numbers.items() if not dashboard_key(k)[1]}
    if run is None and final:
        logger.log_metrics(final, step=0)
    media.log_record([logger], rec, ctx.run_dir)
    if run is None:
        logger.finalize("success")


def finish(run, exit_code: int = 0) -> None:
    if run is not None:
        run.finish(exit_code=exit_code)
