"""The README and the pages under docs/ (issue 35): their size, their tables, their links, their code and their
commands.

- ``README.md`` has at most 150 lines and no table cell over 300 characters (nor has a page);
- every relative link of the README and the pages opens a file of the checkout (and a heading, for ``#anchor``);
- every ``python`` block of a page runs, the page's blocks top to bottom in one namespace;
- every command of their ``bash`` blocks that can be checked without training is checked: ``make`` targets with
  ``make -n``, pipelines and ``python -m`` tools with ``--help``, ``python -m sparselab.run`` by composing the first
  job of its sweep and resolving its config (its job identity).
"""
from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import warm

PROJECT = Path(__file__).resolve().parents[2]
PAGES = [PROJECT / "README.md", *sorted((PROJECT / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)


def blocks(page: Path, language: str) -> list[str]:
    return [body for lang, body in FENCE.findall(page.read_text(encoding="utf-8")) if lang == language]


def commands(page: Path) -> list[str]:
    """The command lines of a page's bash blocks (continuations joined, comments and install lines left out)."""
    out = []
    for body in blocks(page, "bash"):
        for line in body.replace("\\\n", " ").splitlines():
            line = re.sub(r"\s+#.*$", "", line).strip()
            if line.startswith(("make ", ".venv/bin/python ")) or re.match(r"[A-Z_]+=\S+ \.venv/bin/python ", line):
                out.append(re.sub(r"\s+", " ", line))
    return out


def slug(heading: str) -> str:
    """GitHub's anchor of a Markdown heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_readme_is_short_and_no_table_cell_is_long():
    assert len((PROJECT / "README.md").read_text(encoding="utf-8").splitlines()) <= 150
    long = [f"{page.name}:{n}: {len(cell)}" for page in PAGES
            for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1) if line.startswith("|")
            for cell in line.strip("|").split("|") if len(cell.strip()) > 300]
    assert long == []


def test_every_page_exists_and_the_readme_links_each_paper_page():
    names = {p.name for p in PAGES}
    assert {"martins2016.md", "peters2019.md", "correia2019.md", "mappings.md", "learning_alpha.md"} <= names
    readme = (PROJECT / "README.md").read_text(encoding="utf-8")
    assert all(f"(docs/{paper}.md)" in readme for paper in ("martins2016", "peters2019", "correia2019"))


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_relative_link_opens_a_file_and_heading(page):
    broken = []
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+://|mailto:", target):
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(target)
        elif anchor and file.suffix == ".md":
            headings = re.findall(r"^#+ (.+)$", file.read_text(encoding="utf-8"), re.M)
            if anchor not in {slug(h) for h in headings}:
                broken.append(target)
    assert broken == []


@pytest.mark.parametrize("page", [p for p in PAGES if blocks(p, "python")], ids=lambda p: p.name)
def test_every_python_block_runs(page):
    namespace: dict = {"__name__": f"docs_{page.stem}"}
    for i, code in enumerate(blocks(page, "python")):
        exec(compile(code, f"{page.name}[block {i}]", "exec"), namespace)


def _check(command: str) -> None:
    words = shlex.split(command)
    while re.match(r"[A-Z_]+=", words[0]):
        words = words[1:]                                   # an environment prefix (SPARSELAB_RUNS=…)
    if words[0] == "make":
        target = words[1]
        if shutil.which("make") is None:
            pytest.skip("make not installed")
        proc = subprocess.run(["make", "-n", target], cwd=PROJECT, capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        return
    args = words[1:]
    if args[0] == "-m" and args[1] == "sparselab.run":
        _compose(args[2:])
        return
    tool = ["-m", args[1]] if args[0] == "-m" else [args[0]]
    rest = args[len(tool):]
    sub = [rest[0]] if args[:2] == ["-m", "sparselab.data"] and rest and not rest[0].startswith("-") else []
    proc = warm.run([sys.executable, *tool, *sub, "--help"], cwd=PROJECT, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]


def _compose(args: list[str]) -> None:
    """The overrides are known keys, and the first job of the sweep composes and resolves (no training)."""
    from hydra import compose, initialize_config_dir

    from sparselab.engine import jobs, record
    from sparselab.engine.overrides import override_error
    from sparselab.run import CONF_DIR

    args = [a for a in args if a not in ("-m", "--cfg", "job")]
    assert override_error(CONF_DIR, args) is None
    given = dict(a.split("=", 1) for a in args)
    rest = [a for a in args if not a.startswith(("experiment=", "profile="))]
    first = jobs.expand(CONF_DIR, given["experiment"], given.get("profile", "cpu"), rest)[0]
    with initialize_config_dir(version_base="1.3", config_dir=str(CONF_DIR), job_name="docs"):
        cfg = compose(config_name="config", overrides=[o for o in first if not o.startswith("hydra")])
    assert re.fullmatch(r"[0-9a-f]{16}", record.config_hash(cfg))


COMMANDS = sorted({c for page in PAGES for c in commands(page)})


def test_the_pages_have_commands_to_check():
    assert any(c.startswith("make reproduce-") for c in COMMANDS)
    assert any("-m sparselab.run " in c for c in COMMANDS) and any("pipelines/" in c for c in COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_is_checked_without_training(command):
    _check(command)
