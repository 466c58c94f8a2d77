"""logger=tensorboard: a local dashboard without an account (issue 23, acceptance 4).

A Correia smoke job (α-entmax attention, 40 steps) logs to TensorBoard event files; a real ``tensorboard`` server
is started on them and its HTTP API must list the α trajectories and JS diversity (scalars), the α and density
histograms, the attention maps (images) and the heads table (text). Skipped where the ``tensorboard`` package is
not installed (it is not a dependency of sparselab).
"""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

import warm

PROJECT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str):
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


@pytest.mark.slow
def test_tensorboard_serves_the_alpha_trajectories_js_histograms_and_images(tmp_path):
    import tensorboard  # noqa: F401 - a dependency (pyproject.toml): a missing package fails here, not skips
    env = dict(os.environ, OMP_NUM_THREADS="1", SPARSELAB_COMPILE="0", HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1",
               PYTHONPATH=os.pathsep.join([str(PROJECT / "src"), *filter(None, [os.environ.get("PYTHONPATH")])]))
    runs = tmp_path / "runs"
    proc = warm.run([sys.executable, "-m", "sparselab.run", "-m", "experiment=correia2019/table1_bleu",
                           "profile=smoke", "mapping=alpha_entmax", "data.pair=de-en", "logger=tensorboard",
                           f"paths.runs={runs}"], cwd=PROJECT, env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    assert not list(runs.rglob("wandb")), "logger=tensorboard must not start W&B"
    assert list(runs.glob("smoke/correia2019/table1_bleu/*/tensorboard/events.out.tfevents.*"))

    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "tensorboard.main", "--logdir", str(runs), "--host", "127.0.0.1",
                               "--port", str(port), "--load_fast=false"], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
    try:
        base = f"http://127.0.0.1:{port}/data/plugin"
        deadline, tags = time.time() + 120, {}
        while time.time() < deadline:
            try:
                tags = _get(f"{base}/scalars/tags")
                if tags and any(any(k.startswith("js/") for k in v) for v in tags.values()):
                    break
            except OSError:
                pass
            assert server.poll() is None, server.stderr.read()[-2000:]
            time.sleep(1)
        [(run, scalars)] = tags.items()
        assert run.endswith("/tensorboard")
        alpha = [k for k in scalars if k.startswith("alpha/")]
        # 2 layers x 4 heads x 3 attention types of the smoke model
        assert len(alpha) == 24 and {"alpha/enc_self/l0/h0", "alpha/context/l1/h3"} <= set(alpha)
        assert {f"js/{k}/l{i}" for k in ("enc_self", "dec_self", "context") for i in (0, 1)} <= set(scalars)
        assert {"val_acc", "val_loss", "train_loss", "bleu", "output_alpha"} <= set(scalars)
        trajectory = _get(f"{base}/scalars/scalars?run={run}&tag=alpha/enc_self/l0/h0")
        steps = [s for _, s, _ in trajectory]       # from step 0 (the initial α) to the last of 40 steps
        assert steps[0] == 0 and steps[-1] == 40 and steps == sorted(set(steps)) and len(steps) >= 3
        hists = _get(f"{base}/histograms/tags")[run]
        assert {f"alpha_hist/{k}" for k in ("enc_self", "dec_self", "context")} <= set(hists)
        assert "density_hist/context" in hists
        images = _get(f"{base}/images/tags")[run]
        assert images["attention/maps"]["samples"] >= 1
        assert any(t.startswith("heads/alpha_density") for t in _get(f"{base}/text/tags")[run])
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert server.returncode is not None
