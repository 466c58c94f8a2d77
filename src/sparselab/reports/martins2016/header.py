"""What every Martins & Astudillo (2016) report starts with, and its quotes of the paper (papers.yaml)."""
from __future__ import annotations

from typing import Any, Mapping


def profile_header(profile: str, recs: list[dict], title: str) -> list[str]:
    return [f"# {title}", "", f"Profile: **{profile}**. Runs: {len(recs)}. Every number below is read from the "
            "run records (run.json) of this profile.", ""]


def paper_summary(ref: Mapping[str, Any], *keys: tuple[str, str]) -> list[str]:
    """The quoted lines of a reference entry: ``(label, key)`` per line, stripped."""
    return [f"- {label}: {str(ref.get(k, '')).strip()}" for label, k in keys]
