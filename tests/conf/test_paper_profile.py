"""The paper profile's GPU settings (issue 19): bf16 autocast (fp16 + gradient scaler on a GPU without bf16),
TF32 matmuls on CUDA, no CPU thread limit on a CUDA job; smoke and cpu stay in float32."""
from __future__ import annotations

from pathlib import Path

import pytest
import torch
from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf

from sparselab.engine import execute, resolvers

CONF = Path(__file__).resolve().parents[2] / "conf"


def composed(*overrides):
    resolvers.register()
    with initialize_config_dir(version_base="1.3", config_dir=str(CONF), job_name="t"):
        return compose(config_name="config", overrides=list(overrides))


@pytest.mark.parametrize("profile,precision,matmul", [("smoke", "32-true", "highest"), ("cpu", "32-true", "highest"),
                                                      ("paper", "bf16-mixed", "high")])
def test_precision_and_matmul_per_profile(profile, precision, matmul, monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    cfg = composed("experiment=correia2019/table1_bleu", f"profile={profile}")
    assert cfg.trainer.precision == precision
    assert cfg.engine.float32_matmul_precision == matmul


def test_paper_precision_on_a_gpu_without_bf16_is_fp16_mixed(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "is_bf16_supported", lambda *a, **k: False)
    assert resolvers._paper_precision() == "16-mixed"   # Lightning's 16-mixed adds the GradScaler


def test_cuda_job_sets_tf32_and_no_thread_limit(monkeypatch):
    cfg = OmegaConf.create({"threads": 1, "trainer": {"accelerator": "auto"},
                            "engine": {"float32_matmul_precision": "high"}})
    seen = {}
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch, "set_float32_matmul_precision", lambda p: seen.setdefault("matmul", p))
    monkeypatch.setattr(torch, "set_num_threads", lambda n: seen.setdefault("threads", n))
    assert execute._devices_setup(cfg) is None
    assert seen == {"matmul": "high"}
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert execute._devices_setup(cfg) == 1 and seen["threads"] == 1
