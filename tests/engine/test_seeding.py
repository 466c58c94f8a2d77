"""A task that fits without Lightning is seeded as Lightning seeds the others, and its job never imports Lightning."""
from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import torch

from sparselab.engine import execute

PROJECT = Path(__file__).resolve().parents[2]


def _draws() -> tuple:
    return random.random(), float(np.random.rand()), float(torch.rand(()))


def test_seeding_without_lightning_gives_lightnings_generators_and_environment(monkeypatch):
    from lightning.fabric.utilities.seed import seed_everything

    for key in ("PL_GLOBAL_SEED", "PL_SEED_WORKERS"):
        monkeypatch.delenv(key, raising=False)
    seed_everything(7, workers=True, verbose=False)
    theirs = _draws(), os.environ["PL_GLOBAL_SEED"], os.environ["PL_SEED_WORKERS"]
    for key in ("PL_GLOBAL_SEED", "PL_SEED_WORKERS"):
        monkeypatch.delenv(key)
    execute._seed_everything(7)
    assert (_draws(), os.environ["PL_GLOBAL_SEED"], os.environ["PL_SEED_WORKERS"]) == theirs


def test_a_task_without_lightning_does_not_import_it_and_the_others_do():
    code = ("import sys; from omegaconf import OmegaConf; from sparselab.engine.execute import _seeded_task; "
            "names = sys.argv[1:]; "
            "[print(n, _seeded_task(OmegaConf.create({'task': {'name': n}, 'seed': 3})).__module__, "
            "'lightning' in sys.modules) for n in names]")
    out = subprocess.run([sys.executable, "-c", code, "multilabel", "label_proportions", "inflection_baseline", "snli"],
                         capture_output=True, text=True, cwd=PROJECT, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split("\n")[:4] == [
        "multilabel sparselab.tasks.multilabel False", "label_proportions sparselab.tasks.label_proportions False",
        "inflection_baseline sparselab.tasks.inflection_baseline False", "snli sparselab.tasks.snli True"]
