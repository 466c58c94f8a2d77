"""What a task receives from the run engine: where to write, how to log.

A task is a function ``run(cfg, ctx) -> dict`` (see ``sparselab.tasks``). It
trains and evaluates one configuration and returns its metrics; the engine
wraps it with the run record (``run.json``), resume and logging.
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

log = logging.getLogger("sparselab")


@dataclass
class RunContext:
    run_dir: Path
    # Called with (metrics, step); forwards to W&B and to the log.
    log_fn: Callable[[dict[str, float], int | None], None] = lambda m, s: None
    # Factory for the Lightning logger of this run (WandbLogger, or None when disabled).
    lightning_logger_fn: Callable[[], Any] = lambda: None
    # What the engine logs the record to: the Lightning logger once training made it, else one without Lightning.
    record_logger_fn: Callable[[], Any] = lambda: None
    # Non-interactive runs print one line every this many steps.
    log_every_n_steps: int = 50
    progress_bar: bool = False
    started: float = field(default_factory=time.time)
    # Number of training samples seen; tasks add to it so the record has throughput.
    samples_seen: int = 0
    # Training samples/s after warm-up, set by the trainer (engine.trainer.WarmThroughput); None: not measured.
    throughput: dict | None = None
    # Called once the record says "finished" (the training loop's checkpoint folder is deleted then: a job
    # killed while it evaluates resumes from it without training again).
    after_finished: list = field(default_factory=list)

    def log_metrics(self, metrics: dict[str, float], step: int | None = None) -> None:
        self.log_fn(metrics, step)

    def lightning_logger(self):
        return self.lightning_logger_fn()

    def record_logger(self):
        return self.record_logger_fn()

    def path(self, name: str) -> Path:
        p = self.run_dir / name
        p.parent.mkdir(parents=True, exist_ok=True)
        return p
