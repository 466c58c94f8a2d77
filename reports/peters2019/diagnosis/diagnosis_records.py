"""The command line the MT diagnosis reports share (``diagnose_peters_mt_*.py``): read a runs folder and store what
was read beside the report (``<report>.jsonl``), or rebuild the report from that stored file."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

DIAGNOSIS = Path(__file__).resolve().parent      # the reports live beside their scripts


def arguments(doc: str, name: str) -> tuple[argparse.Namespace, list[dict] | None]:
    """(args, the stored rows when ``runs`` is a ``.jsonl`` file written by the script, else None). Several runs
    folders may be given (the diagnosis' own runs are kept apart from the plan's, whose report lists every run of
    its folder that is not a plan job)."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("runs", type=Path, nargs="+", help=f"runs folders, or a {name}.jsonl written from them")
    ap.add_argument("--out", type=Path, default=DIAGNOSIS / f"{name}.md")
    args = ap.parse_args()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    if len(args.runs) == 1 and args.runs[0].is_file():
        return args, [json.loads(line) for line in args.runs[0].read_text(encoding="utf-8").splitlines()]
    return args, None


def find(roots: list[Path], experiment: str) -> list[dict]:
    """The finished cpu records of ``experiment`` in every runs folder of ``roots``."""
    from sparselab.engine import record

    return [r for root in roots for r in record.find(root, "cpu", experiment)]


def store(report: Path, rows: list[dict]) -> None:
    """The rows a report was built from, beside it (sorted keys: the bytes depend on the rows only)."""
    report.with_suffix(".jsonl").write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in rows),
                                            encoding="utf-8")
