"""Peters, Niculae & Martins (2019), "Sparse Sequence-to-Sequence Models": the paper's reports.

The front door is :mod:`.report` (it only orchestrates); :mod:`.runs` finds and splits the records; one module per
artefact (:mod:`.table1`, :mod:`.sparsity`, :mod:`.examples`, :mod:`.per_language`, :mod:`.predictions`,
:mod:`.figures`; :mod:`.table2`, :mod:`.table3`, :mod:`.figure4`, :mod:`.figure2`), its prose in the ``.md``
template beside it; :mod:`.claims`; the W&B panels :mod:`.wandb`. ``pipelines/peters2019.py`` imports this package
as its report; ``committed`` (:mod:`.runs`) gives the records committed beside a report, which rebuild it.
"""
from .report import ARTIFACTS, PAPER, committed, numbers, restore_files, write_reports

__all__ = ["ARTIFACTS", "PAPER", "committed", "numbers", "restore_files", "write_reports"]
