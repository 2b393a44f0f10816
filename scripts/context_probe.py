"""Time the embedded target's AR step and verification of 2 drafts, and the drafter's 2
forwards, at growing context: does step cost grow with the longest committed sequence?
Warm batches, fastest of 7 calls per case, at 2 intra-op threads. The measurement behind
the attention term of docs/theory.md §3; a diagnostic, not a benchmark.

    HF_HUB_OFFLINE=1 python scripts/context_probe.py
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial

import torch

from minedraft.bench.config import BenchConfig
from minedraft.bench.harness import Bench
from minedraft.bench.probe import WarmBatch
from minedraft.types import DraftBlock


def fastest_ms(fn: Callable[[], object], reps: int = 7) -> float:
    fn()  # the first call at a new shape may allocate
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return 1000 * min(times)


def main() -> None:
    torch.set_num_threads(2)
    bench = Bench(BenchConfig(modes=("sd",), batch_sizes=(16,), ks=(2,), peers=False, calibrate=False,
                              progress=False, cooperative=False))
    target = bench.engines.target
    with torch.inference_mode():
        for length in (64, 128, 256, 512):
            prompts = [(list(p) * (length // len(p) + 1))[:length] for p in bench.prompts]
            for b in (1, 4, 16):
                warm = WarmBatch(bench.engines, prompts, b)
                empty = DraftBlock.empty([r.request_id for r in warm.requests])
                ar = fastest_ms(partial(target.score, warm.requests, empty))
                verify = fastest_ms(partial(target.score, warm.requests, warm.draft(2)))
                draft = fastest_ms(partial(warm.draft, 2))
                print(f"L={length:4d} b={b:2d}: AR step {ar:6.1f} ms, verify 2 drafts {verify:6.1f} ms, "
                      f"draft 2 tokens {draft:5.1f} ms", flush=True)
                warm.close()


if __name__ == "__main__":
    main()
