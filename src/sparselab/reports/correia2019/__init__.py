"""Correia, Niculae & Martins (2019), "Adaptively Sparse Transformers": the paper's reports."""
from .report import ARTIFACTS, PAPER, committed, numbers, restore_files, write_reports

__all__ = ["ARTIFACTS", "PAPER", "committed", "numbers", "restore_files", "write_reports"]
