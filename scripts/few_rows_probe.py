"""Time one target forward of the embedded target (fp32, CPU) over b requests feeding q
positions each (b x q rows through every weight), with few-row products off
(``FEW_ROWS = 1``: plain ``F.linear``) and on (the shipped ``FEW_ROWS``), interleaved.
Prints min / median ms of 9 forwards per cell. A diagnostic for docs/embedded-pair.md.

    HF_HUB_OFFLINE=1 python scripts/few_rows_probe.py [--threads 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import torch

from minedraft.adapters.reference import cpu_kernels
from minedraft.adapters.reference.embedded import load_target
from minedraft.adapters.reference.runner import ModelRunner, Row

CASES = ((1, 1), (1, 2), (1, 3), (1, 5), (2, 1), (2, 3), (4, 1), (4, 3), (8, 1))  # (requests b, positions q)
CONTEXT = 120


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--reps", type=int, default=9)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    model = load_target(torch.float32, "cpu")
    cpu_kernels.use_few_rows_products(model)
    runner = ModelRunner(model, max_slots=16, capacity=512)
    rng = random.Random(0)
    prompts = {b: [[rng.randrange(1000, 20000) for _ in range(CONTEXT)] for _ in range(b)] for b in (1, 2, 4, 8)}
    for b, rows in prompts.items():
        for i, toks in enumerate(rows):
            runner.forward([Row(f"b{b}r{i}", toks, 1)])
    shipped, seconds = cpu_kernels.FEW_ROWS, {}
    with torch.inference_mode():
        for _ in range(args.reps):
            for few in (1, shipped):
                cpu_kernels.FEW_ROWS = few
                for b, q in CASES:
                    batch = []
                    for i, toks in enumerate(prompts[b]):
                        runner.truncate(f"b{b}r{i}", CONTEXT)
                        batch.append(Row(f"b{b}r{i}", toks + [5] * q, q))
                    t0 = time.perf_counter()
                    runner.forward(batch)
                    seconds.setdefault((few, b, q), []).append(time.perf_counter() - t0)
    cpu_kernels.FEW_ROWS = shipped
    print(f"target forward, {args.threads} thread(s), context {CONTEXT}: min / median ms of {args.reps}")
    print("b x q  rows   F.linear        few-row products")
    for b, q in CASES:
        cells = [seconds[few, b, q] for few in (1, shipped)]
        print(f"{b} x {q}  {b * q:4d}   " + "   ".join(f"{1000 * min(c):5.0f} / {1000 * statistics.median(c):5.0f}"
                                               for c in cells))


if __name__ == "__main__":
    main()
