"""Put a committed report's runs back into a runs folder, so that a plan continued on a new machine (whose runs
folder starts empty) skips the jobs it has already finished, and a report of old and new runs finds every file.

Trained models are not committed: an ensemble whose members must be loaded needs them re-run (``--skip`` them).
"""
from __future__ import annotations

import argparse
import importlib
import shutil
import sys
from pathlib import Path
from typing import Any, Callable

from sparselab.engine import record
from sparselab.errors import ConfigError

from .mt_common import BLEU_DIR, run_sets

PAPERS = ("martins2016", "peters2019", "correia2019")


def restore_bleu_files(rec: dict, report: Path, stem: Callable[[dict, str], str]) -> int:
    """Copy the run's committed BLEU files back to where its record names them."""
    n = 0
    for set_name, files, _ in run_sets(rec):
        for kind in ("detok", "tok"):
            for side in ("hyp", "ref"):
                rel = files.get(f"{kind}.{side}")
                src = report / BLEU_DIR / f"{stem(rec, set_name)}.{kind}.{side}.txt"
                if rel and src.exists():
                    dst = Path(rec["run_dir"]) / rel
                    dst.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(src, dst)
                    n += 1
    return n


def names(rec: dict) -> set[str]:
    """What ``--skip`` may call a committed run: its identity or the folder it is restored to."""
    return {record.identity(rec), Path(rec["run_dir"]).name}


def restore(paper: str, profile: str, runs: Path, report: Path, skip: set[str] = frozenset()) -> dict[str, Any]:
    """Write the report's committed records (and their files) into ``runs``; what was done, counted."""
    module = importlib.import_module(f"sparselab.reports.{paper}")
    stored = module.committed(report, runs)
    if not stored:
        raise SystemExit(f"error: no committed run records in {report}")
    unknown = sorted(set(skip) - {n for rec in stored for n in names(rec)})
    if unknown:     # checked before anything is written: a mistyped ID would otherwise restore the run it meant to skip
        raise ConfigError(f"--skip {', '.join(unknown)}: no committed run of {report} has this identity or folder name")
    files_of = getattr(module, "restore_files", None)     # the paper's files a report copies out of a run dir
    done = {"restored": 0, "present": 0, "skipped": 0, "files": 0}
    for rec in stored:
        d = Path(rec["run_dir"])
        if skip & names(rec):
            done["skipped"] += 1
            continue
        if record.read(d) is not None:
            done["present"] += 1
            continue
        if files_of is not None:
            done["files"] += files_of(rec, report)
        body = {k: v for k, v in rec.items() if k != "run_dir"}
        body["restored_from"] = f"reports/{paper}/{profile}"
        record.write(d, body)
        done["restored"] += 1
    return done


def main(argv: list[str] | None = None) -> int:
    from .runner import report_path, runs_root

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paper", choices=PAPERS)
    ap.add_argument("--profile", default="cpu")
    ap.add_argument("--skip", action="append", default=[], metavar="ID",
                    help="a job not to restore, by its identity or its run folder's name (its run must be re-run, e.g. an "
                         "ensemble member's model); an ID that names no committed run is an error")
    args = ap.parse_args(argv)
    runs = Path(runs_root())
    report = report_path(args.paper, args.profile)
    try:
        done = restore(args.paper, args.profile, runs, report, set(args.skip))
    except ConfigError as err:   # e.g. a record of a newer identity version (sparselab.engine.identity)
        print(f"error: {' '.join(str(err).split())}", file=sys.stderr)
        return 2
    print(f"[{args.paper}] {done['restored']} runs restored from {report} into {runs} ({done['files']} files); "
          f"{done['present']} already there, {done['skipped']} skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
