"""AR vs STANDALONE vs MINEDRAFT inside real SGLang 0.5.23 on CPU (greedy, float32), written
in the results schema of ``minedraft bench`` so that ``minedraft compare`` puts it beside a
reference-backend run of the same prompts and settings.

Runs one SGLang engine process per (mode, k) through the CPU test harness
(tests/adapters/sglang/cpu_harness). In each it decodes timed rounds like the bench's
in-flight grid: at C requests in flight, 2C requests (the bench's prompts, chat-templated)
arrive at once and a client-side limit keeps C in flight; EOS is ignored, so every mode
emits the same tokens. Every mode gets the same cores: SGLang's scheduler with its torch
threads (2 here) for AR and STANDALONE, and MINEDRAFT's threads lane with one intra-op
thread per lane (MINEDRAFT_SGLANG_LANE_THREADS, half the process's by default).

    .venv-sglang/bin/python scripts/sglang_cpu_bench.py --ks 1,2,4 --concurrency 2,8,16 \
        --max-new-tokens 32 --out sglang-bench/results.json

Needs the venv scripts/ci_sglang.sh builds and the SmolLM2-135M-Instruct checkpoint
(MINEDRAFT_SGLANG_TARGET, default $MINEDRAFT_CACHE/smollm2-135m-instruct). Draft = target
(STANDALONE loads only standard architectures); the matching reference run is
in docs/sglang.md (``minedraft bench --draft <that checkpoint> --dtype float32 ...``).
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


def _ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x.strip()]


def _run(model: str, mode: str, k: int, rounds: list[dict], prompts: list[list[int]], env: dict) -> list[dict]:
    spec = {"model": model, "mode": mode, "num_steps": k, "max_running_requests": max(r["concurrency"] for r in rounds),
            "requests": [{"rid": str(i), "input_ids": p, "max_new_tokens": 1} for i, p in enumerate(prompts)],
            "rounds": rounds, "env": env if mode == "MINEDRAFT" else {}}
    with tempfile.TemporaryDirectory() as tmp:
        spec_path, out_path = Path(tmp) / "spec.json", Path(tmp) / "out.json"
        spec_path.write_text(json.dumps(spec))
        subprocess.run([sys.executable, str(RUNNER), str(spec_path), str(out_path)], check=True,
                       stdout=subprocess.DEVNULL)
        out = json.loads(out_path.read_text())
    return [dict(r, stats=out["worker_stats"]) for r in out["outputs"]["rounds"]]


def _trial(mode: str, k: int, lanes: str, threads: int, r: dict):
    from minedraft.bench.external import ExternalTrial

    reqs = r["requests"]
    verify = [q["verify_ct"] for q in reqs]
    proposed = accepted = None
    if mode != "AR" and all(v for v in verify):
        # Each verification emits its accepted drafts plus one token; the first token is
        # prefill's. The last block may be cut by max_new_tokens (then this undercounts).
        proposed = k * sum(verify)
        accepted = sum(max(0, q["tokens"] - 1 - v) for q, v in zip(reqs, verify))
    return ExternalTrial(mode=mode, k=0 if mode == "AR" else k, concurrency=r["concurrency"], rep=r["rep"],
                         token_counts=[q["tokens"] for q in reqs], latencies=[q["latency"] for q in reqs],
                         ttfts=[q["ttft"] for q in reqs], wall_time=r["wall_time"], threads_total=threads,
                         lanes=lanes if mode == "MINEDRAFT" else "inline", proposed=proposed, accepted=accepted,
                         extra={"algorithm": mode, "worker_stats_engine_lifetime": r["stats"]})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ks", type=_ints, default=[1, 2, 4])
    parser.add_argument("--concurrency", type=_ints, default=[2, 8, 16])
    parser.add_argument("--max-new-tokens", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--modes", default="AR,STANDALONE,MINEDRAFT")
    parser.add_argument("--lanes", default="threads", help="MINEDRAFT_SGLANG_LANES for MINEDRAFT")
    parser.add_argument("--threads", type=int, default=2, help="torch threads of the scheduler (every mode)")
    parser.add_argument("--label", default="sglang 0.5.23 cpu")
    parser.add_argument("--out", type=Path, default=Path("sglang-bench") / "results.json")
    args = parser.parse_args()
    cache = Path(os.environ.get("MINEDRAFT_CACHE", Path.home() / ".cache" / "minedraft"))
    model = os.environ.get("MINEDRAFT_SGLANG_TARGET", str(cache / "smollm2-135m-instruct"))
    os.environ["OMP_NUM_THREADS"] = str(args.threads)  # the scheduler processes' torch threads
    from types import SimpleNamespace

    from transformers import AutoTokenizer

    from minedraft.bench import save
    from minedraft.bench.external import results_document
    from minedraft.bench.workload import prompt_ids

    tok = AutoTokenizer.from_pretrained(model)
    prompts, prompt_info = prompt_ids(SimpleNamespace(tokenizer=tok), 2 * max(args.concurrency), chat=True, seed=0)
    rounds = [{"concurrency": c, "num_requests": 2 * c, "max_new_tokens": args.max_new_tokens, "rep": rep}
              for rep in range(args.repeats) for c in args.concurrency]
    env = {"MINEDRAFT_SGLANG_LANES": args.lanes}
    trials = []
    for mode in args.modes.split(","):
        for k in ([0] if mode == "AR" else args.ks):
            for r in _run(model, mode, max(k, 1), rounds, prompts, env):
                trials.append(_trial(mode, k, args.lanes, args.threads, r))
                print(f"{mode} k={k} c={r['concurrency']} rep={r['rep']}: "
                      f"{r['output_tokens'] / r['wall_time']:.1f} tok/s", flush=True)
    doc = results_document(
        trials, backend="sglang", label=args.label, command=" ".join(["python"] + sys.argv),
        engines={"target": model, "draft": model, "dtype": "float32", "device": "cpu", "engine": "sglang.Engine"},
        config={"target": model, "draft": model, "max_new_tokens": args.max_new_tokens, "repeats": args.repeats,
                "in_flight": args.concurrency, "ks": args.ks, "lanes": args.lanes, "threads": args.threads,
                "prompts": prompt_info, "temperature": 0.0},
        notes=["acceptance_rate from meta_info spec_verify_ct: (completion - 1 - verify_ct) / (k verify_ct)"])
    save(doc, args.out)
    from minedraft.bench.compare import compare_table

    print(compare_table([(doc["label"], doc)]))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
