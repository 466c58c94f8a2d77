"""The prose of the reports: ``<module>.md`` beside each module, each snippet after a ``<!-- name -->`` line.

Trailing newlines are dropped (the code lays out blank lines); placeholders are ``str.format``'s, ``{{``/``}}`` braces.
"""
from __future__ import annotations

import re
from functools import cache, partial
from importlib import resources
from typing import Any, Callable

import yaml

MARKER = re.compile(r"^<!-- (\w+) -->\n", re.M)


@cache
def snippets(package: str, name: str) -> dict[str, str]:
    text = resources.files(package).joinpath(f"{name}.md").read_text(encoding="utf-8")
    parts = MARKER.split(text)
    return {k: v.rstrip("\n") for k, v in zip(parts[1::2], parts[2::2])}


def prose(package: str, name: str, key: str, /, **values: Any) -> str:
    """The snippet ``key`` of the template ``name`` of ``package``, its placeholders filled with ``values``."""
    return snippets(package, name)[key].format(**values)


def template(module: str) -> Callable[..., str]:
    """``prose`` for the template beside ``module``: ``text = template(__name__)``."""
    package, _, name = module.rpartition(".")
    return partial(prose, package, name)


@cache
def data(package: str, name: str) -> Any:
    """The YAML file ``name`` beside the modules of ``package`` (package data)."""
    return yaml.safe_load(resources.files(package).joinpath(f"{name}.yaml").read_text(encoding="utf-8"))


def artifacts(package: str, group: str | None = None) -> list[tuple[str, str, str]]:
    """A paper's ``artifacts.yaml``: index.html's (name, file, description) items (of ``group``, where it has groups)."""
    items = data(package, "artifacts")
    return [tuple(x) for x in (items[group] if group else items)]
