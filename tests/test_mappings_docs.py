"""Every public mapping function and class cites the paper (and equation/algorithm) it implements."""
import inspect
import re

import pytest

import sparselab.mappings as M

CITATION = re.compile(r"(Martins & Astudillo 2016|Peters et al\. 2019|Correia et al\. 2019|Blondel et al\. 2020|"
                      r"Tsallis 1988|Bridle 1990)")
FORMULA = re.compile(r"(=|Alg\. \d|Prop\. \d|Eq\. \d)")


def _public():
    return [(n, o) for n, o in vars(M).items()
            if not n.startswith("_") and (inspect.isfunction(o) or inspect.isclass(o))]


def test_public_api_is_nonempty():
    names = {n for n, _ in _public()}
    assert {"softmax", "sparsemax", "entmax15", "entmax_bisect", "entmax", "tsallis_entropy", "fy_loss",
            "Entmax", "FYLoss"} <= names


@pytest.mark.parametrize("name,obj", _public())
def test_docstring_cites_its_equation(name, obj):
    doc = inspect.getdoc(obj) or ""
    assert CITATION.search(doc), f"{name}: docstring names no paper"
    assert FORMULA.search(doc), f"{name}: docstring gives no equation/algorithm"
