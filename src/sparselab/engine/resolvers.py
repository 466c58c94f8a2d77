"""OmegaConf resolvers used by the configs.

``${by_profile:S,C,P}`` picks the smoke, cpu or paper value by ``profile.name``: for the settings every paper shares
(the engine's, the data root). A paper's own values are its experiment files' (the paper profile's), and a smoke or
cpu run merges the experiment's overlay, ``conf/overlay/<paper>/<artefact>/<profile>.yaml`` (conf/config.yaml).

``${job_id:}`` is the job's identity (:func:`sparselab.engine.record.job_id` of the resolved config
without its ``hydra`` node); the run folder is named by it (conf/config.yaml), so the same job under
another spelling (``mapping.alpha=1`` / ``1.0``, an explicit default ``seed=0``) is the same folder.

``${slurm_tasks:STRATEGY,DEVICES}`` and ``${slurm_gpus:ACCELERATOR,DEVICES}`` tie the submitit launchers'
``tasks_per_node`` and ``gpus_per_node`` to the trainer (Lightning's ``SLURMEnvironment`` refuses a job whose
tasks per node differ from its devices).

``${precision:}`` is the trainer's precision: full float32 in smoke and cpu, the paper profile's on this machine
(:func:`_paper_precision`).

``${excerpts:}`` is the folder of the data excerpts shipped in the package (:data:`sparselab.locations.EXCERPTS`), the smoke
profile's data root.
"""
from __future__ import annotations

from omegaconf import OmegaConf

from sparselab.errors import ConfigError

PROFILES = ("smoke", "cpu", "paper")


def _by_profile(smoke, cpu, paper, *, _root_):
    name = _root_.profile.name
    if name not in PROFILES:
        raise ConfigError(f"profile.name={name!r} is not one of {', '.join(PROFILES)}")
    return {"smoke": smoke, "cpu": cpu, "paper": paper}[name]


def _job_id(*, _root_):
    from sparselab.engine.record import job_id, resolved

    try:
        config = resolved(_root_)
    except Exception:
        return "unresolvable-config"
    return job_id(config)


def _slurm_tasks(strategy, devices):
    from sparselab.engine.distributed import single_process

    if single_process(strategy):
        return 1
    if not isinstance(devices, int) or devices < 1:
        raise ConfigError(f"trainer.devices={devices!r}: under a submitit launcher set it to the number of "
                          "devices per node, e.g. trainer.devices=4")
    return devices


def _slurm_gpus(accelerator, devices):
    if str(accelerator) == "cpu":
        return 0
    return devices if isinstance(devices, int) and devices > 0 else 1


def _paper_precision():
    """bf16 autocast, except on a CUDA GPU without bf16 (pre-Ampere), which gets fp16 autocast with Lightning's
    gradient scaler. Precision is part of a job's identity (it changes the numbers)."""
    import torch

    if torch.cuda.is_available() and not torch.cuda.is_bf16_supported():
        return "16-mixed"
    return "bf16-mixed"


def _precision(*, _root_):
    # not ${by_profile:…,${paper_precision:}}: OmegaConf resolves every argument, so each smoke or cpu config (and each
    # report that composes one) imported torch to ask for a GPU it does not use
    profile = _by_profile("smoke", "cpu", "paper", _root_=_root_)    # refuses an unknown profile name
    return _paper_precision() if profile == "paper" else "32-true"


def _validations(steps, every):
    """``${validations:STEPS,EVERY}``: a patience given in updates, as whole validations of a cadence of EVERY
    steps (rounded up); null stays null (no early stopping)."""
    if steps is None:
        return None
    if int(every) <= 0:
        raise ConfigError(f"validations: a cadence of {every} steps (expected > 0)")
    return -(-int(steps) // int(every))


def _excerpts() -> str:
    from sparselab.locations import EXCERPTS

    return str(EXCERPTS)


def register() -> None:
    for name, fn in (("slurm_tasks", _slurm_tasks), ("slurm_gpus", _slurm_gpus), ("precision", _precision),
                     ("excerpts", _excerpts), ("validations", _validations)):
        if not OmegaConf.has_resolver(name):
            OmegaConf.register_new_resolver(name, fn)
    if not OmegaConf.has_resolver("by_profile"):
        OmegaConf.register_new_resolver("by_profile", _by_profile)
    if not OmegaConf.has_resolver("job_id"):
        OmegaConf.register_new_resolver("job_id", _job_id)
