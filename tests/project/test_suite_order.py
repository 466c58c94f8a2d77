"""The suite's schedule: every file that conftest.LONGEST_FIRST puts first exists, once (a renamed or deleted test
file would otherwise drop silently to the end of the order and could leave a core idle)."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

from conftest import LONGEST_FIRST

TESTS = Path(__file__).resolve().parents[1]


def test_every_file_of_the_longest_first_order_exists_once():
    names = Counter(p.name for p in TESTS.rglob("test_*.py"))
    assert [n for n in LONGEST_FIRST if names[n] != 1] == []
    assert len(set(LONGEST_FIRST)) == len(LONGEST_FIRST)
