"""``python -m sparselab.reports.peters2019.rescore reports/peters2019/<profile>``: re-score with ``evalm.py``.

Writes ``predictions/rescored.md``. Exit 0: every row agrees; 1: a row disagrees; 2: bad input."""
from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from .predictions import (EVALM_SHA256, FOLDER, RESCORED, builtin, data_root_of, evalm_script, official, rescore,
                          rescored_text)
from ..templates import snippets


def main(argv: list[str] | None = None) -> int:
    text = snippets("sparselab.reports.peters2019", "rescore")      # by name: as ``python -m``, this is __main__
    ap = argparse.ArgumentParser(prog="python -m sparselab.reports.peters2019.rescore",
                                 description=text["help"].format(folder=FOLDER, rescored=RESCORED))
    ap.add_argument("report", type=Path, help=text["report"])
    ap.add_argument("--evalm", type=Path, help=text["evalm"])
    ap.add_argument("--scorer", choices=["official", "builtin"], default="official", help=text["scorer"])
    ap.add_argument("--data-root", help=text["data_root"])
    args = ap.parse_args(argv)
    if not (args.report / "per_language.csv").is_file() or not (args.report / FOLDER).is_dir():
        print(f"error: {args.report} has no per_language.csv and {FOLDER}/ (write it with the Peters pipeline)",
              file=sys.stderr)
        return 2
    try:
        if args.scorer == "builtin":
            scorer, name = builtin, "sparselab's `sigmorphon.score_files` (`--scorer builtin`)"
        else:
            path = evalm_script(args.evalm)
            scorer, name = official(path), (f"the official `evalm.py` (sha256 `{EVALM_SHA256[:12]}…`, "
                                            f"sigmorphon/conll2018 @ 490e2e0)")
        root = args.data_root if args.data_root else data_root_of(args.report)
        rows = rescore(args.report, scorer, root)
    except (OSError, ValueError, subprocess.CalledProcessError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    (args.report / FOLDER / RESCORED).write_text(rescored_text(rows, name), encoding="utf-8")
    bad = sum(not r["agrees"] for r in rows)
    print(f"{len(rows) - bad} of {len(rows)} rows agree; written {args.report / FOLDER / RESCORED}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
