"""The one command line behind every ``pipelines/<paper>.py``: run the paper's plan, then report (docs/running.md)."""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Mapping, Sequence

from sparselab.engine import jobs as plan_jobs, record
from sparselab.errors import ConfigError

from .records import PROJECT, plan_only, relative_run, runs_root
from .templates import snippets

SAY = snippets(__package__, "runner")      # the messages and option help (``runner.md``)
PROFILES = ("smoke", "cpu", "paper")
CONF_DIR = PROJECT / "conf"


class PipelineError(Exception):
    """A failure the user has already been told about (one line); the pipeline exits with ``code``."""

    def __init__(self, message: str | None, code: int = 2):
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Plan:
    """What one profile runs: sweeps ``(experiment, overrides)`` in order, the launcher, the report's options."""

    sweeps: Sequence[tuple[str, Sequence[str]]]
    launcher: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    last: Sequence[str] = ()    # experiments whose jobs read other jobs' runs (ensembles): in lanes they run last
    # ``--benchmark``: a script and its arguments, run before the sweeps (idle machine), given ``--out <report>/<file>``
    benchmark: Sequence[str] = ()
    benchmark_file: str = ""


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


# Overrides that --set may add to every sweep: where and how a job runs, not what it computes (a job's identity
# leaves them out: sparselab.engine.identity.machinery_keys), so the report finds the jobs of the plan.
WHERE_KEYS = ("hydra.launcher.", "trainer=ddp", "trainer.devices=", "trainer.num_nodes=", "trainer.accelerator=",
              "trainer.strategy=", "engine.", "logger=", "logger.", "threads=")
SUBMITIT = ("slurm", "slurm_local", "submitit_slurm", "submitit_local")  # launchers that wait on submitted jobs


def launcher_options() -> list[str]:
    """``--launcher`` values: the in-process ``basic`` one, ours (conf/hydra/launcher) and the plugins' plain ones."""
    from sparselab.engine.overrides import group_options

    return ["basic", *group_options(CONF_DIR, "hydra/launcher"), "submitit_local", "submitit_slurm"]


def launcher_overrides(launcher: str | None, jobs: int | None, chosen: str | None = None) -> list[str]:
    """Hydra launcher overrides; ``--jobs 1`` is the basic launcher; ``chosen`` replaces the plan's."""
    launcher = chosen or launcher
    if not launcher or launcher == "basic" or (launcher == "parallel" and jobs is not None and jobs <= 1):
        return []
    n_jobs = [f"hydra.launcher.n_jobs={jobs}"] if jobs and launcher == "parallel" else []
    return [f"hydra/launcher={launcher}", *n_jobs]


def check_set(extra: Sequence[str]) -> None:
    bad = [o for o in extra if not o.startswith(WHERE_KEYS)]
    if bad:
        raise PipelineError(SAY["bad_set"].format(bad=", ".join(bad), keys=", ".join(WHERE_KEYS)))


def sweep_args(experiment: str, profile: str, overrides: Sequence[str] = (),
               runs: str | os.PathLike | None = None) -> list[str]:
    """The arguments of ``python -m sparselab.run`` for an experiment's sweep (a Hydra multirun)."""
    return ["-m", f"experiment={experiment}", f"profile={profile}",
            f"paths.runs={runs or runs_root()}", *overrides]


def _start(cmd: list[str]) -> subprocess.Popen:
    env = dict(os.environ)
    env.setdefault("OMP_NUM_THREADS", "1")
    return subprocess.Popen(cmd, cwd=PROJECT, env=env)


def start_sweep(experiment: str, profile: str, overrides: Sequence[str] = (),
                runs: str | os.PathLike | None = None) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "sparselab.run", *sweep_args(experiment, profile, overrides, runs)]
    print("[sparselab] $", " ".join(cmd), flush=True)
    return _start(cmd)


def start_sweeps(sweeps: Sequence[tuple[str, Sequence[str]]], profile: str,
                 runs: str | os.PathLike | None = None) -> subprocess.Popen:
    """The sweeps in order in one subprocess (``python -m sparselab.sweeps``): one start-up only."""
    return _start([sys.executable, "-m", "sparselab.sweeps",
                   json.dumps([sweep_args(e, profile, o, runs=runs) for e, o in sweeps])])


def wait_sweeps(procs: Sequence[subprocess.Popen]) -> None:
    """Wait for every sweep; then raise the first failing one's exit status (each prints its own error)."""
    try:
        codes = [proc.wait() for proc in procs]
    except KeyboardInterrupt:
        # the sweeps got the same Ctrl-C (one process group): let them record their jobs as interrupted (not killed)
        for proc in procs:
            proc.wait()
        raise PipelineError(None, 130) from None
    code = next((c for c in codes if c), 0)
    if code:
        raise PipelineError(None, code)


def check_only(plan: Plan, profile: str, only: Sequence[str]) -> None:
    """``--only`` names experiments of the plan (else one error line naming those that are)."""
    known = [experiment for experiment, _ in plan.sweeps]
    unknown = [o for o in only if o not in known]
    if unknown:
        raise PipelineError(SAY["bad_only"].format(only=", ".join(unknown), profile=profile,
                                                   valid=", ".join(dict.fromkeys(known))))


def run_plan(plan: Plan, profile: str, jobs: int | None = None, runs: str | os.PathLike | None = None,
             only: Sequence[str] = (), launcher: str | None = None, extra: Sequence[str] = ()) -> None:
    """Run the plan's sweeps (``only``: of these experiments); ``launcher`` replaces the plan's; ``extra``: --set."""
    check_only(plan, profile, only)
    check_set(extra)
    where = [*launcher_overrides(plan.launcher, jobs, launcher), *extra]
    todo = [(e, o) for e, o in plan.sweeps if not only or e in only]
    if launcher in SUBMITIT:
        for phase in phases(todo, plan.last):
            wait_sweeps([start_sweep(e, profile, [*o, *where], runs=runs) for e, o in phase])
        return
    lanes = lane_count(launcher or plan.launcher, jobs, extra)
    if lanes > 1:
        run_lanes(todo, lanes, profile, runs, extra, plan.last)
        return
    wait_sweeps([start_sweeps([(e, [*o, *where]) for e, o in todo], profile, runs)])


def phases(todo: Sequence[tuple[str, Sequence[str]]], last: Sequence[str]) -> tuple[list, list]:
    """The sweeps in two phases: those of ``last`` (ensembles) once every other has ended."""
    return [s for s in todo if s[0] not in last], [s for s in todo if s[0] in last]


def lane_count(launcher: str | None, jobs: int | None, extra: Sequence[str] = ()) -> int:
    """Lanes: the parallel launcher's job count; 1 for any other launcher or when --set tunes it."""
    if launcher != "parallel" or any(o.startswith("hydra.launcher.") for o in extra):
        return 1
    if jobs is None:
        from omegaconf import OmegaConf

        jobs = int(OmegaConf.load(CONF_DIR / "hydra" / "launcher" / "parallel.yaml").n_jobs)
    return max(int(jobs), 1)


def run_lanes(todo: Sequence[tuple[str, Sequence[str]]], lanes: int, profile: str, runs=None,
              extra: Sequence[str] = (), last: Sequence[str] = ()) -> None:
    """Run the sweeps in ``lanes`` lanes, each job once (its lock), so no slot idles at a sweep's end."""
    first, then = phases(todo, last)
    order, n_first = [*first, *then], len(first)
    barrier = threading.Barrier(lanes)
    codes: list[int] = []

    def lane(k: int) -> None:
        try:
            for i, (experiment, overrides) in enumerate(order):
                if i == n_first:
                    barrier.wait()
                if codes:
                    return
                sys.stdout.write(f"[sparselab] lane {k + 1}/{lanes}: {experiment}\n")  # one write: lanes interleave
                sys.stdout.flush()
                code = start_sweep(experiment, profile, [*overrides, *extra], runs=runs).wait()
                if code:
                    codes.append(code)
                    barrier.abort()
                    return
        except threading.BrokenBarrierError:
            return

    threads = [threading.Thread(target=lane, args=(k,), daemon=True) for k in range(lanes)]
    for t in threads:
        t.start()
    try:
        for t in threads:
            while t.is_alive():
                t.join(0.5)   # a timed join lets Ctrl-C reach this thread
    except KeyboardInterrupt:
        # the sweeps got the same Ctrl-C (one process group): let them record their jobs as interrupted
        barrier.abort()
        for t in threads:
            t.join()
        raise PipelineError(None, 130) from None
    if codes:
        raise PipelineError(None, codes[0])


def run_benchmark(paper: str, plan: Plan, profile: str, target: Path, launcher: str | None) -> None:
    """The plan's benchmark, its file into ``target`` (the folder being built)."""
    if not plan.benchmark:
        print(f"[{paper}] --benchmark: the {profile} plan has no benchmark; nothing to run", flush=True)
        return
    if launcher and launcher not in ("basic", "parallel"):
        print(SAY["benchmark_skipped"].format(paper=paper, launcher=launcher, cmd=" ".join(plan.benchmark)), flush=True)
        return
    out = Path(target) / plan.benchmark_file
    cmd = [sys.executable, *plan.benchmark, "--out", str(out)]
    print(f"[{paper}] benchmark (before the sweeps, on an idle machine) -> {out}\n[sparselab] $ {' '.join(cmd)}",
          flush=True)
    env = dict(os.environ)
    env.setdefault("OMP_NUM_THREADS", "2")      # as `make bench-transformer-speed`
    code = subprocess.run(cmd, cwd=PROJECT, env=env, stdout=subprocess.DEVNULL).returncode  # its progress: stderr
    if code:
        raise PipelineError(SAY["benchmark_failed"].format(cmd=" ".join(plan.benchmark), code=code),
                            130 if code == 130 else 1)


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


def is_committed(folder: Path) -> bool:
    """Whether ``folder`` holds files git tracks (without git: any file counts)."""
    folder = Path(folder)
    if not folder.is_dir():
        return False
    try:
        out = subprocess.run(["git", "-C", str(PROJECT), "ls-files", "--", str(folder.resolve())],
                             capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        out = None
    if out is not None and out.returncode == 0:
        return bool(out.stdout.strip())
    return any(p.is_file() for p in folder.iterdir())


def choose_target(paper: str, profile: str, out: str | os.PathLike | None, replace_committed: bool,
                  runs: Path) -> Path:
    """``--out``; else ``reports/<paper>/<profile>/``, unless committed: then under the runs folder."""
    if out:
        return Path(out)
    default = report_path(paper, profile)
    if replace_committed or not is_committed(default):
        return default
    target = Path(runs) / "reports" / paper / profile
    print(SAY["committed_target"].format(paper=paper, default=default.relative_to(PROJECT), target=target), flush=True)
    return target


def parser(paper: str, description: str | None) -> argparse.ArgumentParser:
    """The pipelines' command line; each option's help is its snippet of ``runner.md``."""
    ap = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    add = lambda flag, **kw: ap.add_argument(  # noqa: E731
        flag, help=SAY[flag[2:].replace("-", "_")].format(paper=paper), **kw)
    add("--profile", default=None, choices=list(PROFILES))
    add("--out", default=None)
    add("--replace-committed", action="store_true")
    add("--report-only", action="store_true")
    add("--jobs", type=int, default=None)
    add("--launcher", default=None, choices=launcher_options())
    add("--set", action="append", default=[], metavar="KEY=VALUE", dest="extra")
    add("--benchmark", action="store_true")
    add("--only", action="append", default=[], metavar="EXPERIMENT")
    return ap


def main(report: ModuleType, plans: Mapping[str, Plan], argv: Sequence[str] | None = None,
         description: str | None = None) -> int:
    """Parse the command line, run the plan (unless ``--report-only``), report; user errors return 2."""
    try:
        return _main(report, plans, argv, description)
    except PipelineError as err:
        if err.args[0]:  # None: the sweep has said it already
            print(err, file=sys.stderr)
        return err.code
    except ConfigError as err:   # e.g. the papers' numbers cannot be read (reports.reference.ReferenceMissing)
        print(f"error: {' '.join(str(err).split())}", file=sys.stderr)
        return 2
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
    if args.jobs is not None and args.jobs < 1:
        raise PipelineError(f"error: --jobs {args.jobs}: must be a positive number of jobs side by side (1: sequential)")
    target = choose_target(paper, profile, args.out, args.replace_committed, runs)
    print(f"[{paper}] artefacts: " + "; ".join(f"{name} -> {rel}" for name, rel, _ in report.ARTIFACTS), flush=True)
    check_only(plan, profile, args.only)
    check_set(args.extra)
    if not args.report_only:
        from sparselab.preflight import prepare

        status = prepare(CONF_DIR, *[[f"experiment={e}", f"profile={profile}", *o] for e, o in plan.sweeps
                                     if not args.only or e in args.only])   # every sweep's data, before the first
        if status is not None:
            raise PipelineError(None, status)
        try:
            Path(runs).mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise PipelineError(f"error: cannot create the runs folder {runs} (SPARSELAB_RUNS): "
                                f"{err.strerror or err}") from None
        if args.benchmark:
            run_benchmark(paper, plan, profile, target, args.launcher)
        run_plan(plan, profile, args.jobs, runs, args.only, launcher=args.launcher, extra=args.extra)
    by_sweep = sweep_identities(plan, profile)
    planned = set().union(*(ids for _, ids in by_sweep))
    part = set().union(*(ids for experiment, ids in by_sweep if experiment in args.only)) if args.only else planned
    found = finished_jobs(runs, profile, part)
    bad = record.find_unreadable(runs, profile)
    if bad:
        print(f"[{paper}] {len(bad)} run records under {runs} cannot be read and are left out (running the plan "
              "again re-runs their jobs): " + "; ".join(f"{p} ({why})" for p, why in bad)[:800], flush=True)
    committed = getattr(report, "committed", None)  # a report that can rebuild from its committed records
    # only where asked: a copy given as --out (the committed-report tests), or --replace-committed
    explicit = bool(args.out) or args.replace_committed
    if not found and args.report_only and explicit and committed is not None and target.is_dir():
        stored = committed(target, runs)
        found = jobs_among(stored, part)
        if found and not args.only and getattr(report, "COMMITS_PART", False):
            # the committed records cover part of the plan (Martins: Table 2): report that part's jobs only
            part = set().union(*(ids for _, ids in by_sweep if set(ids) & found))
        if found:
            print(f"[{paper}] no run records under {runs}: rebuilding from the records committed in {target}",
                  flush=True)
        elif stored:     # records of an earlier plan: say so rather than rebuild a report of other jobs
            raise PipelineError(SAY["stale_committed"].format(n=len(stored), target=target, jobs=len(part),
                                                              profile=profile))
    if not found:
        raise PipelineError(SAY["no_records"].format(jobs=len(part), profile=profile, runs=runs,
                                                     only=f" (--only {', '.join(args.only)})" if args.only else ""))
    print(f"[{paper}] {len(found)} of {len(part)} planned jobs have a finished record", flush=True)
    from .reference import reference

    reference(paper)    # the papers' numbers, read before anything is written (one line when they cannot be)
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise PipelineError(f"error: cannot create the report folder {target}: {err.strerror or err}") from None
    out = target
    options = {**plan.options, "only": list(args.only)} if args.only else dict(plan.options)
    with plan_only(planned, planned=len(part), finished=len(found)) as selection:
        recs = report.write_reports(profile, out, options, runs)
    if selection.others:
        print(f"[{paper}] {len(selection.others)} other finished runs in {runs} are not jobs of this plan and were "
              f"left out (listed in index.html): "
              + ", ".join(relative_run(d, runs) for d in sorted(selection.others))[:600], flush=True)
    print(f"[{paper}] {len(recs)} run records -> {out}", flush=True)
    return 0
