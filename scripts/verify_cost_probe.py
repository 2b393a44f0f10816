"""What a verification costs on the embedded pair, outside any scheduler: warm batches,
fastest of 7 calls per case, 2 intra-op threads. A diagnostic, not a benchmark.

- ``width``: ragged drafts. Is the cost set by the longest draft (the padded width) or by
  the mean? The measurement behind docs/flex.md, "Verification is priced at its width".
- ``context``: the AR step, the verification of 2 drafts and the drafter's 2 forwards at
  growing context (the longest committed sequence). The measurement behind the attention
  term of docs/theory.md §3.
- ``overlap``: PSD's lanes, 1 intra-op thread each. The draft call (k = 2) and the
  verification of SD's decode steps on one lane alone, against the same calls in PSD's
  steps with the other lane busy (median of 7 steps each). The measurement behind the
  calibration's overlapped pass, docs/theory.md §3.

    HF_HUB_OFFLINE=1 python scripts/verify_cost_probe.py width
    HF_HUB_OFFLINE=1 python scripts/verify_cost_probe.py context
    HF_HUB_OFFLINE=1 python scripts/verify_cost_probe.py overlap
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from functools import partial

import torch

from minedraft.bench.config import BenchConfig
from minedraft.bench.harness import Bench
from minedraft.bench.probe import WarmBatch, intra_op_threads, time_overlapped_steps, time_sequential_steps
from minedraft.lanes import LanePair
from minedraft.types import DraftBlock


def fastest_ms(fn: Callable[[], object], reps: int = 7) -> float:
    fn()  # the first call at a new shape may allocate
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return 1000 * min(times)


def width(bench: Bench) -> None:
    target = bench.engines.target
    for b in (2, 4, 8, 16):
        warm = WarmBatch(bench.engines, bench.prompts, b)
        drafts = warm.draft(2)
        cases = {"all 2": [2] * b, "all 1": [1] * b, "one 2, rest 0": [2] + [0] * (b - 1), "all 0": [0] * b}
        cells = []
        for name, lengths in cases.items():
            block = drafts.truncate(lengths)
            ms = fastest_ms(partial(target.score, warm.requests, block))
            cells.append(f"{name} (width {block.width}, mean {sum(lengths) / b:.2f}): {ms:.0f} ms")
        print(f"b={b:2d}  " + "; ".join(cells), flush=True)
        warm.close()


def context(bench: Bench) -> None:
    target = bench.engines.target
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


def overlap(bench: Bench) -> None:
    lanes = LanePair("threads", intra_op_threads=1)
    try:
        for b in (1, 4, 8, 16, 32):
            alone = WarmBatch(bench.engines, bench.prompts, b)
            pair = [WarmBatch(bench.engines, bench.prompts, b) for _ in range(2)]
            with intra_op_threads(1):
                draft_alone, verify_alone = map(statistics.median, time_sequential_steps(alone, 2, 7))
            draft_shared, verify_shared = map(statistics.median, time_overlapped_steps(pair, lanes, 2, 7))
            print(f"b={b:2d}: draft {1000 * draft_alone:5.1f} ms alone, {1000 * draft_shared:5.1f} overlapped "
                  f"({draft_shared / draft_alone:.2f}x); verify {1000 * verify_alone:5.1f} ms alone, "
                  f"{1000 * verify_shared:5.1f} overlapped ({verify_shared / verify_alone:.2f}x)", flush=True)
            for warm in (alone, *pair):
                warm.close()
    finally:
        lanes.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("width", "context", "overlap"))
    args = parser.parse_args()
    torch.set_num_threads(2)
    bench = Bench(BenchConfig(modes=("sd",), batch_sizes=(16,), ks=(2,), peers=False, calibrate=False,
                              progress=False, cooperative=False))
    with torch.inference_mode():
        {"width": width, "context": context, "overlap": overlap}[args.what](bench)


if __name__ == "__main__":
    main()
