"""Data on first use: the data sets a run reads that are not under their data root are fetched before it starts
(:func:`sparselab.data.fetch.fetch`: progress bar, sha256, resumable); without network the run stops in one
``error:`` line naming the data set and the fetch command. Which data sets a run's jobs read, and when to ask, is
the entry point's (:mod:`sparselab.preflight`); this module only fetches what it is given.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Mapping

from sparselab.errors import DataUnavailableError


def _present(name: str, root: Path) -> str:
    from sparselab.data.check import check_dataset

    return check_dataset(name, root, quick=True).status


def fetch_missing(wanted: Mapping[tuple[Path, str], str], progress=None) -> list[str]:
    """Fetch each ``(data root, data set)`` of ``wanted`` (the value: the profile that reads it, for the error
    message) that is not on disk; the data sets fetched. Offline (or any failed download) with a data set missing:
    :class:`DataUnavailableError`."""
    from sparselab.data.fetch import FetchError, fetch

    fetched = []
    for (root, name), profile in sorted(wanted.items()):
        status = _present(name, root)
        if status == "present":
            continue
        say = progress or (lambda msg: print(msg, flush=True))   # stdout: stderr keeps the one error line
        say(f"[sparselab] data set {name} is {status} under {root}: fetching it before the run")
        try:
            fetch(name, root=root, progress=say)
        except FetchError as err:
            if status == "partial":   # a hand-made partial copy may hold what this run reads: the loader will say
                print(f"[sparselab] warning: {name} stays partial under {root} ({err})", file=sys.stderr, flush=True)
                continue
            raise DataUnavailableError(name, root, profile, str(err).split(". ")[0]) from None
        fetched.append(name)
    return fetched
