"""A typed claim and its one renderer, so every paper's claims table has the same columns and verdicts."""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Sequence

from ..tables import md_table
from ..templates import template


class Verdict(str, enum.Enum):
    HOLDS = "holds"
    FAILS = "does not hold"
    INCONCLUSIVE = "inconclusive"
    UNTESTED = "untested"


COLUMNS = ["claim (quoted, section)", "quantity", "ours (estimate, 95 % CI)", "paper", "test", "verdict"]


@dataclass(frozen=True)
class Claim:
    """One row: the paper's sentence (or, ``ours``, our own condition), the quantity, estimate, test and verdict;
    ``reason``: why untested; ``detect``: what an inconclusive design detects; ``quoted`` False: restated."""

    quote: str
    section: str
    quantity: str
    verdict: Verdict
    estimate: float | None = None
    ci: tuple[float, float] | None = None
    paper: str = "–"
    test: str = "–"
    reason: str = ""
    detect: str = ""
    detail: str = ""
    ours: bool = False
    quoted: bool = True
    digits: int = 2
    p: float | None = None

    def __post_init__(self):
        if self.verdict is Verdict.UNTESTED and not self.reason:
            raise ValueError(f"an untested claim needs its reason: {self.quote!r}")

    @property
    def label(self) -> str:
        """The verdict as the table prints it: "untested (why)", "inconclusive (what the design detects)"."""
        if self.verdict is Verdict.UNTESTED:
            return f"untested ({self.reason})"
        if self.verdict is Verdict.INCONCLUSIVE and self.detect:
            return f"inconclusive ({self.detect})"
        return self.verdict.value

    def ours_cell(self) -> str:
        d = self.digits
        est = "–" if self.estimate is None else f"{self.estimate:+.{d}f}"
        if self.ci is not None:
            est += f" [{self.ci[0]:+.{d}f}, {self.ci[1]:+.{d}f}]"
        return f"{est}; {self.detail}" if self.detail and est != "–" else (self.detail or est)

    def row(self) -> list[str]:
        text = f"\"{self.quote}\"" if self.quoted and not self.ours else self.quote
        quote = f"{'ours: ' if self.ours else ''}{text} ({self.section})"
        return [quote, self.quantity, self.ours_cell(), self.paper, self.test, f"**{self.label}**"]


def untested(quote: str, section: str, quantity: str, reason: str, paper: str = "–", **kw: Any) -> Claim:
    return Claim(quote, section, quantity, Verdict.UNTESTED, paper=paper, reason=reason, **kw)


def render(title: str, intro: str, claims: Sequence[Claim]) -> str:
    """``claims.md``: a title, a paragraph, one table of every claim, and the state of the claims (:func:`summary`)."""
    return f"# {title}\n\n{intro}\n\n" + table(claims) + "\n## State of the claims\n\n" + summary(claims)


def paper_page(module: str, profile: str, claims: Sequence[Claim]) -> str:
    """A paper's ``claims.md``: the lead and the tests in words (the ``claims.md`` template beside ``module``)."""
    text = template(module)
    return render("The paper's claims, tested on our runs", text("lead", profile=profile) + " "
                  + " ".join(text("method").split()) + " Sentences in quotation marks are the paper's; the others"
                  " restate its claim.", claims)


def summary(claims: Sequence[Claim]) -> str:
    """The verdict counts and one line per claim (``docs/<paper>.md`` repeats it; a test holds them equal)."""
    n = counts(claims)
    head = f"{len(claims)} claims: " + ", ".join(f"{k} {v}" for v, k in n.items()) + "."
    return head + "\n\n" + "".join(f"- **{c.verdict.value}**: {c.row()[0]}\n" for c in claims)


def table(claims: Sequence[Claim]) -> str:
    """The claims table alone (a report that shows some rows of ``claims.md`` beside its numbers)."""
    return md_table(COLUMNS, [c.row() for c in claims])


def counts(claims: Sequence[Claim]) -> dict[str, int]:
    """How many claims have each verdict (``index.html``'s summary), in the enum's order, zeros left out."""
    got = {v.value: sum(c.verdict is v for c in claims) for v in Verdict}
    return {k: n for k, n in got.items() if n}
