"""SIGMORPHON 2018 parsing, multilingual encoding, prediction files and their scoring."""
from __future__ import annotations

import pytest

from sparselab.data import sigmorphon as sg
from sparselab.errors import DataFormatError, MissingDataError
from sparselab.data.text import BucketBatchSampler, PadCollate


def _tree(tmp_path, lang="xx", folder="all", train="walk\twalked\tV;PST\ngo\twent\tV;PST\n",
          dev="talk\ttalked\tV;PST\n", test="run\tran\tV;PST\nice cream\tice creams\tN;PL\n"):
    d = tmp_path / sg.DATASET / folder
    d.mkdir(parents=True, exist_ok=True)
    (d / f"{lang}-train-medium").write_text(train, encoding="utf-8")
    (d / f"{lang}-dev").write_text(dev, encoding="utf-8")
    (d / f"{lang}-test").write_text(test, encoding="utf-8")
    return d


def test_parse_and_encode(tmp_path):
    _tree(tmp_path)
    _tree(tmp_path, lang="yy", folder="surprise", train="a b\tab\tN;SG\n")
    assert [l for l, _ in sg.languages("medium", tmp_path)] == ["xx", "yy"]
    train = sg.load_split("medium", "train", tmp_path)
    assert train["xx"][0] == sg.Example("xx", "walk", "walked", ("V", "PST"))
    ex = train["yy"][0]
    # language token, then one symbol per tag, then the lemma's characters (space kept)
    assert ex.source_symbols() == ["<L:yy>", "<T:N>", "<T:SG>", "a", " ", "b"]
    src, tgt = sg.build_vocabs(train)
    assert "<L:xx>" in src.stoi and " " in src.stoi and "<T:PST>" in src.stoi
    # the format's specials keep the ids the saved models and the paper setup use
    assert (src.pad_id, src.bos_id, src.eos_id, src.unk_id) == (0, 1, 2, 3)
    assert src.itos[:4] == ["<pad>", "<s>", "</s>", "<unk>"]
    test = sg.load_split("medium", "test", tmp_path, langs=["xx"])
    ds = sg.dataset(test, src, tgt)
    batch = PadCollate.from_vocabs(src, tgt)([ds[i] for i in range(len(ds))])
    assert batch["tgt_in"][:, 0].tolist() == [tgt.bos_id] * 2
    assert batch["tgt_out"][0, 3].item() == tgt.eos_id            # "ran" + EOS
    assert tgt.decode(batch["tgt_out"][0].tolist()) == "?an"       # "r" unseen in train targets
    assert src.unk_id in batch["src"][1].tolist()               # unseen chars ("c", "e", ...) -> unk


def test_space_kept_as_symbol(tmp_path):
    _tree(tmp_path, train="ice cream\tice creams\tN;PL\n")
    train = sg.load_split("medium", "train", tmp_path)
    src, tgt = sg.build_vocabs(train)
    assert " " in tgt.stoi
    assert tgt.decode(tgt.encode("ice creams", eos=True)) == "ice creams"


@pytest.mark.parametrize("bad,line", [("walk\twalked\n", 2), ("walk\t\tV;PST\n", 2), ("walk\twalked\tV;;PST\n", 2),
                                      ("a\tb\tc\td\n", 2)])
def test_malformed_line_names_file_and_line(tmp_path, bad, line):
    p = tmp_path / "xx-train-medium"
    p.write_text("go\twent\tV;PST\n" + bad, encoding="utf-8")
    with pytest.raises(DataFormatError) as err:
        sg.read_file(p)
    assert str(err.value).startswith(f"{p}:{line}:")
    assert err.value.lineno == line


def test_language_subset(tmp_path):
    _tree(tmp_path)
    _tree(tmp_path, lang="yy", folder="surprise", train="a b\tab\tN;SG\n")
    _tree(tmp_path, lang="zz")
    assert sorted(sg.load_split("medium", "train", tmp_path, langs=["zz", "xx"])) == ["xx", "zz"]
    assert sorted(sg.load_split("medium", "train", tmp_path, langs=None)) == ["xx", "yy", "zz"]   # null = all
    with pytest.raises(ValueError, match="data.languages: 'qq' not in the medium setting; valid: xx, yy, zz"):
        sg.load_split("medium", "train", tmp_path, langs=["xx", "qq"])


def test_missing_data_names_fetch_command(tmp_path):
    with pytest.raises(MissingDataError, match="sparselab.data fetch sigmorphon2018_task1"):
        sg.languages("medium", tmp_path)


def test_prediction_files_round_trip(tmp_path):
    d = _tree(tmp_path)
    gold = sg.read_file(d / "xx-test")
    pred = tmp_path / "pred"
    sg.write_predictions(pred, gold, ["ran", "ice cream"])
    back = sg.read_file(pred, allow_empty_form=True)
    assert [(e.lemma, e.tags) for e in back] == [(e.lemma, e.tags) for e in gold]
    sc = sg.score_files(pred, d / "xx-test")
    assert sc["accuracy"] == pytest.approx(50.0)
    assert sc["edit_distance"] == pytest.approx(0.5)               # "ice cream" vs "ice creams"
    sg.write_predictions(pred, gold, [e.form for e in gold])
    assert sg.score_files(pred, d / "xx-test")["accuracy"] == 100.0
    # an empty prediction is legal in a prediction file; a subsample scores against the gold prefix
    sg.write_predictions(pred, gold[:1], [""])
    sc = sg.score_files(pred, d / "xx-test", allow_prefix=True)
    assert sc == {"accuracy": 0.0, "edit_distance": 3.0, "n": 1}
    with pytest.raises(ValueError):
        sg.score_files(pred, d / "xx-test")


def test_edit_distance():
    assert sg.edit_distance("kitten", "sitting") == 3
    assert sg.edit_distance("", "abc") == 3
    assert sg.edit_distance("abc", "") == 3 and sg.edit_distance("same", "same") == 0


def test_edit_distance_equals_the_full_table_both_ways():
    """The shortcuts (equal strings, the shorter string inside) give the full Levenshtein table's value."""
    import random

    def table(a, b):
        d = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
        for i in range(1, len(a) + 1):
            for j in range(1, len(b) + 1):
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
        return d[-1][-1]

    rng = random.Random(0)
    words = ["".join(rng.choice("abć") for _ in range(rng.randint(0, 7))) for _ in range(300)]
    pairs = list(zip(words, words[1:])) + [(w, w) for w in words[:20]]
    assert all(sg.edit_distance(a, b) == sg.edit_distance(b, a) == table(a, b) for a, b in pairs)


def test_real_data_if_present():
    try:
        langs = sg.languages("medium")
    except MissingDataError:
        pytest.skip("sigmorphon2018_task1 not under the data root")
    assert len(langs) == 102
    assert len(sg.languages("high")) == 86


def test_bucket_sampler_covers_each_example_once_with_short_padding(tmp_path):
    import random
    rnd = random.Random(0)
    words = ["".join(rnd.choice("abcdefgh") for _ in range(rnd.randint(1, 20))) for _ in range(500)]
    _tree(tmp_path, train="".join(f"{w}\t{w}x\tV\n" for w in words))
    train = sg.load_split("medium", "train", tmp_path)
    src, tgt = sg.build_vocabs(train)
    ds = sg.dataset(train, src, tgt)
    sampler = BucketBatchSampler(ds, batch_size=16, seed=3, pool=10)
    epoch1, epoch2 = list(sampler), list(sampler)
    for ep in (epoch1, epoch2):
        flat = sorted(i for b in ep for i in b)
        assert flat == list(range(len(ds)))                     # every example exactly once
        assert len(ep) == len(sampler) and all(len(b) <= 16 for b in ep)
    assert epoch1 != epoch2                                     # reshuffled each epoch
    again = BucketBatchSampler(ds, batch_size=16, seed=3, pool=10)
    assert list(again) == epoch1                                # deterministic given the seed
    # padding: the decoder runs max(target length) steps per batch; bucketing wastes far fewer
    def padded_steps(batches):
        return sum(max(len(ds.tgt_ids[i]) for i in b) * len(b) for b in batches)
    unsorted = [list(range(i, min(i + 16, len(ds)))) for i in range(0, len(ds), 16)]
    real = sum(len(t) for t in ds.tgt_ids)
    assert padded_steps(epoch1) - real < 0.5 * (padded_steps(unsorted) - real)
