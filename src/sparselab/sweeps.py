"""``python -m sparselab.sweeps '<JSON list of argument lists>'``: several sweeps in order in one process, each as
``python -m sparselab.run ARGS`` runs it (:func:`sparselab.run.cli`); the first that fails stops the others and
gives the exit status.

A sequential plan (``pipelines/<paper>.py`` with the basic launcher) runs its sweeps here: each sweep in its own
process paid Python, torch and Lightning's start-up again (about 5 CPU-s), and compiled the mappings' kernels again.
"""
from __future__ import annotations

import json
import sys

from sparselab import run


def main(sweeps: list[list[str]]) -> int:
    run.signals.install()   # SIGTERM is an interruption, as Ctrl-C is
    for args in sweeps:
        print("[sparselab] $", sys.executable, "-m sparselab.run", " ".join(args), flush=True)
        code = run.cli(list(args))
        if code:
            return code
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1].startswith("["):
        sys.exit(main(json.loads(sys.argv[1])))
    # a DDP job's extra rank: Lightning re-runs this module with the job's overrides (engine/distributed.py)
    run.signals.install()
    sys.exit(run.cli(sys.argv[1:]))
