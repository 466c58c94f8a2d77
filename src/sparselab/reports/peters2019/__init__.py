"""Peters, Niculae & Martins (2019), "Sparse Sequence-to-Sequence Models": the paper's reports."""
from .report import ARTIFACTS, PAPER, committed, numbers, restore_files, write_reports

__all__ = ["ARTIFACTS", "PAPER", "committed", "numbers", "restore_files", "write_reports"]
