"""``minedraft compare a.json b.json ...``: bench results side by side (table and plot)."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("compare", help="compare bench results files side by side", description=__doc__)
    p.add_argument("results", nargs="+", help="results.json files written by `minedraft bench`, or their folders")
    p.add_argument("--plot", default="minedraft-compare.png", help="where to write the plot (.png, .svg or .pdf; .png when no suffix is given)")
    p.add_argument("--no-plot", action="store_true")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..bench.compare import compare_table, cost_model_lines, flex_bar_lines, load_runs
    from ..bench.plots import compare_plot
    from ..types import InvalidInputError
    from ..validation import require_out_dir

    runs = load_runs(args.results)
    path = Path(args.plot) if Path(args.plot).suffix else Path(args.plot).with_suffix(".png")  # as matplotlib saves it
    if not args.no_plot:
        if path.suffix.lower() not in (".png", ".svg", ".pdf"):
            raise InvalidInputError(f"--plot must end in .png, .svg or .pdf, got {args.plot!r}")
        require_out_dir("--plot", str(path.parent))  # before anything is printed as done
    print(compare_table(runs))
    bar = flex_bar_lines(runs) + cost_model_lines(runs)
    if bar:
        print("\n".join(bar))
    if not args.no_plot:
        path.parent.mkdir(parents=True, exist_ok=True)
        compare_plot(runs, path)
        print(f"plot: {path}")
    return 0
