"""Which jobs of a sweep failed, as seen by the process that launched the sweep.

With the basic launcher every job runs in the launching process, which sees each failure itself. The joblib
and submitit launchers run jobs in other processes (or on other nodes), and Hydra hands their return values
to no one, so under ``engine.fail_fast=false`` the launching process would exit 0 after failed jobs. Each job
therefore also appends its failure to a file of this sweep under ``paths.runs`` (shared on a cluster), named
by a token the launching process puts in the environment (inherited by joblib workers and submitit jobs);
:class:`SweepFailures` (a Hydra callback, conf/config.yaml) reads it back when the sweep ends.
"""
from __future__ import annotations

import json
import os
import uuid
from pathlib import Path

from hydra.experimental.callback import Callback

FILE_ENV = "SPARSELAB_SWEEP_FAILURES"

JOBS: list[str] = []                    # jobs run by this process
FAILED: list[tuple[str, bool]] = []     # (run dir, is a user error): this process's and its workers'


def job_failed(run_dir: str, user: bool) -> None:
    FAILED.append((run_dir, user))
    path = os.environ.get(FILE_ENV)
    if path:
        from filelock import FileLock

        with FileLock(path + ".lock"):
            with open(path, "a") as fh:
                fh.write(json.dumps({"pid": os.getpid(), "run_dir": run_dir, "user": user}) + "\n")


class SweepFailures(Callback):
    """Hydra callback: names this sweep's failure file at the start, reads the other processes' failures at
    the end."""

    def on_multirun_start(self, config, **kwargs) -> None:
        folder = Path(str(config.paths.runs)) / ".sweeps"
        folder.mkdir(parents=True, exist_ok=True)
        os.environ[FILE_ENV] = str(folder / f"{os.getpid()}-{uuid.uuid4().hex[:8]}.jsonl")

    def on_multirun_end(self, config, **kwargs) -> None:
        path = Path(os.environ.pop(FILE_ENV, "") or "/nonexistent")
        if not path.is_file():
            return
        for line in path.read_text().splitlines():
            entry = json.loads(line)
            if entry["pid"] != os.getpid():   # this process's own failures are in FAILED already
                FAILED.append((entry["run_dir"], bool(entry["user"])))
        path.unlink()
        Path(str(path) + ".lock").unlink(missing_ok=True)
