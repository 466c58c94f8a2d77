"""MT preprocessing: Moses/Japanese detokenization, BPE round trip, the on-disk cache."""
from __future__ import annotations

import pytest

from sparselab.data import parallel as par
from sparselab.data.mt_preprocess import BPE, Tokenizer, detokenize_ja, learn_bpe, merge_bpe, prepare
from sparselab.locations import PROJECT_ROOT

SHARED = PROJECT_ROOT.parent / "shared" / "data"
needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/data not present")

SENTS = {
    "en": ["Two young, White males are outside near many bushes.",
           "A man's \"big\" dog-house (red): 3.5 m & more!",
           "Several years ago here at TED, Peter Skillman introduced a design challenge."],
    "de": ["Zwei junge weiße Männer sind im Freien in der Nähe vieler Büsche.",
           "„Hallo“, sagte er – und ging (schnell) nach Hause?"],
    "ro": ["Șeful ONU declară că nu există soluții militare în Siria."],
}


@pytest.mark.parametrize("lang", sorted(SENTS))
def test_moses_detokenization_inverts_tokenization(lang):
    tk = Tokenizer(lang, "moses")
    for s in SENTS[lang]:
        toks = tk.tokenize(s)
        assert len(toks) > len(s.split())  # punctuation split off
        assert tk.detokenize(toks) == s


def test_pretokenized_english_is_detokenized_with_moses():
    tk = Tokenizer("en", "split")
    assert tk.tokenize("he didn 't care for swimming .") == ["he", "didn", "'t", "care", "for", "swimming", "."]
    assert tk.detokenize("he didn 't care for swimming .".split()) == "he didn't care for swimming."


def test_japanese_detokenization():
    assert detokenize_ja("彼 は 水泳 が 得意 で は な かっ た 。".split()) == "彼は水泳が得意ではなかった。"
    assert detokenize_ja(["私", "の", "ipad", "mini", "は", "2", "台", "。"]) == "私のipad miniは2台。"
    tk = Tokenizer("ja", "mecab")
    assert tk.detokenize(tk.tokenize("今日は良い天気です。")) == "今日は良い天気です。"


@needs_shared
def test_moses_round_trip_rate_on_multi30k():
    sp = par.read_split("multi30k/val", "de", "en", SHARED).head(200)
    for lang, lines in (("de", sp.src), ("en", sp.tgt)):
        tk = Tokenizer(lang, "moses")
        same = sum(tk.detokenize(tk.tokenize(x)) == " ".join(x.split()) for x in lines)
        assert same / len(lines) >= 0.97, (lang, same)


def test_bpe_round_trip(tmp_path):
    train = ["the lowest newest widest", "low lower lowest new newer newest", "wide wider widest"] * 5
    learn_bpe(train, 30, tmp_path / "codes", min_frequency=2)
    bpe = BPE(tmp_path / "codes")
    assert 0 < bpe.n_merges <= 30
    for line in train + ["unseen lowestnewest zzz widening", "a b c"]:
        pieces = bpe.segment(line.split())
        assert merge_bpe(pieces) == line.split()
    assert any(p.endswith("@@") for p in bpe.segment(["widening"]))
    assert merge_bpe(["wid@@", "en@@"]) == ["widen"]  # an unfinished hypothesis keeps its last word


def test_prepare_learns_on_train_only_and_caches(tmp_path):
    splits = {"train": (["Der Hund läuft.", "Die Katze schläft."] * 10, ["The dog runs.", "The cat sleeps."] * 10),
              "test": (["Ein Vogel singt."], ["A bird sings."])}
    p1 = prepare(splits, "de", "en", False, 20, True, tmp_path / "cache")
    assert p1.info["cache_hits"] == 0 and p1.info["cache_misses"] > 0
    assert p1.info["bpe"]["learned_on"] == "train" and p1.info["bpe"]["merges_learned"]["joint"] == 20
    src, tgt = p1.splits["test"]
    assert src.tok == ["Ein Vogel singt ."] and tgt.raw == ["A bird sings."]
    assert merge_bpe(tgt.bpe[0].split()) == ["A", "bird", "sings", "."]
    p2 = prepare(splits, "de", "en", False, 20, True, tmp_path / "cache")
    assert p2.info["cache_misses"] == 0 and p2.info["bpe_cache_key"] == p1.info["bpe_cache_key"]
    assert p2.splits["test"][1].bpe == tgt.bpe
    p3 = prepare(splits, "de", "en", False, 10, False, tmp_path / "cache")  # other settings: new entry
    assert p3.info["bpe_cache_key"] != p1.info["bpe_cache_key"]
    assert set(p3.info["bpe"]["merges_learned"]) == {"src", "tgt"}
