#!/usr/bin/env python3
"""Compare ``--speculative-algorithm MINEDRAFT`` with ``STANDALONE`` on a GPU.

Launches ``python -m sglang.launch_server`` once per algorithm with the same target/draft
pair, sends the same greedy batch to each, and reports output-token throughput and
whether every output is identical. Needs a CUDA GPU, sglang 0.5.23 and minedraft
installed (``pip install "minedraft[sglang]"``) and the two models on disk or reachable.

    python scripts/sglang_gpu_check.py --model Qwen/Qwen3-1.7B --draft Qwen/Qwen3-0.6B \
        --num-draft-tokens 4 --num-prompts 64 --max-new-tokens 128 -- --attention-backend fa3

Arguments after ``--`` go to both servers. STANDALONE runs with SGLang's defaults (decode
CUDA graphs on), as a user would otherwise run it; MINEDRAFT's overlapping lane needs decode
graphs off (graph replays share SGLang's input buffers, docs/sglang.md), so its server also
gets ``--cuda-graph-backend-decode disabled`` unless ``MINEDRAFT_SGLANG_LANES=inline`` is set.
Exit status: 0 if all outputs are equal, 1 if not, 2 if a server failed.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

PROMPTS = [
    "Explain how a hash map works.", "Write a short poem about the sea.", "What is speculative decoding?",
    "List five prime numbers and explain why they are prime.", "Summarise the plot of Hamlet.",
    "Describe the water cycle.", "How do I reverse a linked list in Python?", "Why is the sky blue?",
]


def _post(url: str, payload: dict, timeout: float) -> dict:
    req = urllib.request.Request(url, json.dumps(payload).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as resp:
        return json.loads(resp.read())


def _wait_ready(base: str, proc: subprocess.Popen, timeout: float) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(base + "/health", timeout=5) as resp:
                if resp.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(2)
    raise RuntimeError(f"server not ready after {timeout:.0f}s")


def run(algorithm: str, args: argparse.Namespace, extra: list[str]) -> tuple[list[str], float, int]:
    port = args.port
    cmd = [sys.executable, "-m", "sglang.launch_server", "--model-path", args.model,
           "--speculative-algorithm", algorithm, "--speculative-draft-model-path", args.draft,
           "--speculative-num-draft-tokens", str(args.num_draft_tokens), "--speculative-eagle-topk", "1",
           "--speculative-num-steps", str(args.num_draft_tokens - 1), "--disable-overlap-schedule",
           "--max-running-requests", str(args.max_running_requests), "--port", str(port), *extra]
    env = dict(os.environ)
    if algorithm == "MINEDRAFT":
        # The CUDA-stream lane (named here so the check says what it ran; it needs decode
        # graphs off), and the worker's counters, to show that the PSD path ran.
        env.setdefault("MINEDRAFT_SGLANG_LANES", "cuda_streams")
        if env["MINEDRAFT_SGLANG_LANES"] != "inline":
            cmd += ["--cuda-graph-backend-decode", "disabled"]
        env["MINEDRAFT_SGLANG_STATS_FILE"] = os.path.join(tempfile.gettempdir(), f"minedraft_stats_{port}.json")
    print("$", " ".join(cmd), flush=True)
    log = open(f"sglang_{algorithm.lower()}.log", "w")
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_ready(base, proc, args.startup_timeout)
        prompts = [PROMPTS[i % len(PROMPTS)] + f" (variant {i})" for i in range(args.num_prompts)]
        sampling = {"temperature": 0.0, "max_new_tokens": args.max_new_tokens, "ignore_eos": True}
        _post(base + "/generate", {"text": prompts[:2], "sampling_params": sampling}, args.request_timeout)  # warm-up
        start = time.perf_counter()
        out = _post(base + "/generate", {"text": prompts, "sampling_params": sampling}, args.request_timeout)
        seconds = time.perf_counter() - start
        texts = [o["text"] for o in out]
        tokens = sum(o["meta_info"]["completion_tokens"] for o in out)
        if "MINEDRAFT_SGLANG_STATS_FILE" in env and os.path.exists(env["MINEDRAFT_SGLANG_STATS_FILE"]):
            with open(env["MINEDRAFT_SGLANG_STATS_FILE"]) as f:
                print(f"MINEDRAFT worker counters ({env['MINEDRAFT_SGLANG_LANES']} lanes): {f.read()}", flush=True)
        return texts, seconds, tokens
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        log.close()


def main() -> int:
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1 :] if "--" in argv else []
    argv = argv[: argv.index("--")] if "--" in argv else argv
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--model", required=True)
    p.add_argument("--draft", required=True)
    p.add_argument("--num-draft-tokens", type=int, default=4)
    p.add_argument("--num-prompts", type=int, default=64)
    p.add_argument("--max-new-tokens", type=int, default=128)
    p.add_argument("--max-running-requests", type=int, default=64)
    p.add_argument("--port", type=int, default=30123)
    p.add_argument("--startup-timeout", type=float, default=900)
    p.add_argument("--request-timeout", type=float, default=1800)
    args = p.parse_args(argv)
    results = {}
    for algorithm in ("STANDALONE", "MINEDRAFT"):
        try:
            results[algorithm] = run(algorithm, args, extra)
        except Exception as exc:  # noqa: BLE001 - reported, then exit 2
            print(f"{algorithm}: {type(exc).__name__}: {exc} (see sglang_{algorithm.lower()}.log)")
            return 2
        texts, seconds, tokens = results[algorithm]
        print(f"{algorithm:10s} {tokens} tokens in {seconds:.2f}s = {tokens / seconds:.1f} tok/s", flush=True)
    base, ours = results["STANDALONE"], results["MINEDRAFT"]
    mismatches = [i for i, (a, b) in enumerate(zip(base[0], ours[0])) if a != b]
    speedup = (ours[2] / ours[1]) / (base[2] / base[1])
    print(f"MINEDRAFT / STANDALONE throughput: {speedup:.3f}x; outputs equal: "
          f"{len(base[0]) - len(mismatches)}/{len(base[0])}")
    if mismatches:
        print(f"first mismatching prompt index: {mismatches[0]}")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
