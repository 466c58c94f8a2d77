"""Sparse probability mappings and their Fenchel-Young losses (torch only).

softmax, sparsemax (Martins & Astudillo 2016), 1.5-entmax and alpha-entmax
(Peters, Niculae & Martins 2019), learned alpha (Correia, Niculae & Martins 2019),
alpha-normmax and budget (capped-simplex) sparsemax (Santos et al. 2024).
See README.md in this directory for the behaviours every function shares.
"""
from .bisect import entmax_bisect
from .budget import budget_bisect
from .dispatch import entmax
from .entmax15 import entmax15
from .losses import entmax15_loss, fy_loss, normmax_loss, softmax_loss, sparsemax_loss
from .modules import Entmax, FYLoss, Normmax, NormmaxLoss
from .normmax import normmax_bisect
from .softmax import softmax
from .sparsemax import sparsemax
from .tsallis import tsallis_entropy

__all__ = [
    "softmax",
    "sparsemax",
    "entmax15",
    "entmax_bisect",
    "entmax",
    "normmax_bisect",
    "budget_bisect",
    "tsallis_entropy",
    "fy_loss",
    "softmax_loss",
    "entmax15_loss",
    "sparsemax_loss",
    "normmax_loss",
    "Entmax",
    "FYLoss",
    "Normmax",
    "NormmaxLoss",
]
