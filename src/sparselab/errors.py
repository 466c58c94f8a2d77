"""The user's mistakes, as exceptions every layer may raise, and how the entry points tell them from bugs.

A leaf module (it imports nothing of ours, and OmegaConf only inside the two functions the entry points call),
so the data layer, the engine and the library raise these without importing each other.

A user error is a bad value on the command line or in a config (:class:`ConfigError`), a malformed data line
(:class:`DataFormatError`, ``file:line: …``) or a dataset that is not there (:class:`MissingDataError`, naming
the fetch command). ``python -m sparselab.run`` prints ``error: <message>`` for these and exits 2; any other
exception is a bug and keeps its traceback. ``HYDRA_FULL_ERROR=1`` shows the traceback of user errors too.
"""
from __future__ import annotations

from pathlib import Path


class ConfigError(ValueError):
    """A config value that cannot work; the message starts with the key (``mapping.alpha: …``)."""


class DataFormatError(ValueError):
    """A malformed line in a data file; the message starts with ``file:line``."""

    def __init__(self, path: str | Path, lineno: int, problem: str):
        self.path, self.lineno, self.problem = str(path), lineno, problem
        super().__init__(f"{path}:{lineno}: {problem}")


class MissingDataError(FileNotFoundError):
    """A dataset is not under the data root; the message names the fetch command."""

    def __init__(self, name: str, expected: str | Path, root: str | Path):
        self.name = name
        super().__init__(
            f"dataset '{name}' not found: expected {expected} under data root {root}. "
            f"Fetch it with `python -m sparselab.data fetch {name}` "
            f"(or point SPARSELAB_DATA / data.root at a copy)."
        )


class DataUnavailableError(MissingDataError):
    """A data set a run needs is not under the data root and could not be fetched (e.g. no network)."""

    def __init__(self, name: str, root: str | Path, profile: str, reason: str):
        self.name = name
        FileNotFoundError.__init__(
            self, f"data set '{name}' is not under {root} and could not be downloaded ({reason}); with network run "
                  f"`python -m sparselab.data fetch {name} --root {root}` (or `make data PROFILE={profile}`), or point "
                  f"SPARSELAB_DATA at a copy")


USER_ERRORS: tuple[type[BaseException], ...] = (ConfigError, DataFormatError, MissingDataError)


def user_error(err: BaseException) -> BaseException | None:
    """The user error behind ``err`` (itself or a cause), else None.

    An interpolation that cannot be resolved (``${by_profile:…}`` under an unknown profile, a
    ``${key}`` that does not exist) counts too: OmegaConf drops the cause, but names the key.
    """
    from omegaconf.errors import InterpolationResolutionError

    seen = 0
    while err is not None and seen < 5:
        if isinstance(err, (*USER_ERRORS, InterpolationResolutionError)):
            return err
        err, seen = err.__cause__, seen + 1
    return None


def describe(err: BaseException) -> str:
    """One line for the user: the message, and for an OmegaConf error the config key it concerns."""
    from omegaconf.errors import OmegaConfBaseException

    msg = str(err)
    if isinstance(err, OmegaConfBaseException):
        key = getattr(err, "full_key", None)
        msg = msg.split("\n", 1)[0]
        if key:
            msg = f"{key}: {msg}"
    return " ".join(msg.split())
