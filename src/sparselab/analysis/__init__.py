"""Statistics of sparse probability mappings that every task and report shares.

- :mod:`.divergence`  KL and Jensen–Shannon divergences (label proportions)
- :mod:`.sparsity`    support sizes of attention and output distributions (seq2seq)
- :mod:`.heads`       Transformer head density, JS head diversity, learned α per layer (Correia et al. 2019)
- :mod:`.head_roles`  positional, BPE-merging and interrogation heads (Correia et al. 2019, §5.2)
- :mod:`.plateau`     whether a validation curve has stopped improving (MT early stopping and reports)
"""
from __future__ import annotations

import importlib

__all__ = ["js_divergence", "kl_divergence", "SupportStats", "support_size", "teacher_forced_sparsity"]
_HOME = {"js_divergence": "divergence", "kl_divergence": "divergence", "SupportStats": "sparsity",
         "support_size": "sparsity", "teacher_forced_sparsity": "sparsity"}


def __getattr__(name: str):
    # imported on first use: a report that reads only .plateau then starts without torch (about 3 s a process)
    if name in _HOME:
        return getattr(importlib.import_module(f".{_HOME[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
