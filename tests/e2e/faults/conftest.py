"""Fault injection (issue 57): each test causes one fault a user can cause and checks what the user sees (one
``error:`` line, the exit code) and what is left on disk (records, the committed reports untouched). In-process
calls wherever the entry point allows, so the suite stays cheap."""
from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[3]


def tracked_state(folder: str = "reports") -> dict[str, str]:
    """sha256 of every tracked file under ``folder`` and the paths git sees changed or new there."""
    files = subprocess.run(["git", "-C", str(PROJECT), "ls-files", "--", folder], capture_output=True, text=True,
                           check=True).stdout.split()
    state = {f: hashlib.sha256((PROJECT / f).read_bytes()).hexdigest() for f in files if (PROJECT / f).is_file()}
    state["<status>"] = subprocess.run(["git", "-C", str(PROJECT), "status", "--porcelain", "--", folder],
                                       capture_output=True, text=True, check=True).stdout
    return state


@pytest.fixture(scope="session")
def committed_before():
    return tracked_state()


def error_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("error:")]
