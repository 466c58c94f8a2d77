"""Issue 19: a task reads as data -> model -> module -> loop -> evaluate, not as a hub. Walking the run's config
from a task's entry point (``run``) through the calls that hand it on (an argument that uses ``cfg``), each path
visits the task module's own functions at most 3 times; the rest lives in data/, models/, training/, decoding/."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

TASKS = Path(__file__).resolve().parents[2] / "src" / "sparselab" / "tasks"


def cfg_paths(path: Path, entry: str = "run") -> list[list[str]]:
    """Every path of task-module functions the config travels, from ``entry``."""
    tree = ast.parse(path.read_text())
    funcs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}

    def callees(fn) -> list[str]:
        out = []
        for node in ast.walk(fn):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in funcs:
                args = list(node.args) + [k.value for k in node.keywords]
                if any(isinstance(n, ast.Name) and n.id == "cfg" for a in args for n in ast.walk(a)):
                    out.append(node.func.id)
        return out

    def walk(name: str, path: list[str]) -> list[list[str]]:
        path = path + [name]
        nxt = [c for c in callees(funcs[name]) if c not in path]
        return [p for c in nxt for p in walk(c, path)] or [path]

    return walk(entry, [])


MODULES = sorted(p for p in TASKS.glob("*.py") if "def run(" in p.read_text())


@pytest.mark.parametrize("module", MODULES, ids=lambda p: p.stem)
def test_the_config_visits_the_task_module_at_most_3_times_per_path(module):
    paths = cfg_paths(module)
    assert paths and paths[0][0] == "run"
    longest = max(paths, key=len)
    assert len(longest) <= 3, f"{module.name}: {' -> '.join(longest)}"


def test_the_walk_counts_a_hub(tmp_path):
    hub = tmp_path / "hub.py"
    hub.write_text("def run(cfg):\n    a(cfg)\n    d(1)\n\ndef a(cfg):\n    b(cfg.x)\n\ndef b(cfg):\n    c(cfg)\n\n"
                   "def c(cfg):\n    pass\n\ndef d(n):\n    pass\n")
    assert cfg_paths(hub) == [["run", "a", "b", "c"]]
