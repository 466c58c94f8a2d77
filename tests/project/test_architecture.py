"""The package's layers, read from every module's imports (ast; function-local imports included): the config stops
at tasks/, the engine knows no data, training or task, mappings/ needs torch alone, and no two subpackages import
each other (directly or round a longer circle)."""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
PACKAGE = "sparselab"
# the packages below tasks/: they take typed settings and plain containers, never a DictConfig
LOWER = ("data", "decoding", "training", "models", "mappings", "kernels", "analysis")
CONFIG_LIBRARIES = ("omegaconf", "hydra")
# subpackage -> the subpackages it must not import
FORBIDDEN = {"engine": ("data", "training", "tasks", "reports"), "training": ("tasks",), "tasks": ("reports",)}


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(root: Path, path: Path) -> list[tuple[str, int]]:
    """Every module ``path`` imports, absolute (relative imports resolved; ``from a import b`` also as ``a.b``),
    with its line."""
    name = module_name(root, path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(up + ([base] if base else []))
            out.append((base, node.lineno))
            out += [(f"{base}.{a.name}", node.lineno) for a in node.names if a.name != "*"]
    return out


def _ours(target: str) -> str | None:
    """The subpackage (or top-level module) of ours that ``target`` names, else None."""
    parts = target.split(".")
    return parts[1] if parts[0] == PACKAGE and len(parts) > 1 else None


def _is_module(root: Path, dotted: str) -> bool:
    base = root.joinpath(*dotted.split("."))
    return base.with_suffix(".py").is_file() or base.is_dir()    # engine/ is a namespace package (no __init__)


def _allowed_in_mappings(target: str) -> bool:
    top = target.split(".")[0]
    if top in ("torch", "__future__") or top in sys.stdlib_module_names:
        return True
    return target == PACKAGE or target.startswith(f"{PACKAGE}.mappings")


def layer_violations(root: Path) -> list[str]:
    """One line per import that breaks a rule of the module docstring, and one per circle of subpackages."""
    out, edges = [], {}
    for path in sorted((root / PACKAGE).rglob("*.py")):
        name = module_name(root, path)
        sub = _ours(name)
        for target, line in imports_of(root, path):
            where = f"{path.relative_to(root)}:{line}"
            if target.split(".")[0] in CONFIG_LIBRARIES and sub in LOWER:
                out.append(f"{where}: {name} imports {target} (the config stops at tasks/)")
            dep = _ours(target)
            if dep in FORBIDDEN.get(sub, ()):
                out.append(f"{where}: {name} imports {target} ({sub}/ never imports {dep}/)")
            if sub == "mappings" and not _allowed_in_mappings(target):
                out.append(f"{where}: {name} imports {target} (mappings/ needs torch alone)")
            if sub and dep and dep != sub and _is_module(root, f"{PACKAGE}.{dep}"):
                edges.setdefault(sub, set()).add(dep)
    out += [f"import circle: {' -> '.join(c)}" for c in _circles(edges)]
    return out


def _circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """One circle per strongly connected group of subpackages (Tarjan), as a path that comes back to its start."""
    index, low, stack, on, groups = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return [_path_round(g, edges) for g in groups]


def _path_round(group: list[str], edges: dict[str, set[str]]) -> list[str]:
    start = group[0]
    path, seen = [start], {start}
    while True:   # walk inside the group until it comes back to the start (a shortest way home at each step)
        here = path[-1]
        nxt = sorted(w for w in edges.get(here, ()) if w in group)
        if start in nxt and len(path) > 1:
            return path + [start]
        fresh = [w for w in nxt if w not in seen]
        if not fresh:
            return path + [start]
        path.append(fresh[0])
        seen.add(fresh[0])


def test_the_package_keeps_its_layers():
    found = layer_violations(SRC)
    assert not found, "\n".join(found)


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        p = tmp_path / PACKAGE / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    for d in [tmp_path / PACKAGE, *(tmp_path / PACKAGE).rglob("*")]:
        if d.is_dir() and d.name != "engine" and not (d / "__init__.py").exists():   # engine/: a namespace package
            (d / "__init__.py").write_text("")
    return tmp_path


CLEAN = {"mappings/core.py": "import math\nimport torch\nfrom . import helpers\n", "mappings/helpers.py": "",
         "data/load.py": "from sparselab.errors import ConfigError\n", "errors.py": "",
         "engine/run.py": "from sparselab.errors import ConfigError\n",
         "tasks/task.py": "from omegaconf import DictConfig\nfrom sparselab.data import load\n"}


def test_a_clean_synthetic_tree_passes(tmp_path):
    assert layer_violations(_tree(tmp_path, CLEAN)) == []


@pytest.mark.parametrize("rel, text, expected", [
    ("data/load.py", "def f():\n    from omegaconf import OmegaConf\n", "data/load.py:2: sparselab.data.load imports "
                                                                         "omegaconf (the config stops at tasks/)"),
    ("models/build.py", "from hydra.utils import instantiate\n", "imports hydra.utils (the config stops at tasks/)"),
    ("engine/run.py", "from sparselab.data.load import x\n", "(engine/ never imports data/)"),
    ("engine/run.py", "def f():\n    import sparselab.tasks.task\n", "(engine/ never imports tasks/)"),
    ("engine/run.py", "from ..training import loop\n", "imports sparselab.training (engine/ never imports training/)"),
    ("training/loop.py", "from sparselab.tasks import task\n", "(training/ never imports tasks/)"),
    ("tasks/task.py", "from sparselab.reports import table\n", "(tasks/ never imports reports/)"),
    ("mappings/core.py", "import numpy\n", "imports numpy (mappings/ needs torch alone)"),
    ("mappings/core.py", "from sparselab.data import load\n", "imports sparselab.data (mappings/ needs torch alone)"),
    ("data/load.py", "from sparselab.models import net\n", "import circle: data -> models -> data"),
    ("errors.py", "from sparselab.engine import run\n", "import circle: engine -> errors -> engine"),
])
def test_a_planted_violation_is_found(tmp_path, rel, text, expected):
    files = {**CLEAN, "models/net.py": "from sparselab.data import load\n", "reports/table.py": "",
             "training/loop.py": "", rel: text}
    found = layer_violations(_tree(tmp_path, files))
    assert any(expected in line for line in found), found
