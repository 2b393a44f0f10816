"""Run flex at b = 1 and 2 on the embedded pair (as ``minedraft bench`` does) and print what
its policy learnt: the fitted sequential verify/draft costs and the predicted tokens/s per
(mode, k). A diagnostic for docs/flex.md, not a benchmark.

    HF_HUB_OFFLINE=1 python scripts/flex_policy_probe.py
"""

from __future__ import annotations

import torch

from minedraft.bench.config import BenchConfig
from minedraft.bench.harness import Bench, TrialSpec


def main() -> None:
    torch.set_num_threads(1)
    bench = Bench(BenchConfig(modes=("ar", "flex"), batch_sizes=(1, 2), ks=(2,), peers=False, calibrate=False,
                              max_new_tokens=32, progress=False, cooperative=False))
    bench.run_trial(TrialSpec("flex", "scheduler", 1, 2, -1), n=2, max_new_tokens=4)  # warm-up, as the bench
    for b in (1, 2):
        record = bench.run_trial(TrialSpec("flex", "scheduler", b, 2, 0))
        (policy,) = bench.engines.memory.values()  # flex's policy, kept with the engines
        seq, n = policy.models["sequential"], 2 * b
        print(f"b={b}: {record['tokens_per_second']:.1f} tok/s, {sum(record['steps']['proposed'])} draft tokens verified")
        print(f"  fitted sequential costs at {n} requests: T_v(k=0,1,2) = "
              + ", ".join(f"{1000 * seq.t_verify(n, k):.0f}" for k in (0, 1, 2))
              + f" ms; T_d(k=1) = {1000 * seq.t_draft(n, 1):.0f} ms; alpha {policy.acceptance.alpha(None):.2f}")
        groups = ([f"a{i}" for i in range(b)], [f"b{i}" for i in range(b)])
        # A mode whose family has no measurements yet has no prediction (the policy never
        # prices it either: ``FlexPolicy.usable``).
        predicted = {f"{m} k={k}": round(float(policy.predict(m, k, groups)), 1) if policy.usable(m) else "unmeasured"
                     for m, k in policy.candidates(["ar", "sd", "psd"]) if k <= 2}
        print(f"  predicted tok/s: {predicted}")


if __name__ == "__main__":
    main()
