"""Peters, Niculae & Martins (2019), "Sparse Sequence-to-Sequence Models": the paper's reports.

The front door is :mod:`.report` (inflection: Table 1, sparsity, examples), which calls :mod:`.mt` (machine
translation: Table 2, Table 3, Figure 4) and :mod:`.claims`. ``pipelines/peters2019.py`` imports this package
as its report; ``committed`` (:mod:`.extras`) gives the records committed beside a report, which rebuild it.
"""
from .report import ARTIFACTS, PAPER, committed, numbers, restore_files, write_reports

__all__ = ["ARTIFACTS", "PAPER", "committed", "numbers", "restore_files", "write_reports"]
