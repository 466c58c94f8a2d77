"""Martins & Astudillo (2016), "From Softmax to Sparsemax": the paper's reports."""
from .report import ARTIFACTS, COMMITS_PART, PAPER, committed, numbers, write_reports

__all__ = ["ARTIFACTS", "COMMITS_PART", "PAPER", "committed", "numbers", "write_reports"]
