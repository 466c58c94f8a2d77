"""One claims kit for the three papers: typed claims (:mod:`.claim`), standard tests (:mod:`.stats`), one renderer.

Every paper's ``claims.py`` builds :class:`Claim` objects from its records with the tests of :mod:`.stats` (scipy.stats
and statsmodels), and :func:`render` writes them as one table (``claims.md``); ``index.html`` counts the same objects
(:func:`counts`), so no verdict is ever parsed back out of Markdown.
"""
from .claim import Claim, Verdict, counts, paper_page, render, table, untested
from . import stats

__all__ = ["Claim", "Verdict", "counts", "paper_page", "render", "table", "untested", "stats"]
