"""A training loader that a run killed mid-training can resume where it stood, batch for batch.

:class:`ResumableLoader` is a ``DataLoader`` with ``state_dict`` / ``load_state_dict``, the interface of
Lightning's stateful-dataloader support (the fit loop stores the state in every checkpoint and hands it
back before the loader's first iterator is made, when ``fit`` resumes inside an epoch;
``sparselab.training.loop`` also carries it as a callback state, because Lightning skips it when an
epoch-based run resumes at an epoch's end). Its state is where the training stream stands:

* ``epoch``: the pass over the data in progress (or the last one), and ``batches``: how many batches
  of it the training loop received, counted in the main process. Lightning does not prefetch from a loader
  with a length, so at a checkpoint these are the batches trained on; worker processes
  (``num_workers > 0``) draw ahead of them, so the sampler's own position is not used, and an iterator
  that is made but never read (Lightning makes one when it resumes at an epoch's end) begins no pass.
  A batch sampler with ``set_epoch`` (the length-bucketed samplers of
  :mod:`sparselab.data.text`) is told the pass before each one, so it reshuffles by seed and pass,
  whatever process runs it; a resumed pass skips the batches already trained (their indices only: no
  item is loaded for them).
* the random generators: the loader's own ``generator`` (the SNLI loader draws its shuffles from one;
  kept as it was when the pass began, so the pass is redrawn as it was) and the process's RNG (torch,
  CUDA, numpy, python: Lightning's ``_collect_rng_states``; dropout draws from it). The process RNG is
  put back at the point the uninterrupted run was at when it saved: before the new iterator is made
  when the checkpoint ended a pass (making an iterator draws a seed from it, and the uninterrupted run
  made one there too), after it when the checkpoint fell inside a pass (where it made none).

With one process and no checkpoint this changes nothing: the batches and draws are those of a plain
``DataLoader`` over the same batch sampler.
"""
from __future__ import annotations

from typing import Any

import torch


class _Passes(torch.utils.data.Sampler):
    """The batch sampler a :class:`ResumableLoader` iterates: one pass of the inner sampler's batches, the pass
    and the batches to leave out (a resumed pass) fixed when the iterator is made. With worker processes the
    DataLoader starts drawing from it as soon as an iterator is made (prefetch), so the loader, not this
    sampler, decides when a pass has begun: when the training loop receives its first batch."""

    def __init__(self, batches):
        self.batches = batches
        self.plan = (0, 0)      # (pass, batches to leave out) for the next iterator

    def __len__(self) -> int:
        return len(self.batches)

    def set_pass(self, epoch: int, skip: int = 0) -> None:
        """Make ``epoch`` the pass the next iterator runs (and the one ``len`` counts)."""
        self.plan = (int(epoch), int(skip))
        if hasattr(self.batches, "set_epoch"):
            self.batches.set_epoch(int(epoch))

    def __iter__(self):
        epoch, skip = self.plan
        self.set_pass(epoch, skip)      # the inner sampler reshuffles by pass when its iterator starts
        return (batch for i, batch in enumerate(self.batches) if i >= skip)


class _Counted:
    """The loader's iterator, counting the batches the training loop received (with workers the sampler runs
    ahead of it by the prefetched batches); the first one begins the pass (``ResumableLoader._begin``)."""

    def __init__(self, it, loader: "ResumableLoader", plan: tuple):
        self.it, self.loader, self.plan, self.started = it, loader, plan, False

    def __iter__(self):
        return self

    def __len__(self) -> int:
        return len(self.it)

    def __next__(self):
        batch = next(self.it)
        if not self.started:
            self.started = True
            self.loader._begin(self.plan)
        self.loader._consumed += 1
        return batch

    def __getattr__(self, name):        # _shutdown_workers and the like, for Lightning's teardown
        return getattr(self.it, name)


def rng_states() -> dict:
    """The process's random states (Lightning's ``_collect_rng_states``), numpy's array as a list: checkpoints
    stay loadable with ``torch.load(weights_only=True)`` (the best checkpoint is read that way, and Lightning
    stores the loader's state in every checkpoint)."""
    from lightning.fabric.utilities.seed import _collect_rng_states

    states = _collect_rng_states(include_cuda=torch.cuda.is_available())
    name, keys, *rest = states["numpy"]
    states["numpy"] = (name, keys.tolist(), *rest)
    return states


def set_rng_states(states: dict) -> None:
    import numpy as np
    from lightning.fabric.utilities.seed import _set_rng_states

    name, keys, *rest = states["numpy"]
    _set_rng_states({**states, "numpy": (name, np.asarray(keys, dtype=np.uint32), *rest)})


class ResumableLoader(torch.utils.data.DataLoader):
    """``DataLoader(dataset, batch_sampler=...)`` whose position and random state survive a checkpoint
    (module docstring). Only for training loaders built on a batch sampler; ``num_workers`` and
    ``pin_memory`` may be used (the count is of batches received, not of batches drawn by the workers)."""

    def __init__(self, dataset, batch_sampler, **kwargs):
        super().__init__(dataset, batch_sampler=_Passes(batch_sampler), **kwargs)
        self.epoch = 0                      # the pass in progress (or the last one)
        self._consumed = 0                  # batches of it the training loop received
        self._pass_generator: Any = None    # the loader generator's state when the current pass began
        self._restore: dict | None = None   # process RNG to put back on the next pass (a resumed run)

    def __iter__(self):
        # Lightning may make an iterator it never reads (resuming at the end of an epoch, it makes one for the
        # finished epoch, then one for the next): nothing counts, and the restore is repeated, until a batch
        # has been received.
        restore = self._restore
        if restore is not None:
            if restore["generator"] is not None:
                self.generator.set_state(restore["generator"])
            if not restore["mid_pass"]:
                set_rng_states(restore["rng"])
        generator = self.generator.get_state() if self.generator is not None else None
        epoch, skip = self.batch_sampler.plan
        it = super().__iter__()
        if restore is not None and restore["mid_pass"]:
            set_rng_states(restore["rng"])
        return _Counted(it, self, (epoch, skip, generator))

    def _begin(self, plan: tuple) -> None:
        epoch, skip, generator = plan
        self.epoch, self._consumed, self._pass_generator, self._restore = epoch, skip, generator, None
        # the next iterator runs the next pass; the inner sampler is told when that iterator is made, so that
        # its length (per pass, for the token-budget sampler) stays this pass's while this pass runs
        self.batch_sampler.plan = (epoch + 1, 0)

    def state_dict(self) -> dict:
        has_gen = self.generator is not None
        return {"epoch": self.epoch, "batches": self._consumed, "rng": rng_states(),
                "generator": self._pass_generator if has_gen else None,        # to redraw the current pass
                "generator_now": self.generator.get_state() if has_gen else None}  # to draw the next one

    def load_state_dict(self, state: dict) -> None:
        passes: _Passes = self.batch_sampler
        epoch, done = int(state["epoch"]), int(state["batches"])
        passes.set_pass(epoch)
        mid_pass = 0 < done < len(passes)     # len after set_pass: a token-budget sampler's count is per pass
        if mid_pass:
            passes.set_pass(epoch, skip=done)
        elif done:                            # the checkpoint ended a pass: the next one comes
            passes.set_pass(epoch + 1)
        self._restore = {"rng": state["rng"], "mid_pass": mid_pass,
                         "generator": state["generator"] if mid_pass else state["generator_now"]}
