"""Run one configured job: validate, resume or run the task, write its record."""
from __future__ import annotations

import importlib
import logging
import os
import re
import sys
import time
import traceback
from pathlib import Path
from typing import Any, Callable, Sequence

import torch
from omegaconf import DictConfig, OmegaConf

from sparselab.engine import datafiles, identity, record, signals, wandb_run
from sparselab.engine.checks import check_accelerator, check_config
from sparselab.engine.context import RunContext
from sparselab.engine.devices import on_cuda, set_matmul_precision
from sparselab.engine.distributed import process_rank
from sparselab.errors import ConfigError
from sparselab.locations import data_root

log = logging.getLogger("sparselab")

ALPHA_KEYS = ("mapping.alpha", "mapping.attn_alpha")
# modules of sparselab.tasks that are not tasks (no run): the tasks' typed settings
HELPERS = ("settings",)


def validate(cfg: DictConfig, checks: Sequence[Callable[[DictConfig], None]] = ()) -> None:
    """Reject configs that would fail deep inside a kernel, naming the key (raises :class:`ConfigError`).

    Seed, trainer values, the data pair and devices follow :mod:`sparselab.engine.checks`.
    α follows the mappings' own rule (``sparselab.mappings._validate.check_alpha_float``), so
    the config and the kernels cannot disagree on what a valid α is. ``checks``: the entry point's own
    (the data layer's tables, :data:`sparselab.preflight.CONFIG_CHECKS`).
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
    check_config(cfg, checks)  # seed, trainer values, data pair, devices vs strategy (also checked before Hydra starts)
    check_accelerator(cfg)   # here, on the machine that runs the job (not on a login node that submits it)


def task_function(name: str):
    try:
        module = importlib.import_module(f"sparselab.tasks.{name}")
    except ModuleNotFoundError as err:
        if err.name != f"sparselab.tasks.{name}":
            raise
        import pkgutil
        from importlib.util import find_spec

        # the task package is looked up by name, as the task itself: the engine has no import edge to tasks/
        where = find_spec("sparselab.tasks").submodule_search_locations
        valid = sorted(m.name for m in pkgutil.iter_modules(where) if not m.name.startswith("_") and m.name not in HELPERS)
        raise ConfigError(f"task.name={name!r} is unknown; valid tasks: {', '.join(valid)}") from None
    return module.run


def _run_name(run_dir: Path) -> str:
    return run_dir.name if run_dir.name not in ("", "run") else "run"


class JobInterrupted(KeyboardInterrupt):
    """Ctrl-C (SIGINT) during a job: recorded as ``interrupted``; the entry point exits 130."""


class DataChanged(ConfigError):
    """A finished job whose data files differ from what is there now (its result is not reused)."""


def _seeded_task(cfg) -> Callable:
    """The job's task function, with the generators seeded as Lightning's ``seed_everything`` seeds them. Lightning
    is imported only for a task that trains with it: a task module that does not says ``LIGHTNING = False`` (L-BFGS
    and closed-form tasks), and its job (or its refusal of a bad value) then starts 3 s sooner."""
    task = task_function(cfg.task.name)
    if getattr(sys.modules.get(getattr(task, "__module__", "")), "LIGHTNING", True):
        _lightning().seed_everything(int(cfg.seed), workers=True, verbose=False)
    else:
        _seed_everything(int(cfg.seed))
    return task


def _seed_everything(seed: int) -> None:
    # what lightning.fabric.utilities.seed.seed_everything(seed, workers=True) does, without importing Lightning
    import random

    import numpy as np

    os.environ["PL_GLOBAL_SEED"] = str(seed)
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    os.environ["PL_SEED_WORKERS"] = "1"


def _lightning():
    """Lightning, imported only by a job that trains with it: a skipped or refused job does not pay its import
    (seconds). A task module that imports it installs Lightning's own log handlers: they are cleared here, as under
    Hydra every line would print twice."""
    import lightning as L

    for name in list(logging.root.manager.loggerDict):
        if name.startswith("lightning") or name.startswith("pytorch_lightning"):
            lg = logging.getLogger(name)
            lg.handlers.clear()
            lg.propagate = True
    return L


def _interrupted(err: BaseException) -> bool:
    # Lightning catches KeyboardInterrupt inside fit, tears down and calls exit(1): the SystemExit carries it
    # as its context. A SIGTERM (kill, a scheduler's preemption) reaches us as Lightning's SIGTERMException.
    # Read from sys.modules, not imported: a Ctrl-C in the middle of Lightning's own import leaves it half
    # initialised, and importing it again here would raise instead of recording the interruption.
    exceptions = sys.modules.get("lightning.pytorch.utilities.exceptions")
    sigterm = getattr(exceptions, "SIGTERMException", None)
    return isinstance(err, KeyboardInterrupt) or (sigterm is not None and isinstance(err, sigterm)) or (
        isinstance(err, SystemExit) and isinstance(err.__context__, KeyboardInterrupt))


def _is_job_folder(path: Path) -> bool:
    return re.fullmatch(r"[0-9a-f]{16}", path.name) is not None


def _devices_setup(cfg: DictConfig) -> int | None:
    """The CPU thread limit of this job (``threads``), or None on a CUDA job: there the CPU only feeds the GPU
    and 1 thread would starve it. On CUDA, ``engine.float32_matmul_precision`` sets the matmul precision
    (TF32 for "high")."""
    if on_cuda(cfg):
        set_matmul_precision(cfg)
        return None
    threads = int(cfg.get("threads", 1))
    torch.set_num_threads(threads)
    # threadpool_limits reaches the pools already loaded; a BLAS loaded later in the job (scipy's own OpenBLAS)
    # reads its size from the environment when it loads
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(threads)
    return threads


def _adopt(run_dir: Path, chash: str) -> dict[str, Any] | None:
    """A finished record of this job in a sibling folder: one named the old way (by the command line's overrides,
    before run folders were named by the job's identity), or one named by the identity an earlier identity version
    gave it (:mod:`sparselab.engine.identity` migrates its config): the job is not run again."""
    if not _is_job_folder(run_dir) or not run_dir.parent.is_dir():
        return None
    current = identity.current_version()
    for sibling in sorted(run_dir.parent.iterdir()):
        if not sibling.is_dir() or sibling.name == run_dir.name:
            continue
        rec = record.read(sibling)
        if not rec or rec.get("status") != "finished":
            continue
        # a folder named by a current-version identity that is not this one holds another job
        if _is_job_folder(sibling) and record.version_of(rec) == current:
            continue
        if record.identity({**rec, "run_dir": str(sibling)}) == chash:
            return {**rec, "run_dir": str(sibling)}
    return None


def _set_aside_unreadable(run_dir: Path) -> None:
    """A ``run.json`` that cannot be read is moved to ``run.json.unreadable`` (kept, not overwritten) and the
    job runs again, saying why in one line."""
    why = record.unreadable(run_dir)
    if not why:
        return
    src = Path(run_dir) / record.RECORD
    dst = src.with_name(record.RECORD + ".unreadable")
    os.replace(src, dst)
    log.warning("re-running %s: its run.json cannot be read (%s); moved aside to %s", run_dir, why, dst)


def execute(cfg: DictConfig, run_dir: Path, interactive: bool = False,
            overrides: list[str] | None = None, checks: Sequence[Callable[[DictConfig], None]] = ()) -> dict[str, Any]:
    """Run one job and return its record; a failure is recorded (status ``failed``) and re-raised.

    The config is checked before anything is written (:func:`validate`). A job is locked while it runs
    (an OS file lock on ``<run dir>/.lock``, released by the kernel when its holder dies): a second process
    skips it. Whether a failure stops a sweep is the entry point's business (``engine.fail_fast``, see
    ``sparselab.run``).
    """
    from filelock import FileLock, Timeout
    from threadpoolctl import threadpool_limits

    validate(cfg, checks)
    threads = _devices_setup(cfg)
    chash = record.config_hash(cfg)
    root = data_root(cfg.data.get("root") if cfg.get("data") else None)
    hashes = datafiles.HashCache(Path(cfg.paths.runs) / ".cache" / "data_sha256.json")
    previous = record.read(run_dir)
    if cfg.engine.resume and not record.is_finished(previous, chash):
        previous = _adopt(run_dir, chash) or previous
    if cfg.engine.resume and record.is_finished(previous, chash):
        where = previous.get("run_dir", run_dir)  # an adopted record names its own folder
        why = datafiles.changed(previous.get("data_files") or {}, root, hashes)
        if why:
            raise DataChanged(f"{where} finished on other data: {why}; delete that run folder to run the job again "
                              "on the data there now")
        log.info("skip %s: finished (job %s)", where, chash)
        return previous

    if process_rank() > 0:
        # A DDP child rank (Lightning re-runs the command line with the rank in the environment): it trains its
        # shard inside the job rank 0 holds the lock of and writes no record.
        with threadpool_limits(limits=threads):
            return _seeded_task(cfg)(cfg, _context(cfg, run_dir, None, False)) or {}

    lock = FileLock(str(Path(run_dir) / ".lock"))
    try:
        lock.acquire(timeout=0)
    except Timeout:
        pid = (previous or {}).get("pid")   # None while the holder has not yet written its record
        log.warning("skip %s: another process is running this job%s", run_dir, f" (pid {pid})" if pid else "")
        return previous or {"status": "running", "config_hash": chash}
    try:
        previous = record.read(run_dir)  # the holder before us may have finished it meanwhile
        if cfg.engine.resume and record.is_finished(previous, chash):
            log.info("skip %s: finished (job %s)", run_dir, chash)
            return previous
        if previous:
            log.info("re-running %s: previous status %r", run_dir, previous.get("status"))
        else:
            _set_aside_unreadable(run_dir)
        with threadpool_limits(limits=threads):
            return _run(cfg, run_dir, chash, threads, root, hashes, interactive, overrides)
    finally:
        lock.release()


def _run(cfg, run_dir: Path, chash: str, threads: int, root: Path, hashes, interactive: bool,
         overrides: list[str] | None) -> dict[str, Any]:
    rec = record.new_record(cfg, chash, threads)
    if overrides is not None:
        rec["overrides"] = list(overrides)
    record.write(run_dir, rec)
    with signals.terminable():   # a SIGTERM is an interruption here, whatever the task (L-BFGS included)
        return _attempt(cfg, run_dir, rec, root, hashes, interactive)


def _attempt(cfg, run_dir: Path, rec: dict[str, Any], root: Path, hashes, interactive: bool) -> dict[str, Any]:
    t0 = time.time()
    run = None
    try:
        task = _seeded_task(cfg)
        run = wandb_run.start(cfg, run_dir, _run_name(run_dir), rec["config_hash"])
        ctx = _context(cfg, run_dir, run, interactive)
        with datafiles.track(root) as opened:
            result = task(cfg, ctx) or {}
    except BaseException as err:
        interrupted = _interrupted(err)
        with signals.deferred(raise_after=False):   # a second SIGTERM must not cut this record short
            rec.update(status="interrupted" if interrupted else "failed",
                       error=f"{type(err).__name__}: {err}", traceback=traceback.format_exc(),
                       wall_time_s=round(time.time() - t0, 3))
            record.write(run_dir, rec)
            wandb_run.finish(run, exit_code=130 if interrupted else 1)
        if interrupted and not isinstance(err, JobInterrupted):
            raise JobInterrupted(str(run_dir)) from None
        raise
    with signals.deferred():     # the finished record is written whole; a SIGTERM meanwhile stops the sweep after it
        return _finished(run_dir, rec, ctx, run, result, opened, root, hashes, t0)


def _finished(run_dir: Path, rec: dict[str, Any], ctx: RunContext, run, result: dict, opened, root: Path, hashes,
              t0: float) -> dict[str, Any]:
    wall = time.time() - t0
    rec.update(
        status="finished",
        metrics=result.get("metrics", {}),
        best=result.get("best", {}),
        extra=result.get("extra", {}),
        data_files=datafiles.fingerprint(opened, root, hashes),
        wall_time_s=round(wall, 3),
        samples_seen=ctx.samples_seen,
        **_throughput(ctx, wall),
        finished_at=time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    )
    record.write(run_dir, rec)
    for fn in ctx.after_finished:
        fn()
    wandb_run.log_record(ctx, run, rec)
    wandb_run.finish(run)
    log.info("finished %s in %.1fs: %s", run_dir, wall, _short(rec["metrics"]))
    return rec


def _throughput(ctx: RunContext, wall: float) -> dict[str, Any]:
    """The record's samples/s: after warm-up where a trainer measured it, else the whole job's, said so."""
    if ctx.throughput:
        return {"throughput_samples_per_s": ctx.throughput["samples_per_s"],
                "throughput_measured": (f"training steps after this process's first "
                                        f"{ctx.throughput['after_warmup_steps']} ({ctx.throughput['steps']} steps, "
                                        f"{ctx.throughput['seconds']} s, validation left out)")}
    if not ctx.samples_seen:
        return {"throughput_samples_per_s": None}
    return {"throughput_samples_per_s": round(ctx.samples_seen / wall, 3),
            "throughput_measured": "the whole job's wall time, warm-up (imports, data loading) included"}


def _short(metrics: dict[str, Any]) -> str:
    return " ".join(f"{k}={v:.4g}" for k, v in metrics.items() if isinstance(v, (int, float)))[:400]


def _context(cfg: DictConfig, run_dir: Path, run, interactive: bool) -> RunContext:
    return RunContext(
        run_dir=run_dir,
        **wandb_run.context_loggers(cfg, run_dir, run),
        log_every_n_steps=int(OmegaConf.select(cfg, "trainer.log_every_n_steps", default=50)),
        progress_bar=interactive,
    )
