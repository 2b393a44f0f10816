"""Time the embedded target's verification of ragged drafts: is its cost set by the longest
draft (the padded width) or by the mean? Warm batches, fastest of 7 ``score`` calls per
case, at 2 intra-op threads. A diagnostic for docs/flex.md, not a benchmark.

    HF_HUB_OFFLINE=1 python scripts/verify_width_probe.py
"""

from __future__ import annotations

import time

import torch

from minedraft.bench.config import BenchConfig
from minedraft.bench.harness import Bench
from minedraft.bench.probe import WarmBatch


def fastest_ms(target, requests, block, reps: int = 7) -> float:
    target.score(requests, block)  # the first call at a new shape may allocate
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        target.score(requests, block)
        times.append(time.perf_counter() - t0)
    return 1000 * min(times)


def main() -> None:
    torch.set_num_threads(2)
    bench = Bench(BenchConfig(modes=("sd",), batch_sizes=(16,), ks=(2,), peers=False, calibrate=False,
                              progress=False, cooperative=False))
    target = bench.engines.target
    with torch.inference_mode():
        for b in (2, 4, 8, 16):
            warm = WarmBatch(bench.engines, bench.prompts, b)
            drafts = warm.draft(2)
            cases = {"all 2": [2] * b, "all 1": [1] * b, "one 2, rest 0": [2] + [0] * (b - 1), "all 0": [0] * b}
            cells = []
            for name, lengths in cases.items():
                block = drafts.truncate(lengths)
                ms = fastest_ms(target, warm.requests, block)
                cells.append(f"{name} (width {block.width}, mean {sum(lengths) / b:.2f}): {ms:.0f} ms")
            print(f"b={b:2d}  " + "; ".join(cells), flush=True)
            warm.close()


if __name__ == "__main__":
    main()
