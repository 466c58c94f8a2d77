"""The generic sequence data toolkit (sparselab.data.text): vocabularies, pair datasets, bucketing, padding."""
from __future__ import annotations

import json
import random

import pytest
import torch

from sparselab.data.text import (BucketBatchSampler, PadCollate, PairDataset, Vocab, collate, load_vocabs,
                                 save_vocabs)


def test_default_specials_take_the_first_ids_then_sorted_symbols():
    v = Vocab(["b", "a", "c", "a"])
    assert v.itos == ["<pad>", "<s>", "</s>", "<unk>", "a", "b", "c"]
    assert (v.pad_id, v.bos_id, v.eos_id, v.unk_id) == (0, 1, 2, 3)
    assert len(v) == 7 and "a" in v and "z" not in v


def test_configurable_specials_and_ids():
    # a source vocabulary without BOS/EOS, unk first: ids follow the order given
    v = Vocab(["x", "y"], specials={"unk": "[UNK]", "pad": "[PAD]"})
    assert v.itos[:2] == ["[UNK]", "[PAD]"]
    assert (v.unk_id, v.pad_id, v.bos_id, v.eos_id) == (0, 1, None, None)
    assert v.encode(["x", "q"]) == [2, 0]
    with pytest.raises(ValueError, match="unknown role"):
        Vocab([], specials={"mask": "<mask>"})
    with pytest.raises(ValueError, match="share a symbol"):
        Vocab([], specials={"pad": "<p>", "unk": "<p>"})
    # without unk, an unknown symbol is an error rather than a silent id
    with pytest.raises(KeyError):
        Vocab(["x"], specials={"pad": "<pad>"}).encode(["y"])


@pytest.mark.parametrize("joiner,text", [("", "ice cream"), (" ", "the cat sat"), ("@@", "un@@believ@@able")])
def test_joiner_round_trip(joiner, text):
    v = Vocab(Vocab(joiner=joiner).split(text), joiner=joiner)
    ids = v.encode(v.split(text), bos=True, eos=True)
    assert ids[0] == v.bos_id and ids[-1] == v.eos_id
    assert v.decode(ids) == text
    assert v.decode(ids + [v.pad_id, v.pad_id]) == text       # stops at EOS


def test_decode_skips_pad_and_bos_stops_at_eos_and_writes_unk_text():
    v = Vocab(list("abc"), unk_text="?")
    assert v.decode([v.bos_id, v.stoi["a"], v.pad_id, v.unk_id, v.eos_id, v.stoi["b"]]) == "a?"
    assert Vocab(list("abc")).decode([v.unk_id]) == "<unk>"    # default: the unk symbol itself
    w = Vocab(["the", "cat"], joiner=" ")
    assert w.symbols(w.encode(["the", "dog", "cat"])) == ["the", "<unk>", "cat"]
    assert w.decode(w.encode(["the", "dog", "cat"])) == "the <unk> cat"


def test_serialisation_round_trip(tmp_path):
    v = Vocab(["é", " ", "<L:xx>"], specials={"pad": "<p>", "bos": "<b>", "eos": "<e>", "unk": "<u>"}, joiner="",
              unk_text="?")
    d = v.to_dict()
    json.dumps(d)                                             # plain containers (torch.load weights_only=True)
    assert Vocab.from_dict(d) == v and Vocab.from_dict(d).unk_id == v.unk_id
    save_vocabs(tmp_path / "vocab.json", src=v, tgt=Vocab(list("ab")))
    back = load_vocabs(tmp_path / "vocab.json")
    assert back["src"] == v and back["tgt"].itos == Vocab(list("ab")).itos
    bad = dict(d, itos=["x"] + d["itos"])
    with pytest.raises(ValueError, match="specials must come first"):
        Vocab.from_dict(bad)


def test_from_counts_orders_by_frequency_with_cutoffs():
    counts = {"the": 10, "cat": 3, "sat": 3, "on": 1, "<pad>": 99}
    v = Vocab.from_counts(counts, joiner=" ")
    assert v.itos == ["<pad>", "<s>", "</s>", "<unk>", "the", "cat", "sat", "on"]
    assert Vocab.from_counts(counts, min_freq=2).itos[4:] == ["the", "cat", "sat"]
    assert Vocab.from_counts(counts, max_size=2).itos[4:] == ["the", "cat"]


def test_pair_dataset_and_collate_use_the_vocabularies_ids():
    src = Vocab(list("abc"), specials={"unk": "<unk>", "pad": "<pad>"})      # pad id 1
    tgt = Vocab(list("xyz"), specials={"eos": "</s>", "bos": "<s>", "pad": "<pad>", "unk": "<unk>"})  # pad 2, bos 1
    ds = PairDataset.from_symbols([("ab", "xy"), ("abca", "z")], src, tgt)
    assert ds[0] == ([2, 3], [tgt.stoi["x"], tgt.stoi["y"], tgt.eos_id], 0)
    assert ds.lengths == [(3, 2), (2, 4)]
    batch = PadCollate.from_vocabs(src, tgt)([ds[0], ds[1]])
    assert batch["src"].tolist() == [[2, 3, src.pad_id, src.pad_id], [2, 3, 4, 2]]
    assert batch["src_len"].tolist() == [2, 4]
    x, y, z = (tgt.stoi[c] for c in "xyz")
    assert batch["tgt_in"].tolist() == [[tgt.bos_id, x, y], [tgt.bos_id, z, tgt.pad_id]]
    assert batch["tgt_out"].tolist() == [[x, y, tgt.eos_id], [z, tgt.eos_id, tgt.pad_id]]
    assert batch["idx"].tolist() == [0, 1]
    assert torch.equal(collate([ds[0], ds[1]], src.pad_id, tgt.pad_id, tgt.bos_id)["tgt_in"], batch["tgt_in"])
    with pytest.raises(ValueError, match="pad symbol"):
        PadCollate.from_vocabs(Vocab([], specials={"unk": "<unk>"}), tgt)


def test_bucket_sampler_on_plain_lengths():
    rnd = random.Random(1)
    lengths = [(rnd.randint(1, 30), rnd.randint(1, 30)) for _ in range(333)]
    s = BucketBatchSampler(lengths, batch_size=10, seed=5, pool=4)
    assert len(s) == 34
    e1, e2 = list(s), list(s)
    for ep in (e1, e2):
        assert sorted(i for b in ep for i in b) == list(range(333))
        # within a pool, batches are cut from one sorted run: each batch spans a narrow length range
        assert sum(max(lengths[i][0] for i in b) - min(lengths[i][0] for i in b) for b in ep) < 34 * 10
    assert e1 != e2
    assert list(BucketBatchSampler(lengths, batch_size=10, seed=5, pool=4)) == e1
    assert list(BucketBatchSampler(lengths, batch_size=10, seed=6, pool=4)) != e1
    with pytest.raises(ValueError):
        BucketBatchSampler(lengths, batch_size=0)
