"""Correia, Niculae & Martins (2019), "Adaptively Sparse Transformers": the paper's reports.

The front door is :mod:`.report` (Table 1 BLEU, the analyses, head roles); :mod:`.runs` loads the records,
:mod:`.analysis`, :mod:`.heads` and :mod:`.figures` compute and draw, :mod:`.claims` states each claim's verdict.
``pipelines/correia2019.py`` imports this package as its report; ``committed`` rebuilds a report from the
records committed beside it.
"""
from .report import ARTIFACTS, PAPER, committed, numbers, restore_files, write_reports

__all__ = ["ARTIFACTS", "PAPER", "committed", "numbers", "restore_files", "write_reports"]
