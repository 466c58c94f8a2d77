"""Martins & Astudillo (2016), "From Softmax to Sparsemax": the paper's reports.

The front door is :mod:`.report` (it only orchestrates); :mod:`.runs` finds the records; one module per artefact
(:mod:`.table2`, :mod:`.figure3`, :mod:`.table3`, :mod:`.table4`), its prose in the ``.md`` template beside it;
:mod:`.header`; :mod:`.claims`; the W&B panels :mod:`.wandb`. ``pipelines/martins2016.py`` imports this package as
its report.
"""
from .report import ARTIFACTS, COMMITS_PART, PAPER, committed, numbers, write_reports

__all__ = ["ARTIFACTS", "COMMITS_PART", "PAPER", "committed", "numbers", "write_reports"]
