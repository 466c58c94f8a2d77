"""Every head's learned α over training (Correia, Niculae & Martins 2019, Figure 2), as a Lightning callback.

:class:`AlphaTrajectory` finds every learnable :class:`sparselab.mappings.Entmax` under the LightningModule's
``model`` and reads (attention type, layer) off its module name (:func:`sparselab.analysis.heads.normalizer_site`;
``encoder.layers.0.self_attn.normalizer`` -> ``enc_self`` layer 0). At the start of training, every
``every_n_steps`` optimizer steps and at the end it

* appends ``{"step": s, "alpha": {"<kind>/l<layer>": [α of each head]}}`` to :attr:`history` (plain JSON for the
  run record: :meth:`to_record`), and
* logs ``alpha/<kind>/l<layer>/h<head>`` scalars at step ``s`` to every logger of the trainer (W&B).

A model without learnable normalizers (softmax, fixed entmax) records nothing.
"""
from __future__ import annotations

from typing import Sequence

import lightning as L
import torch

from sparselab.analysis.heads import DEFAULT_SITES, learnable_normalizers


class AlphaTrajectory(L.Callback):
    def __init__(self, every_n_steps: int = 100, sites: Sequence[tuple[str, str]] = DEFAULT_SITES,
                 attr: str = "model"):
        if int(every_n_steps) < 1:
            raise ValueError(f"every_n_steps: expected a positive int, got {every_n_steps!r}")
        self.every = int(every_n_steps)
        self.sites = tuple(sites)
        self.attr = attr   # the LightningModule attribute that holds the nn.Module (the module itself if absent)
        self.history: list[dict] = []
        self.names: dict[str, str] = {}

    def _normalizers(self, pl_module):
        return learnable_normalizers(getattr(pl_module, self.attr, pl_module), self.sites)

    @torch.no_grad()
    def record(self, trainer, pl_module) -> None:
        """Record (and log) every head's α at the trainer's current global step, once per step."""
        step = int(trainer.global_step)
        if self.history and self.history[-1]["step"] == step:
            return
        found = self._normalizers(pl_module)
        if not found:
            return
        alphas = {f"{kind}/l{layer}": [float(a) for a in mod.alpha.detach().reshape(-1).cpu()]
                  for (kind, layer), (_, mod) in found.items()}
        self.names = {f"{kind}/l{layer}": name for (kind, layer), (name, _) in found.items()}
        self.history.append({"step": step, "alpha": alphas})
        metrics = {f"alpha/{site}/h{h}": a for site, heads in alphas.items() for h, a in enumerate(heads)}
        for logger in trainer.loggers:
            logger.log_metrics(metrics, step=step)

    def on_train_start(self, trainer, pl_module):
        if not self.history:   # the initial α: Figure 2 starts there (a resumed run has it from its checkpoint)
            self.record(trainer, pl_module)

    def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx):
        if trainer.global_step % self.every == 0:
            self.record(trainer, pl_module)

    def on_train_end(self, trainer, pl_module):
        self.record(trainer, pl_module)

    def to_record(self) -> dict:
        """The trajectories for the run record (``run.json`` extra): plain, JSON-serialisable."""
        return {"every_n_steps": self.every, "modules": dict(self.names), "history": list(self.history)}

    def state_dict(self) -> dict:
        return {"history": self.history, "names": self.names}

    def load_state_dict(self, state_dict: dict) -> None:
        self.history = list(state_dict.get("history", []))
        self.names = dict(state_dict.get("names", {}))
