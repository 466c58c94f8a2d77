"""AlphaTrajectory: every head's learned α recorded and logged over training steps (Correia et al. 2019, Fig. 2)."""
from __future__ import annotations

import json
from types import SimpleNamespace

import lightning as L
import pytest
import torch
from lightning.pytorch.loggers import Logger
from torch import nn

from sparselab.mappings import Entmax
from sparselab.training.alpha_trajectory import AlphaTrajectory


class TinyTransformer(nn.Module):
    """Only what the callback looks at: learnable normalizers named like the Transformer's."""

    def __init__(self, heads=2, layers=2):
        super().__init__()

        def block(*names):
            return nn.ModuleDict({n: nn.ModuleDict({"normalizer": Entmax(learnable=True, num_heads=heads)})
                                  for n in names})

        self.encoder = nn.Module()
        self.encoder.layers = nn.ModuleList([block("self_attn") for _ in range(layers)])
        self.decoder = nn.Module()
        self.decoder.layers = nn.ModuleList([block("self_attn", "context_attn") for _ in range(layers)])

    def alpha_sum(self):
        return sum(m.alpha.sum() for m in self.modules() if isinstance(m, Entmax))


class Captured(Logger):
    def __init__(self):
        super().__init__()
        self.logged: list[tuple[int, dict]] = []

    @property
    def name(self):
        return "captured"

    @property
    def version(self):
        return 0

    def log_hyperparams(self, params, *args, **kwargs):
        pass

    def log_metrics(self, metrics, step=None):
        self.logged.append((step, dict(metrics)))


class AlphaModule(L.LightningModule):
    """Minimises the sum of every α, so every α moves down at every step."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)   # a ~ N(0, 1): a fixed draw keeps every α clear of the clamp at the start
        self.model = TinyTransformer()

    def training_step(self, batch, batch_idx):
        return self.model.alpha_sum() + 0.0 * batch.sum()

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=1.0)


def test_hooks_record_every_n_steps_and_log_per_head(device):
    module = AlphaModule().to(device)
    logger = Captured()
    trainer = SimpleNamespace(global_step=0, loggers=[logger])
    cb = AlphaTrajectory(every_n_steps=2)
    opt = module.configure_optimizers()
    cb.on_train_start(trainer, module)
    for step in range(1, 6):
        opt.zero_grad()
        module.training_step(torch.zeros(1, device=device), 0).backward()
        opt.step()
        trainer.global_step = step
        cb.on_train_batch_end(trainer, module, None, None, 0)
    cb.on_train_end(trainer, module)
    assert [h["step"] for h in cb.history] == [0, 2, 4, 5]
    first, last = cb.history[0]["alpha"], cb.history[-1]["alpha"]
    assert list(first) == ["enc_self/l0", "enc_self/l1", "dec_self/l0", "dec_self/l1", "context/l0", "context/l1"]
    assert all(b < a for site in first for a, b in zip(first[site], last[site]))   # every head's α went down
    assert all(1.01 <= a <= 2.0 for site in last for a in last[site])             # the clamp holds
    step, metrics = logger.logged[-1]
    assert step == 5 and len(metrics) == 6 * 2
    assert metrics["alpha/context/l1/h0"] == pytest.approx(last["context/l1"][0])
    rec = json.loads(json.dumps(cb.to_record()))
    assert rec["modules"]["context/l1"] == "decoder.layers.1.context_attn.normalizer"
    assert rec["history"] == cb.history


def test_three_step_trainer_on_cpu(tmp_path):
    module, logger = AlphaModule(), Captured()
    cb = AlphaTrajectory(every_n_steps=1)
    data = torch.utils.data.DataLoader(torch.zeros(8, 1), batch_size=2)
    trainer = L.Trainer(max_steps=3, accelerator="cpu", logger=logger, callbacks=[cb], enable_progress_bar=False,
                        enable_model_summary=False, enable_checkpointing=False, log_every_n_steps=1,
                        default_root_dir=str(tmp_path))
    trainer.fit(module, data)
    assert [h["step"] for h in cb.history] == [0, 1, 2, 3]
    logged = [s for s, m in logger.logged if "alpha/enc_self/l0/h0" in m]
    assert logged == [0, 1, 2, 3]


def test_no_learned_alpha_records_nothing():
    cb = AlphaTrajectory()
    fixed = nn.ModuleDict({"encoder": nn.ModuleDict({"0": Entmax(alpha=1.5)})})
    cb.on_train_start(SimpleNamespace(global_step=0, loggers=[]), SimpleNamespace(model=fixed))
    assert cb.history == []
    with pytest.raises(ValueError, match="every_n_steps"):
        AlphaTrajectory(every_n_steps=0)
