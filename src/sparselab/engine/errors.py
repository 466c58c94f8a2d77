"""Which failures are the user's to fix, and so print as one line instead of a traceback.

A user error is a bad value on the command line or in a config (:class:`ConfigError`, defined in the
leaf module :mod:`sparselab.errors` so that the data layer raises it without importing the engine), a
malformed data line (:class:`~sparselab.data.errors.DataFormatError`, ``file:line: …``) or a
dataset that is not there (:class:`~sparselab.data.errors.MissingDataError`, naming the fetch
command). ``python -m sparselab.run`` prints ``error: <message>`` for these and exits 2; any
other exception is a bug and keeps its traceback. ``HYDRA_FULL_ERROR=1`` shows the traceback
of user errors too.
"""
from __future__ import annotations

from sparselab.data.errors import DataFormatError, MissingDataError
from sparselab.errors import ConfigError


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
