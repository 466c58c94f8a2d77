"""The one training loop under every neural task: build the trainer, fit with model selection and early
stopping, resume inside a job, keep the best state, clean up. Rank-aware under DDP.

A task calls :func:`fit` with its LightningModule (one of ``sparselab.training.*_module``: it gives the
model-selection callbacks, :meth:`callbacks`, named by ``metric_name``) and its loaders, then evaluates
when :attr:`Fitted.is_global_zero` (other DDP ranks return at once: evaluation and beam search run on
rank 0 only, unsharded, so every number in a record comes from one process's full decode).

**Model selection.** ``<run dir>/checkpoints/best.ckpt`` (weights only) is the state with the best
validation metric (the module's ``ModelCheckpoint``); early stopping when the fit settings' patience
(``task.early_stopping_patience``) is set. After ``fit`` rank 0 loads the best state into the module, writes ``checkpoints/fit_done.json``
(the facts of the fit) and meets the other ranks at a barrier (``trainer.strategy.barrier``). The checkpoint
folder is deleted once the job's record says finished (``RunContext.after_finished``); ``model.pt`` (written
by the task, rank 0) holds the best weights. A job killed while it evaluates (beam search over a test set
can take hours at paper scale) finds ``fit_done.json`` when it runs again: ``fit`` restores ``last.ckpt``
with ``max_steps`` set to the step training ended at, so nothing is trained, and the record keeps the first
attempt's fit facts (``tests/e2e/test_resume.py``).

**Resume inside a job.** A second ``ModelCheckpoint`` (no monitor, top 1) writes ``checkpoints/last.ckpt``
at every validation: weights, optimizer, Lightning's schedulers, loop progress, every callback's state
(early stopping, best-checkpoint bookkeeping, α trajectories), the module's own state
(:mod:`sparselab.training.run_state`: history, counters, the halving rule) and the training loader's
position and random state (:class:`sparselab.data.resumable.ResumableLoader`: Lightning's stateful-dataloader
interface, also carried as a callback state, :class:`_LoaderState`; a checkpoint in the middle of an epoch
resumes at its next batch). The run folder
is the job's identity (``${paths.runs}/<profile>/<experiment>/<job id>``), so a ``last.ckpt`` found
there is this job's: ``fit`` passes it as ``ckpt_path`` and training goes on from that validation.
Without one, a stale folder (best files of an attempt killed before its first validation) is deleted.
``engine.resume: false`` (re-run finished jobs too) also starts training from step 0. On CPU a resumed
run ends with the same numbers as an uninterrupted one (``tests/e2e/test_resume.py``).

This serves a SLURM requeue through **submitit's checkpoint hook**, which ``hydra/launcher=slurm`` uses:
submitit signals the job ``signal_delay_s`` before its time limit, hydra-submitit's ``checkpoint`` resubmits
the same job (``max_num_timeout`` times at most, conf/hydra/launcher/slurm.yaml), and the requeued job finds
its run folder and resumes from ``last.ckpt``. Under a plain ``sbatch`` script, Lightning's own SLURM
auto-requeue (``SIGUSR1``, ``#SBATCH --signal=SIGUSR1@90``) saves ``hpc_ckpt_<n>.ckpt`` in the run folder and
requeues; the job then resumes from the newer of that file and ``last.ckpt`` (:func:`resume_checkpoint`).
A job killed without warning (SIGKILL, a node failure) resumes from its last validation. Either file is
deleted with the checkpoint folder when the job has finished.

**What runs where under DDP.** Every rank builds the same trainer and calls ``fit`` with the same
``ckpt_path`` (each reads the shared run folder before the process group exists; Lightning starts the
other ranks inside rank 0's ``fit``, so none of them can see a checkpoint that rank 0 has not). Rank 0
alone deletes the stale folder (``rank_zero_only``) and, once the record is written, the checkpoint folder;
Lightning writes checkpoints from rank 0 only. Validation metrics come from torchmetrics states, whose
``compute`` all-reduces them: every rank logs the same value (so ``sync_dist`` is not needed for them).
"""
from __future__ import annotations

import json
import os
import logging
import shutil
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

import lightning as L
from lightning.pytorch.utilities import rank_zero_only

from sparselab.engine import signals
from sparselab.engine.context import RunContext
from sparselab.engine.record import write_text_atomically

log = logging.getLogger("sparselab")
CHECKPOINTS = "checkpoints"
LAST = "last.ckpt"
FIT_DONE = "fit_done.json"      # in the checkpoint folder once training has ended (facts of the fit)
# Lightning's warnings of a resumed fit that describe its intended state (silenced for that fit only):
RESUME_WARNINGS = (
    # the folder holds the last.ckpt the fit resumes from (a fit that starts afresh has deleted it first)
    r"Checkpoint directory .* exists and is not empty",
    # resumed after an epoch-end validation, Lightning saves before this process has validated: no metric yet
    r"`ModelCheckpoint\(monitor='[^']+'\)` could not find the monitored key in the returned metrics: "
    r"\['epoch', 'step'\]",
)


@dataclass(frozen=True)
class FitSettings:
    """What the loop reads of a run's config: built once by the task (:mod:`sparselab.tasks.settings`)."""
    trainer: Mapping[str, Any]                  # the Lightning Trainer's arguments (``trainer.*``, resolved)
    resume: bool = True                         # engine.resume
    early_stopping_patience: int | None = None  # task.early_stopping_*
    early_stopping_min_delta: float = 0.0
    early_stopping_start: float = 0.0


@dataclass
class Fitted:
    """What :func:`fit` hands back: the trainer and the facts of the fit for the run record."""
    trainer: L.Trainer
    fit_time_s: float            # this process's fit (a resumed run: since it resumed)
    stopped_early: bool
    early_stopping_started_epoch: int | None
    resumed_from_step: int       # 0 when training started from scratch
    ended: dict | None = None    # a fit that had ended before the job was killed: its step and epoch counts

    @property
    def is_global_zero(self) -> bool:
        return self.trainer.is_global_zero

    @property
    def steps(self) -> int:
        return int(self.ended["steps"]) if self.ended else int(self.trainer.global_step)

    @property
    def epochs(self) -> int:
        return int(self.ended["epochs"]) if self.ended else int(self.trainer.current_epoch)

    def record(self) -> dict:
        """The record's ``extra`` entries of the fit."""
        return {"stopped_early": self.stopped_early, "resumed_from_step": self.resumed_from_step,
                "early_stopping_started_epoch": self.early_stopping_started_epoch}


class _ResumedFrom(L.Callback):
    """The global step training starts from (after a checkpoint was restored; 0 when fresh)."""

    def __init__(self):
        self.step = 0

    def on_train_start(self, trainer, pl_module):
        self.step = int(trainer.global_step)
        if self.step:
            log.info("resumed from step %d (epoch %d)", self.step, trainer.current_epoch)


class _LoaderState(L.Callback):
    """Carries the training loader's state (:class:`~sparselab.data.resumable.ResumableLoader`) in every
    checkpoint as a callback state, which Lightning always restores. Its own stateful-dataloader path
    restores a loader only when it restarts inside an epoch (or trains by steps): an epoch-based run
    resumed at an epoch's end would start its next epoch with the first epoch's batches. Where both
    apply, the loader gets the same state twice (``load_state_dict`` sets, it does not add)."""

    def __init__(self, loader):
        self.loader = loader

    def state_dict(self) -> dict:
        return self.loader.state_dict()

    def load_state_dict(self, state_dict: dict) -> None:
        self.loader.load_state_dict(state_dict)


def unreadable_checkpoint(path: Path) -> str | None:
    """Why ``path`` is not a whole checkpoint (one line), else None. torch saves a zip archive: a truncated file has
    no central directory, a damaged one fails a member's CRC; both are found here without loading a tensor."""
    import zipfile

    try:
        with zipfile.ZipFile(path) as zf:
            bad = zf.testzip()
    except (OSError, zipfile.BadZipFile, EOFError, ValueError, RuntimeError) as err:
        return f"{type(err).__name__}: {' '.join(str(err).split())}"[:200]
    return f"member {bad} is damaged (CRC mismatch)" if bad else None


def resume_checkpoint(ckpt_dir: Path, root: Path) -> Path | None:
    """The checkpoint to resume from: the newest whole one of ``<ckpt_dir>/last.ckpt`` and the
    ``hpc_ckpt_<n>.ckpt`` Lightning's SLURM requeue left in ``root`` (None: none). One that cannot be read
    (truncated, damaged) is moved aside to ``<run dir>/<name>.corrupt``, named in one line, and the next newest is
    tried; with none left the job starts again."""
    found = [p for p in [ckpt_dir / LAST] if p.is_file()]
    found += sorted(root.glob("hpc_ckpt_*.ckpt"), key=lambda p: int(p.stem.rsplit("_", 1)[-1]))
    for path in sorted(found, key=lambda p: p.stat().st_mtime, reverse=True):
        why = unreadable_checkpoint(path)
        if why is None:
            return path
        aside = root / f"{path.name}.corrupt"
        try:
            os.replace(path, aside)
        except FileNotFoundError:   # another rank of a DDP job moved it first
            pass
        rest = [p for p in found if p.is_file()]
        log.warning("checkpoint %s cannot be read (%s): moved aside to %s; %s", path, why, aside,
                    "trying the next newest" if rest else "the job starts again from step 0")
    return None


@rank_zero_only
def _remove(run_dir: Path, why: str) -> None:
    """Delete the checkpoint folder and any SLURM requeue checkpoint (rank 0 only)."""
    ckpt_dir = run_dir / CHECKPOINTS
    if ckpt_dir.exists():
        log.info("removing %s: %s", ckpt_dir, why)
        shutil.rmtree(ckpt_dir, ignore_errors=True)
    for p in run_dir.glob("hpc_ckpt_*.ckpt"):
        p.unlink(missing_ok=True)


def fit(module: L.LightningModule, train_dl, val_dl, settings: FitSettings, ctx: RunContext, callbacks=(),
        **trainer_overrides) -> Fitted:
    """Train ``module`` (module docstring); the best state is loaded into it on rank 0, on the device it
    trained on, in eval mode. ``callbacks`` are the task's own (e.g. the α trajectory);
    ``trainer_overrides`` go to :func:`sparselab.engine.trainer.make_trainer`."""
    from lightning.pytorch.callbacks import ModelCheckpoint

    from sparselab.engine.trainer import ValidateOnLastStep, make_trainer
    from sparselab.training import validation_media

    run_dir = Path(ctx.run_dir)
    ckpt_dir = run_dir / CHECKPOINTS
    resume = settings.resume
    ckpt_path = resume_checkpoint(ckpt_dir, run_dir) if resume else None
    if ckpt_path is None:
        # a killed earlier attempt's best file must not be taken for this run's
        _remove(run_dir, "no checkpoint to resume from" if resume else "engine.resume=false")
    # (whichever file it resumes from: a SLURM requeue signal during evaluation saves an hpc_ckpt of the final state)
    done = _fit_done(ckpt_dir) if ckpt_path is not None else None
    if done is not None:
        # training had ended (the job was killed while it evaluated): restore its final state, train nothing
        log.info("training had ended at step %d: restoring its final state from %s", done["steps"], ckpt_path)
        trainer_overrides = {**trainer_overrides, "max_steps": int(done["steps"])}
    selection = module.callbacks(ckpt_dir, settings.early_stopping_patience, settings.early_stopping_min_delta,
                                 settings.early_stopping_start)
    # The whole state at every validation, for resume: a top-1 checkpoint without a monitor is the latest one.
    # (save_last=True would write last.ckpt only beside another file saved at the same step: a second full copy.)
    last = ModelCheckpoint(dirpath=str(ckpt_dir), filename=LAST.removesuffix(".ckpt"), monitor=None, save_top_k=1,
                           enable_version_counter=False)
    resumed = _ResumedFrom()
    if hasattr(train_dl, "state_dict") and hasattr(train_dl, "load_state_dict"):
        callbacks = [_LoaderState(train_dl), *callbacks]
    # Lightning orders checkpoint callbacks last, in this order: last.ckpt then holds the best one's new state
    callbacks = [*selection, last, ValidateOnLastStep(), resumed, *callbacks, *validation_media.for_run(ctx)]
    trainer = make_trainer(settings.trainer, ctx, callbacks=callbacks,
                           train_batches=len(train_dl), **{"num_sanity_val_steps": 0, **trainer_overrides})
    # Lightning keeps each submodule's train/eval mode as it finds it at fit start (and restores it after every
    # validation), so a model left in eval mode by an analysis before fit (the Transformer's step-0 head
    # statistics) would train without dropout.
    module.train()
    t0 = time.time()
    # weights_only=True: a runs folder on a shared file system must not run code on load; the checkpoint holds
    # tensors and plain containers only (RNG states as lists: sparselab.data.resumable.rng_states)
    # a SIGTERM in fit is Lightning's: it stops at the next batch (SIGTERMException), never mid-checkpoint
    with signals.deferred(), warnings.catch_warnings():
        if ckpt_path is not None:
            for message in RESUME_WARNINGS:
                warnings.filterwarnings("ignore", message=message, module=r"lightning\.pytorch\.callbacks\.")
        trainer.fit(module, train_dl, val_dl, ckpt_path=str(ckpt_path) if ckpt_path else None, weights_only=True)
    fit_time = time.time() - t0
    stop = next((c for c in selection if hasattr(c, "stopping_reason")), None)
    stopped_early = stop is not None and stop.stopping_reason.name != "NOT_STOPPED"
    started_epoch = getattr(stop, "started_epoch", None)
    facts = {"steps": int(trainer.global_step), "epochs": int(trainer.current_epoch), "fit_time_s": fit_time,
             "stopped_early": bool(stopped_early), "started_epoch": started_epoch, "resumed_from_step": resumed.step}
    if done is not None:    # the facts of the fit that ended before, not of this no-op one
        facts = done
    if trainer.is_global_zero:
        module.load_best(selection[0])     # the best state by the module's metric, weights_only=True
        if done is None:
            _write_fit_done(ckpt_dir, facts)
    trainer.strategy.barrier("sparselab.loop: best state loaded")
    log.info("rank %d of %d: training done; %s", trainer.global_rank, trainer.world_size,
             "evaluating on this rank" if trainer.is_global_zero else "rank 0 evaluates")
    # The checkpoint folder stays until the job's record says finished (a kill while evaluating resumes here)
    ctx.after_finished.append(lambda: _remove(run_dir, "the job has finished"))
    # Lightning's teardown leaves the module on the CPU; evaluate on the device it trained on
    module.to(trainer.strategy.root_device)
    module.eval()
    return Fitted(trainer, facts["fit_time_s"], facts["stopped_early"], facts["started_epoch"],
                  facts["resumed_from_step"], ended=done)


def _fit_done(ckpt_dir: Path) -> dict | None:
    path = ckpt_dir / FIT_DONE
    try:
        return json.loads(path.read_text()) if path.is_file() else None
    except (OSError, ValueError) as err:   # written atomically, so only a damaged disk gets here: train again
        log.warning("%s cannot be read (%s): resuming training from the checkpoint", path, err)
        return None


@rank_zero_only
def _write_fit_done(ckpt_dir: Path, facts: dict) -> None:
    # atomic: a kill mid-write must not leave an empty file that the re-run cannot read (CI failure, stop 41)
    write_text_atomically(ckpt_dir / FIT_DONE, json.dumps(facts))
