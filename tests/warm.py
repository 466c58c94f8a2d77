"""``run``: ``subprocess.run`` of a Python command line, started as a fork of this pytest worker instead of a new
interpreter, for the tests that check what a command prints, returns and writes, and not how a process starts.

Why: a new ``python -m sparselab.run`` imports torch, Lightning (which imports ``torch._dynamo``), torchmetrics
(which imports ``scipy.signal``) and Hydra before it reads its arguments: 8.4 CPU-s on a 2-core CI-class machine,
against about 11 CPU-s for the whole of a one-job smoke run forked from a process that has them imported (21 CPU-s
as a new process; same record, same numbers). The worker imports them once (:func:`_warm`) and every command
forks from it. The child is made to look like a new process where a command can tell: its own stdin, stdout and
stderr (files, read back as ``subprocess.run`` returns them), environment, working directory, ``sys.argv``, an
empty ``atexit`` list, default warning filters (pytest records warnings; a new interpreter prints them), Hydra's
global state cleared and the mappings' compile switches read again from its environment.

Tests about processes (signals, a SIGKILL and resume, DDP's ranks, a terminal, an install) keep real ones;
``SPARSELAB_TEST_FORK=0`` runs these commands as real processes too.
"""
from __future__ import annotations

import atexit
import importlib
import io
import logging
import os
import runpy
import subprocess
import sys
import tempfile
import time
import traceback
import warnings
from pathlib import Path
from typing import Any, Sequence

FORK = os.environ.get("SPARSELAB_TEST_FORK", "1") != "0" and hasattr(os, "fork")
# what a new interpreter starts with (Python's default filters); a command's own code adds to them as it runs
_DEFAULT_FILTERS = [("default", None, DeprecationWarning, "__main__", 0), ("ignore", None, DeprecationWarning, None, 0),
                    ("ignore", None, PendingDeprecationWarning, None, 0), ("ignore", None, ImportWarning, None, 0),
                    ("ignore", None, ResourceWarning, None, 0)]


def _warm() -> None:
    """Import what every sparselab command imports before it reads its arguments (once per worker: after the first
    call these are lookups in sys.modules)."""
    import hydra  # noqa: F401
    import lightning  # noqa: F401
    import omegaconf  # noqa: F401
    import torch  # noqa: F401


def _target(cmd: Sequence[str]) -> tuple[str, str, list[str]] | None:
    """("module" | "path", name, argv) when ``cmd`` is ``[sys.executable, "-m", module, ...]`` or
    ``[sys.executable, script.py, ...]``; None for anything else (it runs as a real process)."""
    cmd = [str(c) for c in cmd]
    if len(cmd) < 2 or cmd[0] != sys.executable:
        return None
    if cmd[1] == "-m" and len(cmd) > 2:
        return "module", cmd[2], cmd[3:]
    if cmd[1].endswith(".py") and not cmd[1].startswith("-"):
        return "path", cmd[1], cmd[2:]
    return None


def _child(kind: str, name: str, argv: list[str], cwd: Any, env: dict | None, fds: tuple[int, int, int]) -> int:
    """Run the command in this (forked) process as a new interpreter would; its exit status."""
    for fd, target in zip((0, 1, 2), fds):
        os.dup2(target, fd)
    sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False))
    sys.stdout = sys.__stdout__ = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), line_buffering=True)
    sys.stderr = sys.__stderr__ = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), line_buffering=True)
    if cwd is not None:
        os.chdir(cwd)
    if env is not None:
        os.environ.clear()
        os.environ.update(env)
    atexit._clear()
    warnings.filters[:] = _DEFAULT_FILTERS
    warnings.showwarning = warnings._showwarning_orig
    warnings._filters_mutated()
    # pytest's capture handlers leave the root logger; every other stream handler (Lightning's) writes to the new stderr
    root = logging.getLogger()
    root.handlers = [h for h in root.handlers if not type(h).__module__.startswith("_pytest")]
    for logger in [root, *(v for v in logging.Logger.manager.loggerDict.values() if isinstance(v, logging.Logger))]:
        for h in logger.handlers:
            if type(h) is logging.StreamHandler:
                h.setStream(sys.stderr)
    if "hydra.core.global_hydra" in sys.modules:
        sys.modules["hydra.core.global_hydra"].GlobalHydra.instance().clear()
    if "sparselab.mappings._compile" in sys.modules:        # SPARSELAB_COMPILE* are read when it is imported
        importlib.reload(sys.modules["sparselab.mappings._compile"])
    import torch
    torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS") or os.cpu_count() or 1))
    code: Any = 0
    try:
        if kind == "module":
            sys.modules.pop(name, None)         # a module the worker imported runs again as __main__, as `-m` does
            sys.argv = [name, *argv]
            runpy.run_module(name, run_name="__main__", alter_sys=True)
        else:
            path = str(Path(cwd or ".", name)) if not os.path.isabs(name) else name
            sys.argv = [name, *argv]
            sys.path.insert(0, str(Path(path).resolve().parent))
            runpy.run_path(path, run_name="__main__")
    except SystemExit as stop:
        code = stop.code
    except BaseException:               # an uncaught exception: its traceback and status 1, as the interpreter does
        traceback.print_exc()
        code = 1
    if isinstance(code, str) or (code is not None and not isinstance(code, int)):
        print(code, file=sys.stderr)
        code = 1
    atexit._run_exitfuncs()
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    return int(code or 0)


def _stream(spec: Any, name: str, opened: list) -> tuple[Any, bool]:
    """(a file the child writes ``name`` to, whether to read it back); the files made here go into ``opened``."""
    if spec == subprocess.PIPE:
        f, read = tempfile.TemporaryFile(prefix=f"warm-{name}-"), True
    elif spec == subprocess.DEVNULL or (spec is None and name == "stdin"):
        f, read = open(os.devnull, "r+b"), False
    elif spec is None:                  # inherited: the worker's own stream (pytest's capture)
        f, read = os.fdopen(os.dup(1 if name == "stdout" else 2), "wb"), False
    else:
        return spec, False              # an open file of the caller's
    opened.append(f)
    return f, read


def run(cmd: Sequence[Any], *, cwd: Any = None, env: dict | None = None, capture_output: bool = False,
        stdout: Any = None, stderr: Any = None, text: bool = False, timeout: float | None = None,
        check: bool = False) -> subprocess.CompletedProcess:
    """``subprocess.run(cmd, ...)`` with these keywords; a Python command line runs as a fork of this process."""
    target = _target(cmd) if FORK else None
    if target is None:
        return subprocess.run(list(cmd), cwd=cwd, env=env, capture_output=capture_output, stdout=stdout,
                              stderr=stderr, text=text, timeout=timeout, check=check)
    if capture_output:
        stdout = stderr = subprocess.PIPE
    _warm()
    opened: list = []
    out, read_out = _stream(stdout, "stdout", opened)
    err, read_err = (out, False) if stderr == subprocess.STDOUT else _stream(stderr, "stderr", opened)
    inp, _ = _stream(None, "stdin", opened)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:                        # the child never returns into pytest
        code = 1
        try:
            code = _child(*target, cwd, None if env is None else dict(env),
                          (inp.fileno(), out.fileno(), err.fileno()))
        finally:
            os._exit(code)
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if deadline is not None and time.monotonic() > deadline:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            raise subprocess.TimeoutExpired(list(cmd), timeout)
        time.sleep(0.02)
    code = os.waitstatus_to_exitcode(status)

    def back(f: Any, read: bool) -> Any:
        if not read:
            return None
        f.seek(0)
        data = f.read()
        return data.decode("utf-8", "replace") if text else data
    proc = subprocess.CompletedProcess(list(cmd), code, back(out, read_out), back(err, read_err))
    for f in opened:
        f.close()
    if check:
        proc.check_returncode()
    return proc
