"""Martins & Astudillo (2016), "From Softmax to Sparsemax": the paper's reports.

The front door is :mod:`.report` (Table 2, Figure 3, and the SNLI Tables 3-4 built by :mod:`.snli`); the
claims and their rules are in :mod:`.claims`. ``pipelines/martins2016.py`` imports this package as its report.
"""
from .report import ARTIFACTS, COMMITS_PART, PAPER, committed, numbers, write_reports

__all__ = ["ARTIFACTS", "COMMITS_PART", "PAPER", "committed", "numbers", "write_reports"]
