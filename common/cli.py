"""The ``minedraft`` command line. Subcommands register themselves: built-in ones are the
modules of ``minedraft.commands``; adapters add theirs under the ``minedraft.commands``
entry-point group. Each provides ``register(subparsers)`` that adds a parser whose
``func`` default runs it."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from importlib.metadata import entry_points

from . import commands
from .types import InvalidInputError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="minedraft",
        description="Batch-parallel speculative decoding (MineDraft/PSD): generate, benchmark, compare, train drafts.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        importlib.import_module(f"{commands.__name__}.{info.name}").register(sub)
    for ep in entry_points(group="minedraft.commands"):
        ep.load()(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except InvalidInputError as exc:
        print(f"minedraft {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C: requests in flight were cancelled; no traceback
        print(f"minedraft {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
