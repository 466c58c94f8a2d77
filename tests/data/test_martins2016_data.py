"""Martins 2016 data layer: the ARFF reader, the Mulan registry and its errors."""
from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from sparselab.data import mulan
from sparselab.data.arff import read_arff, read_mulan_labels, split_features_labels
from sparselab.errors import DataFormatError, MissingDataError
from sparselab.locations import data_root

DENSE = """% a comment
@relation 'toy set'
@attribute f1 numeric
@attribute 'feature two' REAL
@attribute color {red,green,blue}
@attribute 'Swainson\\'s Thrush' {0,1}
@attribute lab2 {0,1}

@data
1.5,2,green,1,0
-3,?,blue,0,1
"""

SPARSE = """@relation sp
@attribute a numeric
@attribute b numeric
@attribute c numeric
@attribute y1 {0,1}
@attribute y2 {0,1}
@data
{0 1.5,2 3,3 1}
{}
{1 -2,4 1}
"""

XML = """<?xml version="1.0" encoding="utf-8"?>
<labels xmlns="http://mulan.sourceforge.net/labels">
<label name="Swainson's Thrush"></label>
<label name="lab2"></label>
</labels>
"""


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return p


def test_dense_arff_with_quoted_names_and_nominal(tmp_path):
    a = read_arff(write(tmp_path, "d.arff", DENSE))
    assert a.relation == "toy set" and not a.sparse
    assert [x.name for x in a.attributes] == ["f1", "feature two", "color", "Swainson's Thrush", "lab2"]
    assert a.attributes[2].kind == "nominal" and a.attributes[2].values == ["red", "green", "blue"]
    assert a.data.shape == (2, 5)
    assert a.data[0].tolist() == [1.5, 2.0, 1.0, 1.0, 0.0]
    assert np.isnan(a.data[1, 1]) and a.data[1, 2] == 2.0


def test_labels_from_mulan_xml_and_one_hot_nominal_features(tmp_path):
    a = read_arff(write(tmp_path, "d.arff", DENSE))
    labels = read_mulan_labels(write(tmp_path, "d.xml", XML))
    assert labels == ["Swainson's Thrush", "lab2"]
    X, Y, feats, _ = split_features_labels(a, labels)
    assert Y.tolist() == [[1, 0], [0, 1]]
    # f1, feature two, then color one-hot (3 values)
    assert X.shape == (2, 5)
    assert X[0, 2:].tolist() == [0.0, 1.0, 0.0] and X[1, 2:].tolist() == [0.0, 0.0, 1.0]
    assert [f.name for f in feats][2:] == ["color=red", "color=green", "color=blue"]


def test_sparse_arff(tmp_path):
    a = read_arff(write(tmp_path, "s.arff", SPARSE))
    assert a.sparse and sp.issparse(a.data)
    dense = a.data.toarray()
    assert dense.tolist() == [[1.5, 0, 3, 1, 0], [0, 0, 0, 0, 0], [0, -2, 0, 0, 1]]
    X, Y, _, _ = split_features_labels(a, ["y1", "y2"])
    assert sp.issparse(X) and X.shape == (3, 3)
    assert Y.tolist() == [[1, 0], [0, 0], [0, 1]]


@pytest.mark.parametrize("bad_row, problem", [
    ("1.5,2,green,1", "row has 4 values, expected 5"),
    ("1.5,x,green,1,0", "'x' is not a number"),
    ("1.5,2,purple,1,0", "'purple' is not one of"),
])
def test_malformed_dense_row_names_file_and_line(tmp_path, bad_row, problem):
    text = DENSE.rstrip("\n") + "\n" + bad_row + "\n"
    p = write(tmp_path, "bad.arff", text)
    with pytest.raises(DataFormatError) as err:
        read_arff(p)
    lineno = len(text.rstrip("\n").split("\n"))
    assert str(err.value).startswith(f"{p}:{lineno}: ")
    assert problem in str(err.value)
    assert err.value.lineno == lineno


def test_malformed_sparse_row_names_file_and_line(tmp_path):
    p = write(tmp_path, "bad.arff", SPARSE + "{0 1,9 2}\n")
    with pytest.raises(DataFormatError, match=r"bad\.arff:11: sparse index 9 out of range"):
        read_arff(p)
    p = write(tmp_path, "bad2.arff", SPARSE.replace("{}", "{0 1"))
    with pytest.raises(DataFormatError, match=r"bad2\.arff:9: sparse row is not closed"):
        read_arff(p)


def test_missing_dataset_names_fetch_command(tmp_path):
    with pytest.raises(MissingDataError) as err:
        mulan.load("emotions", tmp_path)
    assert "python -m sparselab.data fetch" in str(err.value)
    with pytest.raises(MissingDataError) as err:
        mulan.load("reuters_rcv1v2", tmp_path)
    assert "python -m sparselab.data fetch reuters_rcv1v2" in str(err.value)


def test_unknown_dataset_lists_valid_names(tmp_path):
    with pytest.raises(ValueError, match="scene"):
        mulan.load("nope", tmp_path)


def test_kfold_indices_partition_and_determinism():
    folds = mulan.kfold_indices(502, 5, seed=0)
    held = np.concatenate([b for _, b in folds])
    assert sorted(held.tolist()) == list(range(502))
    for a, b in folds:
        assert len(np.intersect1d(a, b)) == 0 and len(a) + len(b) == 502
    again = mulan.kfold_indices(502, 5, seed=0)
    assert all((x[1] == y[1]).all() for x, y in zip(folds, again))


@pytest.mark.skipif(not mulan.available("emotions", data_root()), reason="Mulan data not present")
def test_real_emotions_and_cal500_shapes():
    d = mulan.load("emotions", data_root())
    s = d.splits[0]
    assert s.X_train.shape == (391, 72) and s.X_test.shape == (202, 72) and s.Y_train.shape == (391, 6)
    if mulan.available("cal500", data_root()):
        c = mulan.load("cal500", data_root())
        assert len(c.splits) == 5 and "5-fold" in c.split_note
        assert sum(x.Y_test.shape[0] for x in c.splits) == 502 and c.splits[0].Y_test.shape[1] == 174
        assert c.removed == {"all": 0}
    if mulan.available("birds", data_root()):      # the set where the paper's removal matters
        b = mulan.load("birds", data_root())
        assert b.read == {"train": 322, "test": 323} and b.removed == {"train": 143, "test": 151}
        assert b.splits[0].Y_train.shape[0] == 179 and b.splits[0].Y_test.shape[0] == 172


# ---------------------------------------------------------------- examples without labels (issue 22)
def toy_mulan(root, n_train=24, n_test=12, empty_train=(0, 5, 9), empty_test=(1, 2), seed=0):
    """A 3-feature, 2-label set saved as Mulan's 'emotions' files, with label-less rows at the given indices."""
    rng = np.random.default_rng(seed)
    d = root / "mulan" / "emotions"
    d.mkdir(parents=True)
    (d / "emotions.xml").write_text(XML.replace("Swainson's Thrush", "lab1"))
    head = "@relation toy\n" + "".join(f"@attribute f{i} numeric\n" for i in range(3)) + \
        "@attribute lab1 {0,1}\n@attribute lab2 {0,1}\n@data\n"
    for name, n, empty in (("emotions-train.arff", n_train, empty_train), ("emotions-test.arff", n_test, empty_test)):
        rows = []
        for i in range(n):
            y = (0, 0) if i in empty else ((1, 0), (0, 1), (1, 1))[i % 3]
            x = rng.normal(size=3) + np.array(y + (0,)) * 2
            rows.append(",".join(f"{v:.4f}" for v in x) + f",{y[0]},{y[1]}")
        (d / name).write_text(head + "\n".join(rows) + "\n")
    return root


def test_load_removes_examples_without_labels_and_counts_them(tmp_path):
    data = mulan.load("emotions", toy_mulan(tmp_path))
    (s,) = data.splits
    assert data.read == {"train": 24, "test": 12} and data.removed == {"train": 3, "test": 2}
    assert s.Y_train.shape == (21, 2) and s.X_train.shape == (21, 3) and s.Y_test.shape == (10, 2)
    assert (s.Y_train.sum(1) > 0).all() and (s.Y_test.sum(1) > 0).all()


@pytest.mark.parametrize("loss", ["logistic", "softmax", "sparsemax"])
def test_no_example_without_labels_reaches_training_or_scoring(tmp_path, monkeypatch, loss):
    """The task end to end on a set with label-less rows: every target matrix a fit receives and every gold
    matrix a metric scores has a label in each row, test scores every labelled row, and the record counts
    the removed rows per file."""
    from hydra import compose, initialize_config_dir

    from sparselab.engine import resolvers
    from sparselab.engine.context import RunContext
    from sparselab.models import linear
    from sparselab.run import CONF_DIR
    from sparselab.tasks import multilabel

    resolvers.register()
    root = toy_mulan(tmp_path / "data")
    with initialize_config_dir(version_base="1.3", config_dir=str(CONF_DIR)):
        cfg = compose("config", overrides=["experiment=martins2016/table2_multilabel", "profile=smoke",
                                           "data.name=emotions", f"data.root={root}", f"task.loss={loss}"])
    fitted, scored = [], []
    real_warm, real_metrics = linear.warm_path, multilabel.multilabel_metrics

    def warm_path(design, T, *args, **kwargs):
        fitted.append(np.asarray(T))
        return real_warm(design, T, *args, **kwargs)

    def metrics(Y_true, Y_pred):
        scored.append(np.asarray(Y_true))
        return real_metrics(Y_true, Y_pred)

    monkeypatch.setattr(linear, "warm_path", warm_path)
    monkeypatch.setattr(multilabel, "multilabel_metrics", metrics)
    out = multilabel.run(cfg, RunContext(run_dir=tmp_path / "run"))
    assert fitted and scored
    assert all(T.shape[0] > 0 and (T.sum(1) > 0).all() for T in fitted)
    assert all((Y.sum(1) > 0).all() for Y in scored)
    assert {Y.shape[0] for Y in scored} == {21, 10}          # CV scores the 21 labelled train rows, test the 10
    assert max(T.shape[0] for T in fitted) == 21              # the refit on every labelled train row
    assert out["extra"]["unlabelled_removed"] == {"train": 3, "test": 2}
    assert out["extra"]["examples_read"] == {"train": 24, "test": 12}


def test_the_task_refuses_a_split_with_an_example_without_labels():
    from sparselab.tasks import multilabel

    split = mulan.Split(np.zeros((2, 1)), np.array([[1, 0], [0, 0]]), np.zeros((1, 1)), np.array([[1, 1]]))
    with pytest.raises(ValueError, match="1 train examples without labels"):
        multilabel.require_labels(split)
