"""A/B at one load: AR, flex held to AR steps (``schedule=(("ar", 0),)``) and flex as it
decides, over the same requests, alternating; prints per trial tokens/s, the wall time
outside the recorded steps (flex: its decisions) and the median step. A diagnostic for
docs/flex.md (is a gap between flex's AR steps and AR overhead or noise?), not a benchmark.

    HF_HUB_OFFLINE=1 python scripts/flex_ar_ab.py --in-flight 16 --reps 6
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

from minedraft.api import LLM
from minedraft.bench import probe
from minedraft.bench.config import BenchConfig
from minedraft.bench.harness import Bench

VARIANTS = {"ar": dict(mode="ar"), "flex-ar": dict(mode="flex", schedule=(("ar", 0),)), "flex": dict(mode="flex")}


def trial(bench: Bench, name: str, in_flight: int) -> tuple[float, float, float, Counter]:
    options = dict(VARIANTS[name])
    mode = options.pop("mode")
    llm = LLM("target", None, mode=mode, engines=bench.engines, num_speculative_tokens=2, max_batch_size=in_flight,
              **options)
    n = 2 * in_flight
    with probe.intra_op_threads(2 if llm.lane_kind == "inline" else 1):  # equal cores, as the bench
        t0 = time.perf_counter()
        outs = llm.generate(bench.prompts[:n], bench.params[:n])
        wall = time.perf_counter() - t0
    steps = llm.last_trace.steps
    return (sum(len(o.token_ids) for o in outs) / wall, wall - sum(s.duration for s in steps),
            statistics.median(s.duration for s in steps), Counter(s.mode for s in steps))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--in-flight", type=int, default=16)
    parser.add_argument("--reps", type=int, default=6)
    args = parser.parse_args()
    bench = Bench(BenchConfig(modes=("ar", "flex"), in_flight=(args.in_flight,), ks=(2,), peers=False,
                              calibrate=False, progress=False, cooperative=False, max_new_tokens=32))
    for name in VARIANTS:  # untimed: first calls allocate, flex learns
        trial(bench, name, args.in_flight)
    rates: dict[str, list[float]] = {name: [] for name in VARIANTS}
    for rep in range(args.reps):
        for name in list(VARIANTS) if rep % 2 == 0 else list(VARIANTS)[::-1]:
            tps, outside, step, mix = trial(bench, name, args.in_flight)
            rates[name].append(tps)
            print(f"{name:8s} rep {rep}: {tps:6.1f} tok/s, outside the steps {1000 * outside:4.0f} ms, "
                  f"median step {1000 * step:5.1f} ms {dict(mix) if name == 'flex' else ''}", flush=True)
    for name, values in rates.items():
        print(f"{name:8s} median {statistics.median(values):6.1f} tok/s (min {min(values):.1f}, max {max(values):.1f})")


if __name__ == "__main__":
    main()
