"""Martins 2016 metrics on hand-checkable examples."""
from __future__ import annotations

import numpy as np
import pytest

from sparselab.tasks.label_proportions import js_divergence, proportion_metrics
from sparselab.tasks.multilabel import bootstrap_f1, cv_score, multilabel_metrics

Y_TRUE = [[1, 0, 1], [0, 1, 0], [1, 1, 0]]
Y_PRED = [[1, 0, 0], [0, 1, 1], [1, 0, 0]]


def test_micro_macro_and_label_f1_by_hand():
    # per label: (tp, fp, fn) = (2,0,0), (1,0,1), (0,1,1)
    m = multilabel_metrics(Y_TRUE, Y_PRED)
    assert m["micro_f1"] == pytest.approx(6 / 9)  # 2*3 / (2*3 + 1 + 2)
    assert m["macro_precision"] == pytest.approx(2 / 3)  # mean(1, 1, 0)
    assert m["macro_recall"] == pytest.approx(1 / 2)  # mean(1, 1/2, 0)
    assert m["macro_f1"] == pytest.approx(4 / 7)  # harmonic mean of 2/3 and 1/2 (authors' definition)
    assert m["label_f1"] == pytest.approx(5 / 9)  # mean(1, 2/3, 0): differs from macro-F1 on purpose


def test_perfect_and_empty_predictions():
    m = multilabel_metrics(Y_TRUE, Y_TRUE)
    assert m["micro_f1"] == m["macro_f1"] == m["label_f1"] == 1.0
    z = multilabel_metrics(Y_TRUE, np.zeros((3, 3)))
    assert z["micro_f1"] == z["macro_f1"] == z["label_f1"] == 0.0  # 0/0 counts as 0


def test_bootstrap_resamples_depend_on_the_seed_only_so_losses_pair():
    rng = np.random.default_rng(0)
    Y = rng.random((40, 5)) < 0.4
    a, b = rng.random((40, 5)) < 0.4, rng.random((40, 5)) < 0.4
    ba, ba2, bb = bootstrap_f1(Y, a, 50, [0, 0]), bootstrap_f1(Y, a, 50, [0, 0]), bootstrap_f1(Y, b, 50, [0, 0])
    assert ba == ba2 and len(ba["micro_f1"]) == len(bb["macro_f1"]) == 50
    # replicate i of every run is the same resample: recompute replicate 0 of loss b by hand
    idx = np.random.default_rng([0, 0]).integers(0, 40, 40)
    assert bb["micro_f1"][0] == pytest.approx(multilabel_metrics(Y[idx], b[idx])["micro_f1"], abs=1e-6)
    assert bb["macro_f1"][0] == pytest.approx(multilabel_metrics(Y[idx], b[idx])["macro_f1"], abs=1e-6)
    # a perfect prediction stays perfect on every resample
    assert set(bootstrap_f1(Y, Y, 20, [0, 1])["micro_f1"]) == {1.0}


def test_cv_objective_is_mean_of_micro_and_macro():
    m = multilabel_metrics(Y_TRUE, Y_PRED)
    assert cv_score(m, "micro_macro_mean") == pytest.approx((6 / 9 + 4 / 7) / 2)


def test_js_and_mse_by_hand():
    P = np.array([[1.0, 0.0], [0.5, 0.5]])
    Q = np.array([[0.0, 1.0], [0.5, 0.5]])
    js = js_divergence(P, Q)
    assert js[0] == pytest.approx(np.log(2)) and js[1] == pytest.approx(0.0)
    m = proportion_metrics(P, Q)
    assert m["mse"] == pytest.approx((2.0 + 0.0) / 2)
    assert m["js"] == pytest.approx(np.log(2) / 2)
