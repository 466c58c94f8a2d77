"""Each rank's share of the training batches under data-parallel training (DDP).

Our training loaders shard themselves, and the DDP trainer config sets Lightning's
``use_distributed_sampler: false`` (``conf/trainer/ddp.yaml``). Lightning can inject its
``DistributedSampler`` only into an index sampler or a ``torch.utils.data.BatchSampler``, and that
sampler shards items: length-bucketed batches would then be cut from each rank's items, and
token-budget batches would give the ranks different numbers of batches, on which DDP hangs.

Instead every rank draws the same global batches (same seed, same epoch), pads the list by repeating
its first batches to a multiple of the world size W, and rank r takes batches r, r+W, r+2W, ...
Every rank gets ceil(B/W) batches, and together they hold every batch of the epoch.

The rank and world size are read when the batches are drawn, from ``torch.distributed`` (the process
group exists by then, though not yet when the loader is built); 0 and 1 without a process group.
"""
from __future__ import annotations

from typing import Iterator, Sequence

import torch


def rank_world(rank: int | None = None, world: int | None = None) -> tuple[int, int]:
    """(rank, world size): the given values, else those of the default process group, else (0, 1)."""
    dist = torch.distributed
    up = dist.is_available() and dist.is_initialized()
    world = int(world) if world is not None else (dist.get_world_size() if up else 1)
    rank = int(rank) if rank is not None else (dist.get_rank() if up else 0)
    if world < 1 or not 0 <= rank < world:
        raise ValueError(f"rank {rank} of world size {world}: need 0 <= rank < world")
    return rank, world


def shard_count(n_batches: int, world: int) -> int:
    """Batches per rank: ceil(n_batches / world)."""
    return -(-n_batches // world)


def shard(batches: Sequence, rank: int, world: int) -> list:
    """Rank ``rank``'s batches: every W-th of ``batches``, padded by wrapping around to ceil(B/W) each."""
    batches = list(batches)
    if world == 1 or not batches:
        return batches
    need = shard_count(len(batches), world) * world
    padded = (batches * -(-need // len(batches)))[:need]
    return padded[rank::world]


class ShardedBatchSampler(torch.utils.data.Sampler):
    """Another batch sampler's batches, sharded by rank (see the module docstring).

    For loaders whose order comes from torch's own samplers (``BatchSampler(RandomSampler(...))``):
    with one process it yields the inner batches unchanged, so single-process runs keep their order.
    """

    def __init__(self, batch_sampler, num_replicas: int | None = None, rank: int | None = None):
        self.batch_sampler, self.num_replicas, self.rank = batch_sampler, num_replicas, rank

    def __len__(self) -> int:
        return shard_count(len(self.batch_sampler), rank_world(self.rank, self.num_replicas)[1])

    def __iter__(self) -> Iterator[list[int]]:
        rank, world = rank_world(self.rank, self.num_replicas)
        if world == 1:
            yield from self.batch_sampler
        else:
            yield from shard(list(self.batch_sampler), rank, world)
