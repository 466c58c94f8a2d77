"""The one command line behind every ``pipelines/<paper>.py``: run the paper's plan, then report.

A pipeline script holds only its paper's plan of runs (a :class:`Plan` per profile) and calls
:func:`main` with the paper's report module (``sparselab.reports.<paper>``)::

    python pipelines/<paper>.py --profile {smoke,cpu,paper} [--out DIR] [--report-only] [--jobs N]

Sweeps run in a subprocess through ``python -m sparselab.run -m``; finished jobs with an unchanged
config hash are skipped by the engine, so re-running after an interruption only runs what is missing.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Mapping, Sequence

from sparselab.engine import jobs as plan_jobs, record

from .records import PROJECT, plan_only, relative_run, runs_root

PROFILES = ("smoke", "cpu", "paper")
CONF_DIR = PROJECT / "conf"


class PipelineError(Exception):
    """A failure the user has already been told about (one line); the pipeline exits with ``code``."""

    def __init__(self, message: str | None, code: int = 2):
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Plan:
    """What one profile runs: sweeps ``(experiment, overrides)`` in order, the Hydra launcher
    (``None``: the in-process basic launcher) and options the paper's report reads (e.g. which
    settings were run, so that the others show as "not run in this profile")."""

    sweeps: Sequence[tuple[str, Sequence[str]]]
    launcher: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)


def choose_profile(arg: str | None) -> str:
    """The profile the user asked for; else `cpu` without a GPU and `paper` with one."""
    if arg:
        return arg
    try:
        import torch

        profile = "paper" if torch.cuda.is_available() else "cpu"
    except ImportError:
        profile = "cpu"
    print(f"[sparselab] no PROFILE given: using '{profile}' "
          f"({'GPU found' if profile == 'paper' else 'no GPU found'})", flush=True)
    return profile


def launcher_overrides(launcher: str | None, jobs: int | None) -> list[str]:
    """Hydra launcher overrides for a plan; ``--jobs 1`` means the in-process basic launcher."""
    if not launcher or (jobs is not None and jobs <= 1):
        return []
    return [f"hydra/launcher={launcher}"] + ([f"hydra.launcher.n_jobs={jobs}"] if jobs else [])


def sweep(experiment: str, profile: str, overrides: Sequence[str] = (), multirun: bool = True,
          runs: str | os.PathLike | None = None) -> None:
    """Run (or resume) an experiment's sweep in a subprocess."""
    cmd = [sys.executable, "-m", "sparselab.run"]
    if multirun:
        cmd.append("-m")
    cmd += [f"experiment={experiment}", f"profile={profile}", f"paths.runs={runs or runs_root()}", *overrides]
    print("[sparselab] $", " ".join(cmd), flush=True)
    env = dict(os.environ)
    env.setdefault("OMP_NUM_THREADS", "1")
    # The sweep prints its own one-line error (or, with HYDRA_FULL_ERROR=1, the traceback): the pipeline
    # only passes its exit status on.
    proc = subprocess.Popen(cmd, cwd=PROJECT, env=env)
    try:
        code = proc.wait()
    except KeyboardInterrupt:
        # The sweep got the same Ctrl-C (one process group): let it record its job as interrupted and say so
        # (subprocess.run would kill it first).
        proc.wait()
        raise PipelineError(None, 130) from None
    if code:
        raise PipelineError(None, code)


def check_only(plan: Plan, profile: str, only: Sequence[str]) -> None:
    """``--only`` names experiments of the plan (else one error line naming those that are)."""
    known = [experiment for experiment, _ in plan.sweeps]
    unknown = [o for o in only if o not in known]
    if unknown:
        raise PipelineError(f"error: --only {', '.join(unknown)}: not in the {profile} plan; valid: "
                            f"{', '.join(dict.fromkeys(known))}")


def run_plan(plan: Plan, profile: str, jobs: int | None = None, runs: str | os.PathLike | None = None,
             only: Sequence[str] = ()) -> None:
    """Run the plan's sweeps in order; ``only``: just the sweeps of these experiments (a plan's part, e.g. the
    translation sweeps of the Peters plan). An experiment that is not in the plan is an error naming those that are."""
    check_only(plan, profile, only)
    launcher = launcher_overrides(plan.launcher, jobs)
    for experiment, overrides in plan.sweeps:
        if not only or experiment in only:
            sweep(experiment, profile, [*overrides, *launcher], runs=runs)


def sweep_identities(plan: Plan, profile: str) -> list[tuple[str, list[str]]]:
    """Each sweep's experiment and the identities of its jobs (composing every job once)."""
    return [(experiment, plan_jobs.identities(CONF_DIR, experiment, profile, overrides))
            for experiment, overrides in plan.sweeps]


def jobs_among(recs, ids: set[str]) -> set[str]:
    """The identities in ``ids`` that these records are jobs of."""
    return {record.identity(r) for r in recs} & ids


def finished_jobs(runs: str | os.PathLike, profile: str, ids: set[str]) -> set[str]:
    """Which of these jobs have a finished record under the runs folder."""
    return jobs_among(record.find(runs, profile), ids)


def report_path(paper: str, profile: str, out: str | os.PathLike | None = None) -> Path:
    return Path(out) if out else PROJECT / "reports" / paper / profile


def report_dir(paper: str, profile: str, out: str | os.PathLike | None = None) -> Path:
    d = report_path(paper, profile, out)
    d.mkdir(parents=True, exist_ok=True)
    return d


def parser(paper: str, description: str | None) -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--profile", default=None, choices=list(PROFILES),
                    help="default: cpu without a GPU, paper with one")
    ap.add_argument("--out", default=None, help=f"report directory (default reports/{paper}/<profile>)")
    ap.add_argument("--report-only", action="store_true", help="do not run sweeps; report from existing records")
    ap.add_argument("--jobs", type=int, default=None,
                    help="parallel jobs for profiles that use the parallel launcher (1 = sequential)")
    ap.add_argument("--only", action="append", default=[], metavar="EXPERIMENT",
                    help="run only this experiment's sweeps of the plan (repeatable); the paper's report decides "
                         "which report files that part owns (Peters: --only peters2019/table2_mt rewrites the MT "
                         "reports and the index, and leaves the inflection files as they are; Martins: --only "
                         "martins2016/table3_snli does the same for the SNLI reports, --only martins2016/table2_multilabel for "
                         "Table 2)")
    return ap


def main(report: ModuleType, plans: Mapping[str, Plan], argv: Sequence[str] | None = None,
         description: str | None = None) -> int:
    """Parse the command line, run the profile's plan (unless ``--report-only``), write the reports.

    User errors print one ``error:`` line and return 2; Ctrl-C returns 130 with one line.
    """
    try:
        return _main(report, plans, argv, description)
    except PipelineError as err:
        if err.args[0]:  # None: the sweep has said it already
            print(err, file=sys.stderr)
        return err.code
    except KeyboardInterrupt:
        print(f"[{report.PAPER}] interrupted: finished jobs are kept; run the same command to resume",
              file=sys.stderr)
        return 130


def _main(report: ModuleType, plans: Mapping[str, Plan], argv: Sequence[str] | None,
          description: str | None) -> int:
    paper = report.PAPER
    args = parser(paper, description or report.__doc__).parse_args(argv)
    profile = choose_profile(args.profile)
    plan = plans[profile]
    runs = runs_root()
    try:
        Path(runs).mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise PipelineError(f"error: cannot create the runs folder {runs} (SPARSELAB_RUNS): "
                            f"{err.strerror or err}") from None
    print(f"[{paper}] artefacts: " + "; ".join(f"{name} -> {rel}" for name, rel, _ in report.ARTIFACTS), flush=True)
    check_only(plan, profile, args.only)
    if not args.report_only:
        run_plan(plan, profile, args.jobs, runs, args.only)
    by_sweep = sweep_identities(plan, profile)
    planned = set().union(*(ids for _, ids in by_sweep))
    part = set().union(*(ids for experiment, ids in by_sweep if experiment in args.only)) if args.only else planned
    found = finished_jobs(runs, profile, part)
    target = report_path(paper, profile, args.out)
    committed = getattr(report, "committed", None)  # a report that can rebuild from its committed records
    if not found and args.report_only and committed is not None and target.is_dir():
        found = jobs_among(committed(target, runs), part)
        if found and not args.only and getattr(report, "COMMITS_PART", False):
            # the committed records cover part of the plan (Martins: Table 2): report that part's jobs only
            part = set().union(*(ids for _, ids in by_sweep if set(ids) & found))
        if found:
            print(f"[{paper}] no run records under {runs}: rebuilding from the records committed in {target}",
                  flush=True)
    if not found:
        raise PipelineError(f"error: none of the {len(part)} jobs of the {profile} plan"
                            f"{' (--only ' + ', '.join(args.only) + ')' if args.only else ''} has a finished record "
                            f"under {runs}; nothing written (run without --report-only, or set SPARSELAB_RUNS)")
    print(f"[{paper}] {len(found)} of {len(part)} planned jobs have a finished record", flush=True)
    out = report_dir(paper, profile, args.out)
    options = {**plan.options, "only": list(args.only)} if args.only else dict(plan.options)
    with plan_only(planned, planned=len(part), finished=len(found)) as selection:
        recs = report.write_reports(profile, out, options, runs)
    if selection.others:
        print(f"[{paper}] {len(selection.others)} other finished runs in {runs} are not jobs of this plan and were "
              f"left out (listed in index.html): "
              + ", ".join(relative_run(d, runs) for d in sorted(selection.others))[:600], flush=True)
    print(f"[{paper}] {len(recs)} run records -> {out}", flush=True)
    return 0
