"""sparselab.engine.devices: which device a job's process uses, and the CUDA matmul precision it sets."""
from __future__ import annotations

import pytest
import torch
from omegaconf import OmegaConf

from sparselab.engine import devices

LAUNCH_VARS = ("LOCAL_RANK", "SLURM_LOCALID", "SLURM_NTASKS")


@pytest.fixture
def gpu_job(monkeypatch):
    """A job allowed onto a GPU, on a machine that says it has one (no CUDA call is made)."""
    for var in LAUNCH_VARS:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    return OmegaConf.create({"trainer": {"accelerator": "auto"}})


def test_a_cpu_job_runs_on_the_cpu_even_with_a_gpu(gpu_job):
    gpu_job.trainer.accelerator = "cpu"
    assert devices.job_device(gpu_job) == torch.device("cpu")


def test_a_gpu_job_uses_the_gpu_of_its_local_rank(gpu_job, monkeypatch):
    assert devices.job_device(gpu_job) == torch.device("cuda", 0)
    monkeypatch.setenv("LOCAL_RANK", "3")              # Lightning's DDP children, torchrun
    assert devices.job_device(gpu_job) == torch.device("cuda", 3)
    monkeypatch.delenv("LOCAL_RANK")
    monkeypatch.setenv("SLURM_LOCALID", "2")           # srun, one task per GPU
    monkeypatch.setenv("SLURM_NTASKS", "4")
    assert devices.job_device(gpu_job) == torch.device("cuda", 2)
    monkeypatch.setenv("SLURM_NTASKS", "1")            # a single-task allocation: not a rank
    assert devices.job_device(gpu_job) == torch.device("cuda", 0)


def test_matmul_precision_is_the_profiles_with_highest_as_default(monkeypatch):
    before = torch.get_float32_matmul_precision()
    try:
        devices.set_matmul_precision(OmegaConf.create({"engine": {"float32_matmul_precision": "high"}}))
        assert torch.get_float32_matmul_precision() == "high"
        devices.set_matmul_precision(OmegaConf.create({}))
        assert torch.get_float32_matmul_precision() == "highest"
    finally:
        torch.set_float32_matmul_precision(before)
