"""Put a committed report's runs back into a runs folder, so that a plan continued on a new machine (whose runs
folder starts empty) skips the jobs it has already finished, and a report of old and new runs finds every file.

    python -m sparselab.reports.restore peters2019 [--profile cpu] [--skip ID ...]

Each committed record (``runs.jsonl`` joined with its extras) becomes ``<runs>/<run>/run.json``, marked
``restored_from``; the files a report copies out of a run directory come back from the report folder: the BLEU
hypotheses and references (``bleu_files/``) and, for Peters, the gzipped test predictions. Trained models are
not committed, so a restored run has none: an ensemble whose members must be loaded needs those members re-run
(``--skip`` their identities). A run directory that already holds a record is left as it is.
"""
from __future__ import annotations

import argparse
import gzip
import importlib
import shutil
import sys
from pathlib import Path
from typing import Any, Callable

from sparselab.engine import record

from .mt_common import BLEU_DIR, run_sets

PAPERS = ("martins2016", "peters2019", "correia2019")


def bleu_stem(paper: str) -> Callable[[dict, str], str] | None:
    """The paper's name for a run's BLEU files in ``bleu_files/`` (None: the paper has no BLEU files)."""
    if paper == "peters2019":
        from .peters2019.mt import bleu_file_stem
    elif paper == "correia2019":
        from .correia2019.report import bleu_file_stem
    else:
        return None
    return bleu_file_stem


def restore_bleu_files(rec: dict, report: Path, stem: Callable[[dict, str], str]) -> int:
    """Copy the run's committed hypothesis and reference files back to where its record names them."""
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


def restore_predictions(rec: dict, report: Path) -> int:
    """Peters inflection: un-gzip the run's committed predictions into its ``predictions/`` folder."""
    from .peters2019 import predictions
    from .peters2019.report import key, setting_of

    exp = rec["config"].get("experiment_name", "")
    if not exp.startswith("peters2019/") or "table2_mt" in exp:
        return 0
    kind = "ensemble" if "/ensemble_" in exp else "baseline" if "/baseline_" in exp else "single"
    a, b = key(rec) if kind != "baseline" else (None, None)
    src = report / predictions.folder(setting_of(rec), kind, a, b, rec["config"].get("seed", 0))
    dst = Path(rec["run_dir"]) / predictions.FOLDER
    n = 0
    for gz in sorted(src.glob("*.gz")) if src.is_dir() else []:
        dst.mkdir(parents=True, exist_ok=True)
        with gzip.open(gz, "rb") as fin, open(dst / gz.name[:-3], "wb") as fout:
            shutil.copyfileobj(fin, fout)
        n += 1
    return n


def restore(paper: str, profile: str, runs: Path, report: Path, skip: set[str] = frozenset()) -> dict[str, Any]:
    """Write the report's committed records (and their files) into ``runs``; what was done, counted."""
    module = importlib.import_module(f"sparselab.reports.{paper}")
    stored = module.committed(report, runs)
    if not stored:
        raise SystemExit(f"error: no committed run records in {report}")
    stem = bleu_stem(paper)
    done = {"restored": 0, "present": 0, "skipped": 0, "files": 0}
    for rec in stored:
        d = Path(rec["run_dir"])
        if record.identity(rec) in skip:
            done["skipped"] += 1
            continue
        if record.read(d) is not None:
            done["present"] += 1
            continue
        if stem is not None:
            done["files"] += restore_bleu_files(rec, report, stem)
        if paper == "peters2019":
            done["files"] += restore_predictions(rec, report)
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
                    help="a job identity not to restore (its run must be re-run, e.g. an ensemble member's model)")
    args = ap.parse_args(argv)
    runs = Path(runs_root())
    report = report_path(args.paper, args.profile)
    done = restore(args.paper, args.profile, runs, report, set(args.skip))
    print(f"[{args.paper}] {done['restored']} runs restored from {report} into {runs} ({done['files']} files); "
          f"{done['present']} already there, {done['skipped']} skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
