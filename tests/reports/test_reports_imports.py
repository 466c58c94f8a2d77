"""The import rules of the code base, read from the source with ``ast`` (issues 18 and 35).

Every import is counted, also those inside a function: a function-level import only hides a circle or a coupling
from Python's import machinery, it does not remove it.

- ``sparselab.reports`` has no import circle;
- one package per paper under ``sparselab.reports`` (``report.py`` its front door, ``claims.py`` beside it); a
  paper imports the shared kit, never another paper, and the kit imports no paper;
- nothing under ``sparselab.tasks`` imports ``sparselab.reports``; nothing under ``sparselab.engine`` imports
  ``sparselab.training``;
- ``from sparselab.reports import <paper> as report`` (the pipelines) gives the front door's API.
"""
from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import sparselab

SRC = Path(sparselab.__file__).resolve().parent
PROJECT = SRC.parents[1]
REPORTS = "sparselab.reports"
PAPERS = ("martins2016", "peters2019", "correia2019")
FRONT_DOOR = ("PAPER", "ARTIFACTS", "write_reports", "numbers")


def module_name(path: Path) -> str:
    """``sparselab.reports.peters2019.mt`` for ``src/sparselab/reports/peters2019/mt.py`` (a package: its name)."""
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(source: str, name: str, is_package: bool) -> set[str]:
    """Every absolute module name ``source`` (the module ``name``) imports anywhere; ``from m import x`` counts as
    ``m`` and ``m.x`` (``x`` may be a submodule)."""
    here = name.split(".") if is_package else name.split(".")[:-1]
    out = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(here[: len(here) - node.level + 1] + ([node.module] if node.module else [])) \
                if node.level else node.module
            out |= {base} | {f"{base}.{a.name}" for a in node.names}
    return out


def modules(under: str) -> dict[str, set[str]]:
    """``{module: the modules it imports}`` for every module of the package ``under``."""
    root = SRC.parent.joinpath(*under.split("."))
    return {module_name(p): imports(p.read_text(encoding="utf-8"), module_name(p), p.name == "__init__.py")
            for p in sorted(root.rglob("*.py"))}


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def paper_of(name: str) -> str | None:
    return next((p for p in PAPERS if within(name, f"{REPORTS}.{p}")), None)


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


def test_imports_resolves_every_form_and_find_cycle_finds_a_circle():
    src = ("from . import a\nfrom .b import x\nimport sparselab.c\nfrom .. import tables\n"
           "def f():\n    from ..records import load\nimport os\n")
    assert imports(src, "sparselab.reports.peters2019.mt", False) == {
        "sparselab.reports.peters2019", "sparselab.reports.peters2019.a", "sparselab.reports.peters2019.b",
        "sparselab.reports.peters2019.b.x", "sparselab.c", "sparselab.reports", "sparselab.reports.tables",
        "sparselab.reports.records", "sparselab.reports.records.load", "os"}
    assert imports("from .report import PAPER\n", "sparselab.reports.peters2019", True) == {
        "sparselab.reports.peters2019.report", "sparselab.reports.peters2019.report.PAPER"}
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) == []


REPORT_MODULES = modules(REPORTS)


@pytest.mark.parametrize("name", sorted(REPORT_MODULES))
def test_every_reports_module_imports(name):
    importlib.import_module(name)


def test_reports_package_has_no_import_cycle():
    # a package's __init__ imports its own modules by design; a circle is between modules
    graph = {m: {n for n in deps if n in REPORT_MODULES and n != m and not within(m, n)}
             for m, deps in REPORT_MODULES.items()}
    assert find_cycle(graph) == []
    assert {n for n in REPORT_MODULES[f"{REPORTS}.numbers"] if within(n, REPORTS)} == set(), "numbers.py imports no report"


def test_one_package_per_paper_with_its_front_door_and_claims():
    for paper in PAPERS:
        folder = SRC / "reports" / paper
        assert (folder / "__init__.py").is_file() and (folder / "report.py").is_file(), paper
        assert (folder / "claims.py").is_file(), paper
    flat = [p.name for p in (SRC / "reports").glob("*.py") if p.stem.startswith(PAPERS)]
    assert flat == [], "a paper's module lives in its package"


def test_every_paper_package_has_the_same_layout():
    """The same module names in each paper: records (runs), the header every report starts with, claims, W&B
    panels and the front door; beside them one module per artefact, whose prose template has its module's name."""
    for paper in PAPERS:
        folder = SRC / "reports" / paper
        names = {p.stem for p in folder.glob("*.py")}
        assert {"__init__", "runs", "header", "claims", "wandb", "report"} <= names, paper
        assert {p.stem for p in folder.glob("*.md")} <= names, f"{paper}: a template without its module"


def test_no_paper_imports_another_and_the_kit_imports_no_paper():
    crossing = []
    for m, deps in REPORT_MODULES.items():
        mine = paper_of(m)
        crossing += [f"{m} -> {n}" for n in deps if paper_of(n) not in (None, mine)]
    assert crossing == []


def test_no_task_imports_reports_and_no_engine_module_imports_training():
    tasks = [f"{m} -> {n}" for m, deps in modules("sparselab.tasks").items() for n in deps if within(n, REPORTS)]
    engine = [f"{m} -> {n}" for m, deps in modules("sparselab.engine").items() for n in deps
              if within(n, "sparselab.training")]
    assert tasks == [] and engine == []


@pytest.mark.parametrize("paper", PAPERS)
def test_the_paper_package_is_its_front_door(paper):
    package = importlib.import_module(f"{REPORTS}.{paper}")
    front = importlib.import_module(f"{REPORTS}.{paper}.report")
    assert all(getattr(package, k) is getattr(front, k) for k in FRONT_DOOR)
    assert package.PAPER == paper
    pipeline = (PROJECT / "pipelines" / f"{paper}.py").read_text(encoding="utf-8")
    assert f"from sparselab.reports import {paper} as report\n" in pipeline


def test_a_report_starts_without_torch():
    """Each paper's front door and the runner import no torch: every --report-only, and each pipeline before its
    first sweep, saves the ~3 s of torch's import (the test suite runs dozens of them)."""
    import subprocess
    import sys

    code = ("import sys; " + "; ".join(f"import {REPORTS}.{p}" for p in PAPERS)
            + f"; import {REPORTS}.runner; from {REPORTS}.correia2019.analysis import alpha_room; alpha_room(1e-3, 4, 8)"
            + "; print(sorted(m for m in ('torch', 'lightning') if m in sys.modules))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "[]", proc.stdout
