"""How a job's DDP processes are started, for each way a job can be launched.

Lightning starts the extra ranks of a ``strategy=ddp`` job in one of two ways, and each needs one thing
from us before the Trainer exists:

* **A plain process** (``python -m sparselab.run``, the basic or joblib launcher): Lightning's
  ``_SubprocessScriptLauncher`` re-runs ``sys.argv`` once per extra rank. Under a Hydra multirun that
  command line is the whole sweep (``-m`` and every comma list, or an experiment that sets
  ``hydra.mode: MULTIRUN``), so every child would re-launch the sweep. :func:`prepare` therefore points
  ``sys.argv`` at this one job: its own resolved overrides (``hydra.overrides.task``) plus
  ``hydra.mode=RUN``. The child composes the same config, so it has the same identity and run folder
  (``conf/config.yaml``: ``hydra.run.dir`` is named by the job's identity).
* **A submitit job** (``hydra/launcher=slurm`` on a cluster, ``slurm_local`` here): submitit starts one
  process per task (``tasks_per_node`` × ``nodes``, derived from ``trainer.devices`` and
  ``trainer.num_nodes`` in the launcher configs). On SLURM, Lightning's ``SLURMEnvironment`` reads the
  ranks from ``SLURM_*``. Submitit's local executor sets only ``SUBMITIT_LOCAL_*``, so :func:`prepare`
  exports them in torch's names (``submitit.helpers.TorchDistributedEnvironment``), which Lightning's
  default environment reads as processes created outside it. A submitit job with one task and several
  devices would make Lightning re-run submitit's own command line; that is refused in one line.

Hand-written because no library covers it: Lightning's Hydra support
(``lightning.fabric.strategies.launchers.subprocess_script._hydra_subprocess_cmd``) re-uses ``sys.argv`` as is.
"""
from __future__ import annotations

import os
import sys
from typing import Any

from omegaconf import DictConfig, OmegaConf

from sparselab.errors import ConfigError


def process_rank() -> int:
    """0 for the first process of a distributed job (or a job that is not distributed), > 0 for the others: read
    from what the launchers set (torchrun/Lightning: RANK, or LOCAL_RANK and NODE_RANK; SLURM: SLURM_PROCID)."""
    env = os.environ
    if env.get("RANK", "").isdigit():
        return int(env["RANK"])
    if env.get("SLURM_PROCID", "").isdigit() and int(env.get("SLURM_NTASKS", "1") or 1) > 1:
        return int(env["SLURM_PROCID"])
    return int(env.get("LOCAL_RANK", "0") or 0) + int(env.get("NODE_RANK", "0") or 0)


def single_process(strategy) -> bool:
    """Whether a ``trainer.strategy`` runs one process per node (Lightning's ``auto`` on one device)."""
    return str(strategy) in ("auto", "single_device", "None")


def processes_per_node(cfg: DictConfig) -> int:
    """The processes one node of this job runs: ``trainer.devices`` for a DDP strategy, else 1."""
    strategy = OmegaConf.select(cfg, "trainer.strategy", default=None)
    devices = OmegaConf.select(cfg, "trainer.devices", default=1)
    if single_process(strategy) or not isinstance(devices, int):
        return 1
    return max(1, devices)


def _submitit_tasks() -> tuple[str, int] | None:
    """(executor name, number of tasks) inside a submitit job (``SUBMITIT_EXECUTOR`` is set by its local and
    SLURM executors), else None."""
    if not os.environ.get("SUBMITIT_EXECUTOR"):
        return None
    from submitit import JobEnvironment

    env = JobEnvironment()
    return env.cluster, env.num_tasks


def prepare(cfg: DictConfig, overrides: list[str]) -> dict[str, Any]:
    """Make this process ready for the job's DDP launch. Returns what :func:`restore` needs to undo it after the
    job (the basic launcher runs the next job of a sweep in this same process)."""
    changed: dict[str, Any] = {"environ": dict(os.environ)}
    per_node = processes_per_node(cfg)
    nodes = int(OmegaConf.select(cfg, "trainer.num_nodes", default=1) or 1)
    submitit = _submitit_tasks()
    if submitit is not None:
        kind, ntasks = submitit
        if per_node * nodes > 1 and ntasks != per_node * nodes:
            raise ConfigError(
                f"this submitit job has {ntasks} task(s) but trainer.devices={per_node} × trainer.num_nodes={nodes}: "
                "use hydra/launcher=slurm (or slurm_local), whose tasks_per_node and nodes follow the trainer")
        if kind == "local" and ntasks > 1:
            from submitit.helpers import TorchDistributedEnvironment

            # every task is one rank; CUDA_VISIBLE_DEVICES stays whole (Lightning maps local rank → device)
            TorchDistributedEnvironment().export(set_cuda_visible_devices=False)
        return changed
    if per_node * nodes > 1 and "LOCAL_RANK" not in os.environ:
        changed["argv"] = list(sys.argv)
        sys.argv = [sys.argv[0], *overrides, "hydra.mode=RUN"]
    return changed


def restore(changed: dict[str, Any]) -> None:
    """Undo :func:`prepare` and what Lightning's DDP set up in this process: its process group (Lightning's
    teardown keeps it, and the next job's Trainer would reuse it, talking to ranks that have exited) and the
    environment it exported (``MASTER_PORT``, ``WORLD_SIZE``, ...)."""
    import torch.distributed as dist

    if dist.is_available() and dist.is_initialized():
        dist.destroy_process_group()
    if "argv" in changed:
        sys.argv = changed["argv"]
    if "environ" in changed:
        os.environ.clear()
        os.environ.update(changed["environ"])
