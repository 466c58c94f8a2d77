"""What the training-speed benchmarks share (``bench_mt_speed.py``, Peters et al. 2019 Figure 6;
``bench_transformer_speed.py``, Correia et al. 2019): the experiment's composed Hydra config, Zipf token ids,
the timing protocol and the description of the machine.

Timing protocol (:func:`time_rounds`): every model first takes ``warmup`` steps (torch.compile kernels of the
sparse mappings, caches); then ``steps`` rounds, each running every model on the same batch in a shuffled order
(so all see the same machine state); a model's speed is 1 / the median seconds per target token.
"""
from __future__ import annotations

import os
import platform
import random
import statistics
import sys
from pathlib import Path
from typing import Callable

import torch

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "src") not in sys.path:
    sys.path.insert(0, str(ROOT / "src"))


def compose(overrides: list[str]):
    """The resolved-on-access config of ``config.yaml`` with ``overrides`` (e.g. the experiment and profile)."""
    from hydra import compose as hydra_compose, initialize_config_dir

    from sparselab.engine.resolvers import register

    register()                                       # ${by_profile:smoke,cpu,paper}
    with initialize_config_dir(version_base="1.3", config_dir=str(ROOT / "conf"), job_name="bench"):
        return hydra_compose("config", overrides=list(overrides))


def zipf_weights(vocab: int) -> torch.Tensor:
    """Weights of the ``vocab - 3`` ordinary token ids (after the specials): rank k has weight ∝ 1 / k."""
    return 1.0 / torch.arange(1, vocab - 2, dtype=torch.float)


def progress(msg: str) -> None:
    """A benchmark's progress line, on stderr (stdout carries its Markdown)."""
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


def time_rounds(steps_of: dict[str, Callable[[dict], float]], batches: list[dict], warmup: int, steps: int,
                seed: int, say: Callable[[str], None] | None = None) -> tuple[dict[str, list[float]], list[int]]:
    """Run the timing protocol. ``steps_of[name](batch)`` takes one training step and returns its seconds;
    ``batch["tokens"]`` is its number of target tokens. Returns the seconds per target token of every timed
    step per model, and the tokens of each round's batch. ``say``: a progress line per model's warm-up and per
    round."""
    say = say or (lambda msg: None)
    for name, step in steps_of.items():
        say(f"warm-up: {name}, {warmup} steps")
        for i in range(warmup):
            step(batches[i % len(batches)])
    times: dict[str, list[float]] = {name: [] for name in steps_of}
    tokens = []
    rng = random.Random(seed)
    for i in range(steps):
        b = batches[i % len(batches)]
        tokens.append(b["tokens"])
        order = list(steps_of)
        rng.shuffle(order)
        for name in order:
            times[name].append(steps_of[name](b) / b["tokens"])      # seconds per target token
        say(f"round {i + 1}/{steps}")
    return times, tokens


def speeds(times: dict[str, list[float]]) -> dict[str, float]:
    """Target tokens per second: 1 / median seconds per target token."""
    return {name: 1.0 / statistics.median(t) for name, t in times.items()}


def cpu_description() -> str:
    """The CPU, and its 1-minute load average when the benchmark started: a box busy with other jobs gives noisier
    speeds (the ratios, measured side by side on the same batches, are what the reports compare)."""
    load = f", load average {os.getloadavg()[0]:.2f} at start" if hasattr(os, "getloadavg") else ""
    return f"cpu ({platform.processor() or platform.machine()}), {os.cpu_count()} cores{load}"


def device_description(device: torch.device) -> str:
    """The accelerator, or the CPU, a benchmark ran on."""
    if device.type == "cuda":
        return f"{torch.cuda.get_device_name(device)} (CUDA {torch.version.cuda}); host {cpu_description()}"
    return cpu_description()
