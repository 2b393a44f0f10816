"""AR vs STANDALONE vs MINEDRAFT inside real SGLang 0.5.23 on CPU (greedy, float32).

Runs one SGLang engine process per (mode, k) through the CPU test harness
(tests/adapters/sglang/cpu_harness), and in each decodes timed rounds of C concurrent
requests (all C submitted at once, max_running_requests = max C, EOS ignored, so exactly C
requests are in flight in every mode). Every mode runs on the same cores with the same
torch thread count (MINEDRAFT with the inline lanes: no overlap on CPU).

    .venv-sglang/bin/python scripts/sglang_cpu_bench.py --ks 1,2,4 --concurrency 2,8,16 \
        --max-new-tokens 32 --out sglang_cpu_bench.json

Needs the venv scripts/ci_sglang.sh builds and the SmolLM2-135M-Instruct checkpoint
(MINEDRAFT_SGLANG_TARGET, default $MINEDRAFT_CACHE/smollm2-135m-instruct). Draft = target.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNNER = ROOT / "tests" / "adapters" / "sglang" / "cpu_harness" / "run_engine.py"
PROMPTS = ["The capital of France is", "Once upon a time", "def fibonacci(n):", "Water boils at",
           "The three primary colours are", "In 1969, the first humans", "A list of fruits:", "Monday, Tuesday,"]


def _ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x.strip()]


def _run(model: str, mode: str, k: int, rounds: list[dict], prompts: list[list[int]], lanes: str) -> list[dict]:
    spec = {"model": model, "mode": mode, "num_steps": k, "max_running_requests": max(r["concurrency"] for r in rounds),
            "requests": [{"rid": str(i), "input_ids": p, "max_new_tokens": 1} for i, p in enumerate(prompts)],
            "rounds": rounds, "env": {"MINEDRAFT_SGLANG_LANES": lanes}}
    with tempfile.TemporaryDirectory() as tmp:
        spec_path, out_path = Path(tmp) / "spec.json", Path(tmp) / "out.json"
        spec_path.write_text(json.dumps(spec))
        subprocess.run([sys.executable, str(RUNNER), str(spec_path), str(out_path)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        out = json.loads(out_path.read_text())
    return [dict(r, mode=mode, k=k if mode != "AR" else 0, lanes=lanes if mode == "MINEDRAFT" else "-")
            for r in out["outputs"]["rounds"]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ks", type=_ints, default=[1, 2, 4])
    parser.add_argument("--concurrency", type=_ints, default=[2, 8, 16])
    parser.add_argument("--max-new-tokens", type=int, default=32)
    parser.add_argument("--modes", default="AR,STANDALONE,MINEDRAFT")
    parser.add_argument("--lanes", default="inline", help="MINEDRAFT_SGLANG_LANES for MINEDRAFT")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    cache = Path(os.environ.get("MINEDRAFT_CACHE", Path.home() / ".cache" / "minedraft"))
    model = os.environ.get("MINEDRAFT_SGLANG_TARGET", str(cache / "smollm2-135m-instruct"))
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(model)
    prompts = [tok(p)["input_ids"] for p in PROMPTS]
    rounds = [{"concurrency": c, "max_new_tokens": args.max_new_tokens} for c in args.concurrency]
    rows = []
    for mode in args.modes.split(","):
        for k in ([0] if mode == "AR" else args.ks):
            rows += _run(model, mode, max(k, 1), rounds, prompts, args.lanes)
            print(json.dumps(rows[-len(rounds):]), flush=True)
    print("\n| mode | k | lanes | concurrent requests | output tok/s | wall s |\n|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['mode']} | {r['k'] or '-'} | {r['lanes']} | {r['concurrency']} | "
              f"{r['tokens_per_second']:.1f} | {r['wall_time']:.1f} |")
    if args.out:
        args.out.write_text(json.dumps({"command": " ".join(sys.argv), "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
