"""Entry point: ``python -m sparselab.run experiment=<paper>/<artifact> profile=<smoke|cpu|paper> [overrides]``.

Add ``-m`` to sweep by hand (``-m mapping.alpha=1,1.5,2``); experiment configs
that sweep by themselves set ``hydra.mode: MULTIRUN``.

Errors. A user's mistake (a bad value, a malformed data line, missing data, an unknown
task or key; see ``sparselab.errors``) prints one line ``error: <message>`` on
stderr and exits 2; any other failure prints its traceback and exits 1. Set
``HYDRA_FULL_ERROR=1`` for the traceback of a user error too. Either way the job's
``run.json`` records the failure. ``engine.fail_fast`` decides what a failing job does
to a sweep: ``true`` stops the sweep at that job; ``false`` goes on with the next job
and exits non-zero at the end, naming the failed jobs.
"""
from __future__ import annotations

import logging
import os
import sys
import tempfile
import traceback
import warnings
from pathlib import Path

import hydra
from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig, OmegaConf

from sparselab import preflight
from sparselab.engine import distributed, resolvers, signals, sweep_status
from sparselab.errors import describe, user_error
from sparselab.engine.overrides import check_overrides

# the Hydra configs: SPARSELAB_CONF, else the copy a wheel ships inside the package (setup.py), else conf/ of the
# source tree (an editable install or a checkout)
_PACKAGED_CONF = Path(__file__).resolve().parent / "conf"
CONF_DIR = Path(os.environ.get("SPARSELAB_CONF") or (_PACKAGED_CONF if (_PACKAGED_CONF / "config.yaml").is_file()
                                                     else Path(__file__).resolve().parents[2] / "conf"))

resolvers.register()
log = logging.getLogger("sparselab")
# Lightning 2.6.6 calls an API that torch 2.13 deprecated (isinstance(treespec, LeafSpec)), once per process,
# on stderr: not ours to fix and nothing a user can act on.
warnings.filterwarnings("ignore", message=r".*isinstance\(treespec, LeafSpec\)", category=Warning)



@hydra.main(version_base="1.3", config_path=str(CONF_DIR), config_name="config")
def main(cfg: DictConfig):
    from sparselab.engine.execute import execute

    hc = HydraConfig.get()
    run_dir = Path(hc.runtime.output_dir)
    sweep_status.JOBS.append(str(run_dir))
    changed: dict = {}
    try:
        changed = distributed.prepare(cfg, list(hc.overrides.task))
        rec = execute(cfg, run_dir, interactive=sys.stderr.isatty(), overrides=list(hc.overrides.task),
                      checks=preflight.CONFIG_CHECKS)
    except Exception as err:
        _job_failed(cfg, run_dir, err)
        return None
    finally:
        distributed.restore(changed)
    objective = cfg.task.get("objective")
    if objective and objective in rec.get("metrics", {}):
        return rec["metrics"][objective]
    return None


def _full_error() -> bool:
    return os.environ.get("HYDRA_FULL_ERROR") == "1"  # as Hydra reads it


def _job_failed(cfg: DictConfig, run_dir: Path, err: Exception) -> None:
    """Report a failed job: one line for a user error, the traceback for anything else.

    ``engine.fail_fast: true`` then stops the process (and so the sweep) with SystemExit, which
    Hydra's job runner does not catch; ``false`` returns, so the sweep goes on with its next job.
    """
    user = user_error(err)
    if user is not None and not _full_error():
        print(f"error: {describe(user)}", file=sys.stderr)
    else:
        traceback.print_exception(err, file=sys.stderr)
    sweep_status.job_failed(str(run_dir), user is not None)
    if OmegaConf.select(cfg, "engine.fail_fast", default=True):
        raise SystemExit(2 if user is not None else 1)
    log.warning("job %s failed (recorded in its run.json); engine.fail_fast=false: going on", run_dir)


def _exit_status() -> int:
    """After all jobs: 0, or 2 (only user errors) / 1 when some job failed under engine.fail_fast=false."""
    failed = sweep_status.FAILED
    if not failed:
        return 0
    jobs = sweep_status.JOBS
    if len(jobs) > 1 or len(failed) > 1 or not jobs:
        # the count of jobs is known when they all ran here (basic launcher), not when workers ran them
        of = f" of {len(jobs)}" if set(d for d, _ in failed) <= set(jobs) else ""
        print(f"sweep: {len(failed)}{of} jobs failed (engine.fail_fast=false); their run.json "
              f"records the error: {', '.join(d for d, _ in failed)}", file=sys.stderr)
    return 2 if all(user for _, user in failed) else 1


def _runs_path_error(args: list[str]) -> str | None:
    """One line when the runs path itself is wrong (empty, or the filesystem root): checked before anything else."""
    from sparselab.engine.checks import runs_path_error

    given = [a.split("=", 1)[1] for a in args if a.startswith(("paths.runs=", "+paths.runs=", "++paths.runs="))]
    text = given[-1] if given else os.environ.get("SPARSELAB_RUNS", "runs")
    why = runs_path_error(text, "paths.runs" if given else "SPARSELAB_RUNS")
    return f"error: {why}" if why else None


def _runs_folder_error(args: list[str]) -> str | None:
    """One line when the runs folder (``paths.runs=…``, else SPARSELAB_RUNS, else ./runs) cannot be created or
    written to."""
    why = _runs_path_error(args)
    if why:
        return why
    given = [a.split("=", 1)[1] for a in args if a.startswith(("paths.runs=", "+paths.runs=", "++paths.runs="))]
    runs = Path(given[-1] if given else os.environ.get("SPARSELAB_RUNS", "runs"))
    if "," in runs.name or "${" in str(runs):
        return None  # a sweep over folders or an interpolation: Hydra resolves it
    try:
        runs.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        return f"error: cannot create the runs folder {runs} (paths.runs / SPARSELAB_RUNS): {err.strerror or err}"
    try:  # an existing folder may still refuse writes (read-only mount, another user's folder)
        with tempfile.TemporaryFile(dir=runs):
            pass
    except OSError as err:
        return f"error: cannot write to the runs folder {runs} (paths.runs / SPARSELAB_RUNS): {err.strerror or err}"
    return None


def _interrupted() -> int:
    how = "SIGTERM" if signals.received() else "Ctrl-C"
    print(f"interrupted: by {how}; finished jobs are kept and a running job is recorded as 'interrupted'; run the "
          "same command to resume", file=sys.stderr)
    return 130


def cli(argv: list[str]) -> int:
    """``python -m sparselab.run ARGV`` in this process, from its checks to its last job: the exit status. Its
    Hydra run (``main``) reads ``sys.argv``; a sweep's failed jobs are counted afresh (several sweeps can run in
    one process: :mod:`sparselab.sweeps`)."""
    sweep_status.JOBS.clear()
    sweep_status.FAILED.clear()
    try:
        check_overrides(CONF_DIR, argv, preflight.CONFIG_CHECKS)
        msg = _runs_path_error(argv)
        if msg:
            print(msg, file=sys.stderr)
            return 2
        status = preflight.prepare(CONF_DIR, argv)  # cpu / paper: fetch missing data now, or stop in one line
        if status is not None:
            return status
        msg = _runs_folder_error(argv)
        if msg:
            print(msg, file=sys.stderr)
            return 2
        sys.argv = [sys.argv[0], *argv]
        try:
            main()
        except KeyboardInterrupt:
            return _interrupted()
        return _exit_status()
    except SystemExit as stop:    # a one-line error, a fail-fast job or Hydra's own: its status, as the process's
        if isinstance(stop.code, str):
            print(stop.code, file=sys.stderr)
            return 1
        return int(stop.code or 0)


if __name__ == "__main__":
    signals.install()   # SIGTERM (kill, preemption) is an interruption, as Ctrl-C is (engine/signals.py)
    sys.exit(cli(sys.argv[1:]))
