"""One claims kit for the three papers: typed claims, standard tests (scipy, statsmodels), one renderer."""
from .claim import Claim, Verdict, counts, paper_page, render, table, untested
from . import stats

__all__ = ["Claim", "Verdict", "counts", "paper_page", "render", "table", "untested", "stats"]
