"""Correia, Niculae & Martins (2019), "Adaptively Sparse Transformers": the paper's reports.

The front door is :mod:`.report` (it only orchestrates); :mod:`.runs` loads the records; one module per artefact
(:mod:`.table1` with :mod:`.alpha_rule`, :mod:`.analysis` drawn by :mod:`.figures`, :mod:`.heads`), its prose in the
``.md`` template beside it; :mod:`.header`; :mod:`.claims` states each claim's verdict; the W&B panels :mod:`.wandb`.
``pipelines/correia2019.py`` imports this package as its report; ``committed`` rebuilds a report from the
records committed beside it.
"""
from .report import ARTIFACTS, PAPER, committed, numbers, restore_files, write_reports

__all__ = ["ARTIFACTS", "PAPER", "committed", "numbers", "restore_files", "write_reports"]
