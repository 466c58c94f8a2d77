"""ResumableLoader (sparselab.data.resumable): a loader rebuilt in a new process from a saved state hands out the
batches, and leaves the random state, that the uninterrupted loader would have: inside a pass, at a pass's end,
for the length-bucketed samplers (reshuffled by seed and pass) and for a loader that owns a torch generator."""
from __future__ import annotations

import io

import pytest
import torch

from sparselab.data.resumable import ResumableLoader
from sparselab.data.text import BucketBatchSampler, TokenBucketBatchSampler


def _ids(batch) -> list[int]:
    return batch.tolist()


def _bucket(seed=3):
    lengths = [(i % 7 + 1, i % 5 + 1) for i in range(50)]
    return BucketBatchSampler(lengths, 4, seed=seed, pool=3)


def _tokens(seed=3):
    return TokenBucketBatchSampler([i % 9 + 1 for i in range(60)], 20, seed=seed, pool=16)


def _generator_loader(seed=3, workers=0):
    gen = torch.Generator().manual_seed(seed)
    batches = torch.utils.data.BatchSampler(torch.utils.data.RandomSampler(range(45), generator=gen), 4, False)
    return ResumableLoader(list(range(45)), batches, generator=gen, num_workers=workers)


def _loader(kind, workers=0):
    """``workers``: DataLoader worker processes, which draw batches ahead of the training loop (prefetch)."""
    if kind == "generator":
        return _generator_loader(workers=workers)
    return ResumableLoader(list(range(60)), _bucket() if kind == "bucket" else _tokens(), num_workers=workers)


def _run(loader, passes: int, stop_after: int | None = None):
    """Batches of ``passes`` passes, and the loader's state after ``stop_after`` batches of the last one."""
    out, state = [], None
    for p in range(passes):
        for i, batch in enumerate(loader):
            out.append(_ids(batch))
            if p == passes - 1 and stop_after is not None and i + 1 == stop_after:
                state = loader.state_dict()
                break
    return out, state


def _saved(state: dict) -> dict:
    """The state as a resumed job reads it from last.ckpt: torch.load(weights_only=True)."""
    buf = io.BytesIO()
    torch.save(state, buf)
    buf.seek(0)
    return torch.load(buf, weights_only=True)


def _check(kind, stop_after, workers=0):
    torch.manual_seed(0)
    reference, _ = _run(_loader(kind), 4)
    torch.manual_seed(0)
    first, state = _run(_loader(kind, workers), 2, stop_after)
    resumed = _loader(kind, workers)
    torch.manual_seed(123)   # the new process's RNG is whatever it is: the state puts it back
    resumed.load_state_dict(_saved(state))
    rest = []
    for _ in range(3):
        rest += [_ids(b) for b in resumed]
    assert (first + rest)[: len(reference)] == reference


@pytest.mark.parametrize("workers", [0, 2])
def test_resumed_inside_a_pass_gives_the_uninterrupted_batches(workers):
    # with 2 workers the sampler has run ahead of the 3 batches received: the state counts the 3
    for kind in ("bucket", "tokens", "generator"):
        _check(kind, stop_after=3, workers=workers)


@pytest.mark.parametrize("workers", [0, 2])
def test_resumed_at_the_end_of_a_pass_starts_the_next_one(workers):
    for kind in ("bucket", "generator"):
        loader = _loader(kind)
        _check(kind, stop_after=len(loader), workers=workers)


def test_an_iterator_never_read_begins_no_pass():
    # Lightning, resuming at an epoch's end, makes an iterator for the finished epoch that it never reads;
    # with workers that iterator draws batches at once (prefetch), yet the next pass must be the one the
    # uninterrupted loader runs
    for workers in (0, 2):
        torch.manual_seed(0)
        uninterrupted = _loader("bucket")
        reference = [[_ids(b) for b in uninterrupted] for _ in range(2)]
        loader = _loader("bucket", workers)
        first = [_ids(b) for b in loader]
        state = loader.state_dict()
        resumed = _loader("bucket", workers)
        resumed.load_state_dict(state)
        iter(resumed)
        assert [_ids(b) for b in resumed] == reference[1] != first


def test_passes_reshuffle_by_seed_and_pass():
    a, b = ResumableLoader(list(range(60)), _bucket()), ResumableLoader(list(range(60)), _bucket())
    pa = [[_ids(x) for x in a] for _ in range(3)]
    b.batch_sampler.set_pass(2)
    assert [_ids(x) for x in b] == pa[2] != pa[0]


def test_the_process_rng_comes_back_where_the_uninterrupted_run_had_it():
    torch.manual_seed(0)
    loader = ResumableLoader(list(range(60)), _bucket())
    it = iter(loader)
    for _ in range(3):
        next(it)
    state = loader.state_dict()
    expected = torch.rand(5)            # what dropout would draw next in the uninterrupted run
    resumed = ResumableLoader(list(range(60)), _bucket())
    resumed.load_state_dict(_saved(state))
    torch.manual_seed(99)
    it2 = iter(resumed)                 # inside a pass: put back after the iterator is made
    next(it2)
    assert torch.equal(torch.rand(5), expected)
