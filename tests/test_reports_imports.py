"""The modules of sparselab.reports import each other without a circle (issue 18, item 15).

Every import is counted, also those inside a function: a function-level import only hides a circle
from Python's import machinery, it does not remove the coupling.
"""
from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import sparselab.reports

PACKAGE = "sparselab.reports"
ROOT = Path(sparselab.reports.__file__).resolve().parent
MODULES = sorted(p.stem for p in ROOT.glob("*.py") if p.stem != "__init__")


def package_imports(source: str) -> set[str]:
    """The sibling modules (names inside sparselab.reports) that ``source`` imports anywhere."""
    out = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out |= {a.name.split(".")[2] for a in node.names if a.name.startswith(PACKAGE + ".")}
        elif isinstance(node, ast.ImportFrom):
            # `from .x import y` is level 1 with module "x"; `from . import x` level 1 with no module
            base = PACKAGE + (f".{node.module}" if node.module else "") if node.level == 1 else node.module or ""
            if base == PACKAGE:
                out |= {a.name for a in node.names}
            elif base.startswith(PACKAGE + "."):
                out.add(base.split(".")[2])
    return out & set(MODULES)


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import circle of ``graph`` as a list of modules ([] when there is none)."""
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    path: list[str] = []

    def visit(m: str) -> list[str]:
        state[m] = 1
        path.append(m)
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                return path[path.index(n):] + [n]
            if n not in state and (cycle := visit(n)):
                return cycle
        state[m] = 2
        path.pop()
        return []

    for m in sorted(graph):
        if m not in state and (cycle := visit(m)):
            return cycle
    return []


def test_find_cycle_finds_a_circle_and_package_imports_reads_every_form():
    src = ("from . import a\nfrom .b import x\nimport sparselab.reports.c\nfrom sparselab.reports.d import y\n"
           "from sparselab.reports import e\ndef f():\n    from .numbers import pick\nimport os\n")
    assert package_imports(src) == {"numbers"} | ({"a", "b", "c", "d", "e"} & set(MODULES))
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize("name", MODULES)
def test_every_reports_module_imports(name):
    importlib.import_module(f"{PACKAGE}.{name}")


def test_reports_package_has_no_import_cycle():
    graph = {m: package_imports((ROOT / f"{m}.py").read_text(encoding="utf-8")) - {m} for m in MODULES}
    assert find_cycle(graph) == []
    assert graph["numbers"] == set(), "numbers.py imports no paper module"
