"""CLI flags for every mode's options, generated from the options dataclasses.

One flag per option field of a registered mode (``--tree-branches``, ``--extra-proposals``,
``--smc-num-particles``, ``--flex-margin``, ...): the name is the field's, prefixed by the
options class's ``cli_prefix`` for fields it declares itself. Every flag defaults to None,
so only the options a user gave reach the mode, and the mode refuses one it does not take.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import MISSING, Field, fields
from typing import Any

from .schedulers import SCHEDULERS
from .schedulers.options import ModeOptions

DEST_PREFIX = "mode_option_"


def _ints(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"expected comma-separated integers, got {text!r}") from exc


def _schedule(text: str) -> tuple[tuple[str, int], ...]:
    """``psd:3,ar:0`` -> (("psd", 3), ("ar", 0))."""
    try:
        return tuple((mode.strip(), int(k)) for mode, k in (item.split(":") for item in text.split(",") if item.strip()))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"expected comma-separated MODE:K pairs, got {text!r}") from exc


# Field annotation (as written) -> argparse type; bool fields become --flag/--no-flag.
PARSERS: dict[str, Callable[[str], Any]] = {
    "int": int, "int | None": int, "float": float, "float | None": float, "str": str,
    "tuple[int, ...]": _ints, "tuple[int, ...] | None": _ints, "tuple[tuple[str, int], ...]": _schedule,
}


def _owner(cls: type[ModeOptions], name: str) -> type:
    """The class in ``cls``'s bases that declares field ``name``."""
    for base in reversed(cls.__mro__):
        if name in getattr(base, "__annotations__", {}):
            return base
    return cls


def flag_name(cls: type[ModeOptions], name: str) -> str:
    owner = _owner(cls, name)
    prefix = owner.cli_prefix if issubclass(owner, ModeOptions) else cls.cli_prefix
    return "--" + (f"{prefix}-" if prefix else "") + name.replace("_", "-")


def option_fields() -> dict[str, tuple[str, Field, list[str]]]:
    """field name -> (flag, field, modes that take it), over every registered mode."""
    out: dict[str, tuple[str, Field, list[str]]] = {}
    for mode, scheduler in sorted(SCHEDULERS.items()):
        cls = scheduler.options_class
        for f in fields(cls):
            flag, _, modes = out.setdefault(f.name, (flag_name(cls, f.name), f, []))
            modes.append(mode)
    return out


def add_mode_option_args(p: argparse.ArgumentParser) -> None:
    group = p.add_argument_group("mode options (each applies to the modes named in its help)")
    for name, (flag, f, modes) in option_fields().items():
        default = f.default if f.default is not MISSING else None
        kind = str(f.type)
        help_text = f"{', '.join(modes)}: {name} (default {default!r})"
        if kind == "bool":
            group.add_argument(flag, dest=DEST_PREFIX + name, action=argparse.BooleanOptionalAction, default=None,
                               help=help_text)
        elif kind in PARSERS:
            group.add_argument(flag, dest=DEST_PREFIX + name, type=PARSERS[kind], default=None, metavar=name.upper(),
                               help=help_text)
        else:
            raise TypeError(f"no CLI parser for option {name} of type {kind!r}: add one to PARSERS")


def mode_options(args: argparse.Namespace) -> dict[str, Any]:
    """The mode options given on the command line (field name -> value)."""
    return {
        key[len(DEST_PREFIX):]: value for key, value in vars(args).items()
        if key.startswith(DEST_PREFIX) and value is not None
    }
