"""Martins 2016 data layer: the ARFF reader, the Mulan registry and its errors."""
from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from sparselab.data import mulan
from sparselab.data.arff import read_arff, read_mulan_labels, split_features_labels
from sparselab.data.errors import DataFormatError, MissingDataError
from sparselab.data.root import data_root

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
