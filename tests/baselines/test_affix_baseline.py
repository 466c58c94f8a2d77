"""The shared task's non-neural baseline (sparselab.baselines.affix_rules) and its task.

Reference values on real data come from the organisers' own script (sigmorphon/conll2018
task1/baseline/baseline.py, run under Python 2.7, its runtime) on the same files: for the languages
pinned here its dev predictions and ours are identical line by line.
"""
from __future__ import annotations

import json

import pytest
from omegaconf import OmegaConf

from sparselab.baselines import affix_rules as ar
from sparselab.data import sigmorphon as sg
from sparselab.errors import MissingDataError
from sparselab.engine.context import RunContext


def ex(lemma, form, tags="X"):
    return sg.Example("xx", lemma, form, tuple(tags.split(";")))


def show(cols, side):
    return "".join("_" if c[side] is None else c[side] for c in cols)


# ---------------------------------------------------------------- hand-made examples
def test_readme_example_alignment_and_rules():
    """The organisers' README: schielen -> geschielt, then kaufen -> gekauft."""
    pre, stem, suf = ar.split_affixes("schielen", "geschielt")
    assert [show(p, 0) for p in (pre, stem, suf)] == ["__", "schiele", "n"]
    assert [show(p, 1) for p in (pre, stem, suf)] == ["ge", "schielt", "_"]
    prules, srules = ar.extract_rules("schielen", "geschielt")
    assert set(srules) == {("n", ""), ("en", "t"), ("len", "lt"), ("elen", "elt"), ("ielen", "ielt"),
                           ("hielen", "hielt"), ("chielen", "chielt"), ("schielen", "schielt"), ("", "")}
    assert prules[0] == ("", "ge") and ("s", "ges") in prules
    # alone, this pair would make the language look prefixing (2 leading vs 1 trailing gap in the
    # sliding alignment); two suffixing pairs of another bundle settle the direction
    model = ar.fit([ex("schielen", "geschielt", "V.PTCP;PST"), ex("Hund", "Hunde", "N;PL"), ex("Kind", "Kindern", "N;PL")])
    assert not model.prefixing
    assert model.predict("kaufen", ("V.PTCP", "PST")) == "gekauft"
    assert model.predict("kaufen", "V.PTCP;PST") == "gekauft"


def test_suffix_change():
    model = ar.fit([ex("walk", "walked", "V;PST"), ex("talk", "talked", "V;PST")])
    assert model.predict("jump", ("V", "PST")) == "jumped"
    assert not model.prefixing


def test_prefix_change_and_prefixing_language():
    train = [ex("bala", "ubala"), ex("hamba", "uhamba"), ex("cula", "ucula")]
    model = ar.fit(train)
    assert model.prefixing  # every pair adds material at the start: strings are reversed
    assert model.predict("thanda", ("X",)) == "uthanda"


def test_most_frequent_rule_wins_but_longest_match_first():
    train = [ex("cat", "cats", "N;PL"), ex("dog", "dogs", "N;PL"), ex("box", "boxes", "N;PL")]
    model = ar.fit(train)
    assert model.predict("pen", ("N", "PL")) == "pens"    # "" -> "s" seen twice, "" -> "es" once
    assert model.predict("fox", ("N", "PL")) == "foxes"   # "x" -> "xes" is longer than any "" rule


def test_ties_longer_output_then_first_seen():
    # same left side "a", equal count: the longer right side wins (organisers' key)
    assert ar.fit([ex("kata", "kato"), ex("mala", "malae")]).predict("pena", ("X",)) == "penae"
    # equal count and equal lengths: the rule seen first in training wins (our deterministic choice;
    # the original leaves it to Python 2 dict order)
    assert ar.fit([ex("kata", "kato"), ex("mala", "malu")]).predict("pena", ("X",)) == "peno"
    assert ar.fit([ex("mala", "malu"), ex("kata", "kato")]).predict("pena", ("X",)) == "penu"
    # the identity rule "" -> "" comes from every pair, so it outranks a one-off "" -> "s"
    assert ar.fit([ex("cat", "catu"), ex("box", "boxes")]).predict("pen", ("X",)) == "pen"


def test_unseen_tag_bundle_returns_lemma():
    model = ar.fit([ex("walk", "walked", "V;PST")])
    assert model.predict("jump", ("V", "PRS")) == "jump"
    assert model.predict("jump", ("PST", "V")) == "jump"  # the bundle is matched as a whole string


def test_identity():
    model = ar.fit([ex("sheep", "sheep", "N;PL"), ex("fish", "fish", "N;PL")])
    assert model.predict("deer", ("N", "PL")) == "deer"


def test_multiword_pairs_do_not_vote_on_direction():
    # pairs with a space or hyphen are ignored by the direction heuristic
    assert not ar.is_prefixing([("a b", "xx a b"), ("walk", "walked")])
    assert ar.is_prefixing([("a b", "a bxxxx"), ("bala", "ubala")])


def test_alignment_reproduces_the_organisers_float_tie_breaking():
    """argëtoj -> argëtuakeni (Albanian): two alignments cost 6.2 on paper; the organisers' float
    arithmetic picks the one with the insertions in the middle, exact arithmetic the other."""
    pre, stem, suf = ar.split_affixes("argëtoj", "argëtuakeni")
    assert (show(stem, 0), show(suf, 0), show(stem, 1), show(suf, 1)) == ("argëto___j", "_", "argëtuaken", "i")
    pre, stem, suf = ar.split_affixes("argëtoj", "argëtuakeni", float_ties=False)
    assert (show(stem, 0), show(suf, 0), show(stem, 1), show(suf, 1)) == ("argëtoj", "____", "argëtua", "keni")


def test_alignment_is_optimal_and_covers_both_strings():
    for a, b in [("", "abc"), ("abc", ""), ("kitten", "sitting"), ("machen", "gemacht"), ("a", "a")]:
        for ft in (True, False):
            cols = ar.levenshtein_align(a, b, ft)
            assert "".join(c[0] or "" for c in cols) == a and "".join(c[1] or "" for c in cols) == b
            assert all(c != (None, None) for c in cols)
            cost = sum(0 if x == y else (1.1 if x and y else 1.0) for x, y in cols)
            assert cost == pytest.approx({("kitten", "sitting"): 3.2, ("machen", "gemacht"): 4.1}.get((a, b), cost))


# ---------------------------------------------------------------- real data (skipped without it)
# Dev accuracy of the organisers' baseline.py (Python 2.7) on these languages, medium setting; ours
# produces the same predictions line by line.
ORGANISERS_MEDIUM_DEV = {"adyghe": 85.5, "hebrew": 40.0}


def _data_or_skip():
    try:
        return dict(sg.languages("medium"))
    except MissingDataError:
        pytest.skip("sigmorphon2018_task1 not under the data root")


@pytest.mark.parametrize("lang", sorted(ORGANISERS_MEDIUM_DEV))
def test_dev_accuracy_matches_the_organisers_script(lang):
    folders = _data_or_skip()
    model = ar.fit(sg.read_file(sg.split_file(folders[lang], lang, "train", "medium"), lang))
    dev = sg.read_file(sg.split_file(folders[lang], lang, "dev", "medium"), lang)
    acc = 100.0 * sum(p == e.form for p, e in zip(model.predict_all(dev), dev)) / len(dev)
    assert acc == pytest.approx(ORGANISERS_MEDIUM_DEV[lang], abs=1e-9)


def test_task_writes_and_scores_prediction_files(tmp_path):
    _data_or_skip()
    from sparselab.tasks import inflection_baseline

    cfg = OmegaConf.create({"data": {"resource": "medium", "root": None, "languages": ["hebrew", "adyghe"],
                                     "max_languages": 0},
                            "task": {"name": "inflection_baseline", "eval_split": "test"}})
    out = inflection_baseline.run(cfg, RunContext(run_dir=tmp_path))
    per = out["extra"]["per_language"]
    assert sorted(per) == ["adyghe", "hebrew"]
    for lang, acc in ORGANISERS_MEDIUM_DEV.items():
        assert per[lang]["dev_accuracy"] == pytest.approx(acc)
        assert (tmp_path / "predictions" / f"{lang}-dev").exists()
        assert (tmp_path / "predictions" / f"{lang}-test").exists()
        assert per[lang]["n"] == 1000
    m = out["metrics"]
    assert m["dev_acc"] == pytest.approx(sum(ORGANISERS_MEDIUM_DEV.values()) / 2)
    assert m["acc"] == pytest.approx((per["adyghe"]["accuracy"] + per["hebrew"]["accuracy"]) / 2)
    json.dumps(out)  # the run record must be serialisable


def test_unknown_language_is_a_config_error(tmp_path):
    _data_or_skip()
    from sparselab.errors import ConfigError
    from sparselab.tasks import inflection_baseline

    cfg = OmegaConf.create({"data": {"resource": "medium", "root": None, "languages": ["klingon"]},
                            "task": {"name": "inflection_baseline", "eval_split": "test"}})
    with pytest.raises(ConfigError, match="klingon"):
        inflection_baseline.run(cfg, RunContext(run_dir=tmp_path))
