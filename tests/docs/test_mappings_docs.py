"""Every public mapping function and class cites the paper (and equation/algorithm) it implements."""
import inspect
import re

import pytest

import sparselab.mappings as M

CITATION = re.compile(r"(Martins & Astudillo 2016|Peters et al\. 2019|Correia et al\. 2019|Blondel et al\. 2020|"
                      r"Tsallis 1988|Bridle 1990|Santos et al\. 2024)")
# A cited algorithm / proposition / equation number, or an equation written out: ` = ` with spaces
# (not `dim=-1`, `==`, `>=`) and an operator or bracket on one side (not just `alpha = 1.5`).
REFERENCE = re.compile(r"(Alg\. \d|Prop\. \d|Eq\. \d)")
EQUATION = re.compile(r"(\S+)\s+=\s+(\S+)")
MATH = re.compile(r"[()\[\]{}+*/^<>|]")


def has_formula(doc: str) -> bool:
    if REFERENCE.search(doc):
        return True
    return any(MATH.search(lhs) or MATH.search(rhs) for lhs, rhs in EQUATION.findall(doc))


def _public():
    return [(n, o) for n, o in vars(M).items()
            if not n.startswith("_") and (inspect.isfunction(o) or inspect.isclass(o))]


def test_public_api_is_nonempty():
    names = {n for n, _ in _public()}
    assert {"softmax", "sparsemax", "entmax15", "entmax_bisect", "entmax", "tsallis_entropy", "fy_loss",
            "Entmax", "FYLoss",
            "normmax_bisect", "budget_bisect", "normmax_loss", "Normmax", "NormmaxLoss"} <= names


@pytest.mark.parametrize("name,obj", _public())
def test_docstring_cites_its_equation(name, obj):
    doc = inspect.getdoc(obj) or ""
    assert CITATION.search(doc), f"{name}: docstring names no paper"
    assert has_formula(doc), f"{name}: docstring gives no equation/algorithm"


@pytest.mark.parametrize("doc,ok", [
    ("x: the scores, dim=-1 (keyword arguments are not formulas)", False),
    ("fy_loss at alpha = 1.5.", False),
    ("exact for alpha == 1 and alpha >= 1", False),
    ("p_i = exp(z_i) / sum_j exp(z_j)", True),
    ("L(z; y) = Omega*(z) + Omega(y) - <z, y>", True),
    ("the sparsemax loss (Eq. 26)", True),
])
def test_formula_check_rejects_keyword_arguments(doc, ok):
    assert has_formula(doc) == ok
