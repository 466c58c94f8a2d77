"""Training batches sharded by rank under DDP (issue 19, item 1): every rank gets the same number of
batches (else DDP hangs), the ranks' batches are disjoint and cover the epoch, and one process keeps
the batches it had before sharding existed."""
import random
from collections import Counter

import pytest
import torch

from sparselab.data import snli
from sparselab.data.sharding import ShardedBatchSampler, rank_world, shard
from sparselab.data.text import BucketBatchSampler, TokenBucketBatchSampler

N = 333
_rnd = random.Random(1)
LENGTHS = [(_rnd.randint(1, 30), _rnd.randint(1, 30)) for _ in range(N)]


def _samplers(world, rank, seed=5):
    return {
        "bucket": BucketBatchSampler(LENGTHS, batch_size=10, seed=seed, pool=4, num_replicas=world, rank=rank),
        "tokens": TokenBucketBatchSampler(LENGTHS, max_tokens=120, seed=seed, pool=64, num_replicas=world, rank=rank),
    }


@pytest.mark.parametrize("kind", ["bucket", "tokens"])
@pytest.mark.parametrize("world", [2, 3])
def test_ranks_get_equal_disjoint_batches_covering_the_epoch(kind, world):
    per_rank = [_samplers(world, r)[kind] for r in range(world)]
    reference = _samplers(1, 0)[kind]  # one process: the epoch's global batches
    previous = None
    for _epoch in range(2):
        lens = [len(s) for s in per_rank]
        ref = [tuple(b) for b in reference]
        got = [[tuple(b) for b in s] for s in per_rank]
        n = -(-len(ref) // world)
        assert [len(g) for g in got] == lens == [n] * world
        mine = Counter(b for g in got for b in g)
        extra = mine - Counter(ref)
        assert set(mine) == set(ref)  # every batch of the epoch, nothing else
        # the only batches seen twice are the padding: the epoch's first ones, < world of them
        assert sum(extra.values()) == n * world - len(ref) < world
        assert set(extra) == set(ref[: sum(extra.values())])
        assert previous is None or got != previous  # the next epoch draws new batches on every rank
        previous = got


def test_disjoint_when_the_batches_divide_evenly():
    # 320 items, batch 10: 32 batches, 16 per rank, no repeats
    lengths = LENGTHS[:320]
    ranks = [[tuple(b) for b in BucketBatchSampler(lengths, 10, seed=3, num_replicas=2, rank=r)] for r in (0, 1)]
    assert len(ranks[0]) == len(ranks[1]) == 16
    assert not set(ranks[0]) & set(ranks[1])
    assert sorted(i for b in ranks[0] + ranks[1] for i in b) == list(range(320))


def test_without_a_process_group_one_process_takes_every_batch():
    for kind in ("bucket", "tokens"):
        s = _samplers(None, None)[kind]
        assert rank_world() == (0, 1)
        assert list(s) == list(_samplers(1, 0)[kind])


def test_shard_pads_by_wrapping_and_checks_the_rank():
    assert shard([[0], [1], [2]], 0, 2) == [[0], [2]] and shard([[0], [1], [2]], 1, 2) == [[1], [0]]
    assert shard([[0]], 2, 3) == [[0]] and shard([], 1, 2) == []
    with pytest.raises(ValueError, match="rank 2 of world size 2"):
        rank_world(2, 2)


def test_sharded_batch_sampler_one_process_and_two_ranks():
    gen = torch.Generator().manual_seed(0)
    inner = torch.utils.data.BatchSampler(torch.utils.data.RandomSampler(range(25), generator=gen), 4, False)
    assert len(ShardedBatchSampler(inner, 1, 0)) == 7 and len(ShardedBatchSampler(inner, 2, 1)) == 4
    gen.manual_seed(1)
    r0 = list(ShardedBatchSampler(inner, 2, 0))
    gen.manual_seed(1)
    r1 = list(ShardedBatchSampler(inner, 2, 1))
    assert len(r0) == len(r1) == 4
    assert sorted(i for b in r0 + r1 for i in b) == sorted(list(range(25)) + r0[0])  # one padded batch


def _pair(i):
    return snli.Pair(f"p{i}", ("a", "b", "c")[: 1 + i % 3], ("d",) * (1 + i % 2), i % 3, i + 1)


def test_snli_training_loader_keeps_its_single_process_batches():
    """The sharded SNLI loader draws the same batches as the DataLoader(shuffle=True, generator) it replaced."""
    from sparselab.data.snli_data import loader as snli_loader  # here: the gloo test's workers import this file

    pairs = [_pair(i) for i in range(50)]
    vocab = snli.build_vocab([pairs])
    ds = snli.PairDataset(pairs, vocab)
    old = torch.utils.data.DataLoader(ds, batch_size=8, shuffle=True, generator=torch.Generator().manual_seed(7),
                                      collate_fn=lambda items: snli.collate(items, vocab.pad_id))
    new = snli_loader(pairs, vocab, 8, shuffle=True, seed=7)
    for _ in range(3):  # epochs: the generator's state moves on identically
        a, b = list(old), list(new)
        assert len(a) == len(b) == 7
        for x, y in zip(a, b):
            assert x.keys() == y.keys() and all(torch.equal(x[k], y[k]) for k in x)


def _gloo_worker(rank, world, store):
    """One rank of a CPU gloo process group: the samplers read rank and world size from it."""
    import torch.distributed as dist

    dist.init_process_group("gloo", init_method=f"file://{store}", rank=rank, world_size=world)
    try:
        for kind, sampler in _samplers(None, None).items():
            for _epoch in range(2):
                n = len(sampler)
                mine = [tuple(b) for b in sampler]
                every = [None] * world
                dist.all_gather_object(every, mine)
                assert len(mine) == n and {len(b) for b in every} == {n}, (kind, [len(b) for b in every])
                items = {i for b in every for batch in b for i in batch}
                assert items == set(range(N)), kind
                assert rank_world() == (rank, world)
    finally:
        dist.destroy_process_group()


def test_samplers_shard_by_the_process_group_rank(tmp_path):
    """Two CPU processes under gloo (as under Lightning DDP): equal batch counts, the data covered."""
    torch.multiprocessing.spawn(_gloo_worker, args=(2, str(tmp_path / "store")), nprocs=2, join=True)
