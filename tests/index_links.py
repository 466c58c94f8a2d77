"""Every link of a report's index.html points at a file that is there (issue 18, item 11)."""
from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.links += [v for k, v in attrs if k in ("href", "src") and v]


def links(index: Path) -> list[str]:
    """The href and src values of ``index`` that name a file (no in-page anchors, no web addresses)."""
    parser = _Links()
    parser.feed(Path(index).read_text(encoding="utf-8"))
    return [v for v in parser.links if not v.startswith("#") and not urlsplit(v).scheme]


def broken_links(index: Path) -> list[str]:
    """The links of ``index`` whose target (relative to its folder) does not exist."""
    base = Path(index).parent
    return [v for v in links(index) if not (base / unquote(urlsplit(v).path)).exists()]
