"""Checks of user input, shared so that every bad value reads the same way.

Each helper raises ``InvalidInputError`` (defined here, the one module with no imports of
its own, and exported by ``minedraft.types``) with ``"{field} must be ..., got {value!r}"`` and
otherwise returns nothing: validation happens before anything is built or run. Booleans
are never numbers here (``True`` is not a draft length).
"""

from __future__ import annotations

import os
from collections.abc import Collection


class InvalidInputError(ValueError):
    """Bad user input; the message names the field and the value (``minedraft.types`` exports it)."""


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def require_int(field: str, value: object, minimum: int | None = None, *, optional: bool = False) -> None:
    """An int (>= ``minimum`` when given); None too when ``optional``."""
    if optional and value is None:
        return
    if _is_int(value) and (minimum is None or value >= minimum):  # type: ignore[operator]
        return
    bound = "" if minimum is None else f" >= {minimum}"
    raise InvalidInputError(f"{field} must be an int{bound}{' or None' if optional else ''}, got {value!r}")


def require_ints(field: str, values: object, minimum: int) -> None:
    """A non-empty list (or tuple) of ints >= ``minimum``."""
    if isinstance(values, (list, tuple)) and values and all(_is_int(v) and v >= minimum for v in values):
        return
    shown = list(values) if isinstance(values, (list, tuple)) else values
    raise InvalidInputError(f"{field} must be a non-empty list of ints >= {minimum}, got {shown!r}")


def require_number(field: str, value: object, low: float | None = None, high: float | None = None, *,
                   low_open: bool = False, high_open: bool = False, optional: bool = False) -> None:
    """A number within the interval given by ``low``/``high`` (closed unless ``*_open``);
    the message names the interval, e.g. ``in (0, 1]`` or ``>= 0``."""
    if optional and value is None:
        return
    ok = _is_number(value)
    if ok and low is not None:
        ok = value > low if low_open else value >= low  # type: ignore[operator]
    if ok and high is not None:
        ok = value < high if high_open else value <= high  # type: ignore[operator]
    if ok:
        return
    if low is not None and high is not None:
        bound = f" in {'(' if low_open else '['}{_fmt(low)}, {_fmt(high)}{')' if high_open else ']'}"
    elif low is not None:
        bound = f" {'>' if low_open else '>='} {_fmt(low)}"
    elif high is not None:
        bound = f" {'<' if high_open else '<='} {_fmt(high)}"
    else:
        bound = ""
    raise InvalidInputError(f"{field} must be a number{bound}{' or None' if optional else ''}, got {value!r}")


def require_prob(field: str, value: object, *, optional: bool = False) -> None:
    """A probability: a number in [0, 1]."""
    require_number(field, value, 0.0, 1.0, optional=optional)


def require_choice(field: str, value: object, choices: Collection[object]) -> None:
    """One of ``choices`` (the message lists them as given)."""
    if value not in choices:
        raise InvalidInputError(f"{field} must be one of {tuple(choices)}, got {value!r}")


def require_bool(field: str, value: object) -> None:
    if not isinstance(value, bool):
        raise InvalidInputError(f"{field} must be a bool, got {value!r}")


def require_out_dir(field: str, value: object) -> None:
    """A folder that can be written: one that exists, or one the nearest existing folder
    above it lets us create. Checked before a run, whose results would otherwise be lost
    at the end, when they are written."""
    if not isinstance(value, (str, os.PathLike)) or not os.fspath(value):
        raise InvalidInputError(f"{field} must be a folder path, got {value!r}")
    path = os.path.abspath(os.fspath(value))
    if os.path.exists(path) and not os.path.isdir(path):
        raise InvalidInputError(f"{field} must be a folder, got {value!r}, which is a file")
    parent = path
    while not os.path.exists(parent):
        parent = os.path.dirname(parent)
    if not os.path.isdir(parent):
        raise InvalidInputError(f"{field} {value!r} cannot be made: {parent!r} is a file")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise InvalidInputError(f"{field} {value!r} cannot be written: no write permission in {parent!r}")


def _fmt(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)
