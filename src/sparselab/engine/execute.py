"""Run one configured job: validate, resume or run the task, write its record."""
from __future__ import annotations

import importlib
import logging
import sys
import time
import traceback
from pathlib import Path
from typing import Any

import torch
from omegaconf import DictConfig, OmegaConf

from sparselab.engine import record, wandb_run
from sparselab.engine.context import RunContext
from sparselab.engine.errors import ConfigError

log = logging.getLogger("sparselab")

ALPHA_KEYS = ("mapping.alpha", "mapping.attn_alpha")


def validate(cfg: DictConfig) -> None:
    """Reject configs that would fail deep inside a kernel, naming the key (raises :class:`ConfigError`).

    α follows the mappings' own rule (``sparselab.mappings._validate.check_alpha_float``), so
    the config and the kernels cannot disagree on what a valid α is.
    """
    from sparselab.mappings._validate import check_alpha_float

    for key in ALPHA_KEYS:
        value = OmegaConf.select(cfg, key)
        if value is None:
            continue
        try:
            check_alpha_float(value, key)
        except ValueError as err:
            raise ConfigError(str(err)) from None
    if cfg.get("task") is None or "name" not in cfg.task:
        raise ConfigError("no task configured: pick an experiment, e.g. experiment=martins2016/table2_multilabel "
                          "(python -m sparselab.run --help lists them)")


def task_function(name: str):
    try:
        module = importlib.import_module(f"sparselab.tasks.{name}")
    except ModuleNotFoundError as err:
        if err.name != f"sparselab.tasks.{name}":
            raise
        import pkgutil

        import sparselab.tasks as pkg

        valid = sorted(m.name for m in pkgutil.iter_modules(pkg.__path__) if not m.name.startswith("_"))
        raise ConfigError(f"task.name={name!r} is unknown; valid tasks: {', '.join(valid)}") from None
    return module.run


def _run_name(run_dir: Path) -> str:
    return run_dir.name if run_dir.name not in ("", "run") else "run"


def execute(cfg: DictConfig, run_dir: Path, interactive: bool = False) -> dict[str, Any]:
    """Run one job and return its record; a failure is recorded (status ``failed``) and re-raised.

    Whether a failure stops a sweep is the entry point's business (``engine.fail_fast``, see
    ``sparselab.run``).
    """
    threads = int(cfg.get("threads", 1))
    torch.set_num_threads(threads)
    chash = record.config_hash(cfg)
    previous = record.read(run_dir)
    if cfg.engine.resume and record.is_finished(previous, chash):
        log.info("skip %s: finished with config hash %s", run_dir, chash)
        return previous
    if previous and previous.get("status") == "finished":
        log.info("re-running %s: its config changed (hash %s -> %s)", run_dir, previous.get("config_hash"), chash)
    elif previous:
        log.info("re-running %s: previous status %r", run_dir, previous.get("status"))

    rec = record.new_record(cfg, chash, threads)
    record.write(run_dir, rec)
    t0 = time.time()
    run = None
    try:
        validate(cfg)
        import lightning as L

        L.seed_everything(int(cfg.seed), workers=True, verbose=False)
        run = wandb_run.start(cfg, run_dir, _run_name(run_dir))
        ctx = _context(cfg, run_dir, run, interactive)
        result = task_function(cfg.task.name)(cfg, ctx) or {}
    except BaseException as err:
        rec.update(status="failed", error=f"{type(err).__name__}: {err}", traceback=traceback.format_exc(),
                   wall_time_s=round(time.time() - t0, 3))
        record.write(run_dir, rec)
        wandb_run.finish(run, exit_code=1)
        raise
    wall = time.time() - t0
    rec.update(
        status="finished",
        metrics=result.get("metrics", {}),
        best=result.get("best", {}),
        extra=result.get("extra", {}),
        wall_time_s=round(wall, 3),
        samples_seen=ctx.samples_seen,
        throughput_samples_per_s=round(ctx.samples_seen / wall, 3) if ctx.samples_seen else None,
        finished_at=time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    )
    record.write(run_dir, rec)
    if run is not None:
        run.summary.update({k: v for k, v in rec["metrics"].items() if isinstance(v, (int, float))})
    wandb_run.finish(run)
    log.info("finished %s in %.1fs: %s", run_dir, wall, _short(rec["metrics"]))
    return rec


def _short(metrics: dict[str, Any]) -> str:
    return " ".join(f"{k}={v:.4g}" for k, v in metrics.items() if isinstance(v, (int, float)))[:400]


def _context(cfg: DictConfig, run_dir: Path, run, interactive: bool) -> RunContext:
    def log_fn(metrics, step):
        if run is not None:
            run.log(metrics, step=step)

    def lightning_logger():
        if run is None:
            return None
        from lightning.pytorch.loggers import WandbLogger

        return WandbLogger(experiment=run)

    return RunContext(
        run_dir=run_dir,
        log_fn=log_fn,
        lightning_logger_fn=lightning_logger,
        log_every_n_steps=int(OmegaConf.select(cfg, "trainer.log_every_n_steps", default=50)),
        progress_bar=interactive,
    )
