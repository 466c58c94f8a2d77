"""tests/support.py: exact on the fixture's CPU kernels, presence and finiteness of torch-fit rows elsewhere."""
import json

import torch

from sparselab.engine.devices import cpu_kernel
from support import smoke_diff as diff

WANT = {"fit/a": {"acc": 50.0, "loss": 1.0}, "lbfgs/b": {"js": 0.02}}


def fixture(tmp_path, kernel):
    path = tmp_path / "smoke_metrics.json"
    path.write_text(json.dumps({"_kernel": kernel, "paper": WANT}))
    return path


def torch_fit(row):
    return row.startswith("fit/")


def test_on_the_fixtures_kernels_every_number_must_match(tmp_path):
    path = fixture(tmp_path, cpu_kernel())
    assert diff("paper", WANT, torch_fit, fixture=path) == []
    moved = {**WANT, "fit/a": {"acc": 50.1, "loss": 1.0}}
    assert diff("paper", moved, torch_fit, fixture=path) == ["fit/a: acc = 50.1, expected 50.0"]


def test_on_other_kernels_a_torch_fit_may_move_but_must_be_there_and_finite(tmp_path):
    path = fixture(tmp_path, "torch 0; aten AVX2; inductor avx2; cpu avx2+fma")
    assert diff("paper", {**WANT, "fit/a": {"acc": 53.3, "loss": 0.9}}, torch_fit, fixture=path) == []
    assert diff("paper", {**WANT, "fit/a": {"acc": float("nan"), "loss": 0.9}}, torch_fit,
                fixture=path) == ["fit/a: acc = nan is not finite"]
    assert diff("paper", {**WANT, "fit/a": {"acc": 50.0}}, torch_fit,
                fixture=path) == ["fit/a: metrics ['acc'], expected ['acc', 'loss']"]
    assert diff("paper", {"lbfgs/b": WANT["lbfgs/b"]}, torch_fit, fixture=path) == ["fit/a: missing"]
    # the rows that are not torch fits keep their tolerance on any kernels
    assert diff("paper", {**WANT, "lbfgs/b": {"js": 0.03}}, torch_fit, abs_tol=1e-4,
                fixture=path) == ["lbfgs/b: js = 0.03, expected 0.02"]


def test_a_machine_with_a_gpu_counts_as_other_kernels(tmp_path, monkeypatch):
    # the smoke jobs run with trainer.accelerator=auto: with a GPU they train on it, whatever the CPU
    path = fixture(tmp_path, cpu_kernel())
    moved = {**WANT, "fit/a": {"acc": 50.1, "loss": 1.0}}
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    assert diff("paper", moved, torch_fit, fixture=path) == []
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert diff("paper", moved, torch_fit, fixture=path) == ["fit/a: acc = 50.1, expected 50.0"]


def test_the_kernel_string_names_what_changes_float32_sums():
    k = cpu_kernel()
    assert k.startswith("torch ") and "; aten " in k and "; inductor " in k and "; cpu " in k
