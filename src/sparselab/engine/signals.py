"""A SIGTERM (``kill``, a scheduler's preemption) is an interruption in every task, as Ctrl-C is: the running job is
recorded ``interrupted`` and the entry point exits 130 with one line.

Python's default for SIGTERM is to die at once (exit 143): nothing records the job. Lightning handles SIGTERM only
inside its own ``fit``, so the L-BFGS tasks (Martins), data loading and evaluation died unrecorded. Here the handler
raises :class:`Terminated` (a ``KeyboardInterrupt``, so the engine's Ctrl-C path records it): Python runs a handler
in the main thread between two bytecodes, and scipy's L-BFGS-B evaluates its objective in Python (reverse
communication: ``setulb`` returns to a Python loop for every ``f, g``), so the exception surfaces within one
objective evaluation. Inside Lightning's ``fit`` (:func:`deferred`) the handler only notes the signal: Lightning's
handler, which runs before ours, stops at the next batch with its ``SIGTERMException`` (DDP children killed, no
checkpoint torn mid-write), and the engine records that. A raise from inside fit instead is a ``KeyboardInterrupt``
to Lightning: it would set SIGINT to ignored for the rest of the process and could cut ``last.ckpt`` between
``open`` and ``write``. A second SIGTERM while the first is being recorded is ignored (the record is written whole).
"""
from __future__ import annotations

import contextlib
import signal
import threading

_STATE = {"deferred": 0, "received": False}


class Terminated(KeyboardInterrupt):
    """The process got SIGTERM; raised in the main thread wherever it was."""


def _handler(signum, frame) -> None:
    first = not _STATE["received"]
    _STATE["received"] = True
    if first and not _STATE["deferred"]:
        raise Terminated(f"SIGTERM (signal {signum})")


def received() -> bool:
    return bool(_STATE["received"])


def install() -> bool:
    """Make SIGTERM raise :class:`Terminated` in this process (main thread only: ``signal.signal`` refuses other
    threads); whether it is installed now."""
    if threading.current_thread() is not threading.main_thread():
        return False
    if signal.getsignal(signal.SIGTERM) is not _handler:
        signal.signal(signal.SIGTERM, _handler)
    return True


@contextlib.contextmanager
def terminable():
    """One job: SIGTERM raises :class:`Terminated` inside; the handler found before is put back after (a job run
    in a test or a library call does not change its host's SIGTERM for good)."""
    main = threading.current_thread() is threading.main_thread()
    before = signal.getsignal(signal.SIGTERM) if main else None
    install()
    try:
        yield
    finally:
        if main and before is not _handler:
            signal.signal(signal.SIGTERM, before if before is not None else signal.SIG_DFL)
            _STATE["received"] = False


@contextlib.contextmanager
def deferred(raise_after: bool = True):
    """Inside, a SIGTERM is only noted (Lightning's fit stops by itself; a record is written whole); on leaving,
    with ``raise_after``, a SIGTERM noted inside and not acted on is raised then."""
    _STATE["deferred"] += 1
    try:
        yield
    finally:
        _STATE["deferred"] -= 1
    if raise_after and _STATE["received"] and not _STATE["deferred"]:
        raise Terminated("SIGTERM (received while deferred)")
