"""``minedraft bench`` and ``minedraft compare``: the benchmark harness, its results schema,
plots and the side-by-side comparison of several runs (docs/benchmarks.md)."""

from .config import PRESETS, BenchConfig
from .harness import Bench, build_engines, run_bench
from .schema import SCHEMA_VERSION, load, save, validate

__all__ = ["PRESETS", "SCHEMA_VERSION", "Bench", "BenchConfig", "build_engines", "load", "run_bench", "save",
           "validate"]
