"""A/B: flex at b = 8 (16 requests in flight) against AR at max_batch_size 16 over the same
requests, alternating 4 times, through the bench harness; prints tokens/s and the mean
decoding step per trial. A diagnostic for docs/benchmarks.md (is a gap between flex's AR
steps and AR* overhead or noise?), not a benchmark.

    HF_HUB_OFFLINE=1 python scripts/flex_ar_ab.py
"""

import statistics as st

import torch

from minedraft.bench.config import BenchConfig
from minedraft.bench.harness import Bench, TrialSpec

torch.set_num_threads(1)
bench = Bench(BenchConfig(modes=("ar", "flex"), batch_sizes=(8,), ks=(1,), peers=False, calibrate=False,
                          max_new_tokens=32, progress=False, cooperative=False))
bench.run_trial(TrialSpec("flex", "scheduler", 8, 1, -1), n=16, max_new_tokens=4)
bench.run_trial(TrialSpec("ar", "reference", 16, 0, -1), n=16, max_new_tokens=4)
bench.run_trial(TrialSpec("flex", "scheduler", 8, 1, -1))  # learning trial
for rep in range(4):
    for spec in (TrialSpec("flex", "scheduler", 8, 1, rep), TrialSpec("ar", "reference", 16, 0, rep, requests=16)):
        r = bench.run_trial(spec)
        s = r["steps"]
        dec = [i for i, p in enumerate(s["prefill"]) if not p]
        step_ms = 1000 * st.mean(s["duration"][i] for i in dec)
        print(spec.mode, rep, f"{r['tokens_per_second']:.1f} tok/s", f"step {step_ms:.0f} ms",
              "proposed", sum(s["proposed"]), "vb", sorted(set(s["verify_batch"][i] for i in dec)), flush=True)
