#!/usr/bin/env python3
"""One-command check of the TensorRT-LLM adapter on a GPU machine with TensorRT-LLM 1.2.1.

    python scripts/trtllm_gpu_check.py --target /models/Llama-3.2-1B-Instruct \\
        --draft /models/Llama-3.2-1B-Instruct-draft [--k 4] [--max-new 64] [--port 8011]

1. builds ``tensorrt_llm.LLM`` for the target without speculation (AR) and runs the fixed
   prompts greedily; then with the PSD drafter (``llm_kwargs``) on the same prompts;
2. asserts the token ids are identical, prompt by prompt;
3. times both (wall seconds of ``generate`` for all prompts at once, after one warm-up call);
4. starts ``minedraft serve-trtllm`` on the pair and sends a few OpenAI completions;
5. prints one summary line (and exits non-zero on any failure).

It fails fast, with exit status 2 and a message naming what is missing, when TensorRT-LLM
(the pinned release) or a CUDA GPU is not there. The executor runs in-process
(``TLLM_WORKER_USE_SINGLE_PROCESS=1``) so the drafter's counters (hit rate, acceptance)
can be read. The timings compare equal requests in flight on one machine; they are not
a benchmark (no repeated runs, no spread).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

PROMPTS = [
    "The capital of France is",
    "Write a haiku about the sea:",
    "def fibonacci(n):",
    "In 1905, Albert Einstein published",
    "The three primary colours are",
    "Translate to German: 'Good morning, how are you?'",
    "A list of prime numbers: 2, 3, 5,",
    "Once upon a time, in a small village,",
]


class CheckFailed(RuntimeError):
    pass


def preflight() -> str:
    """The tensorrt_llm version, or CheckFailed naming everything that is missing."""
    problems = []
    try:
        import torch

        if not torch.cuda.is_available():
            problems.append("no CUDA GPU is visible (torch.cuda.is_available() is False)")
    except ImportError as exc:
        problems.append(f"torch is not importable ({exc})")
    version = None
    try:
        from minedraft.adapters.tensorrt_llm import compat

        version = compat.require_tensorrt_llm()
    except ImportError as exc:  # UnsupportedTensorRTLLMError is an ImportError
        problems.append(str(exc))
    if problems:
        raise CheckFailed("cannot run the TensorRT-LLM GPU check: " + "; ".join(problems))
    return str(version)


def _generate(llm, max_new: int) -> tuple[list[list[int]], float]:
    from tensorrt_llm import SamplingParams

    params = SamplingParams(max_tokens=max_new, top_k=1)  # greedy as TorchSampler resolves it
    llm.generate(PROMPTS[:1], params)  # warm-up
    t0 = time.perf_counter()
    outs = llm.generate(PROMPTS, params)
    seconds = time.perf_counter() - t0
    return [list(o.outputs[0].token_ids) for o in outs], seconds


def run_pair(args: argparse.Namespace) -> dict:
    from tensorrt_llm import LLM
    from tensorrt_llm.llmapi import KvCacheConfig

    from minedraft.adapters.tensorrt_llm import speculative_config

    common = dict(max_batch_size=len(PROMPTS), kv_cache_config=KvCacheConfig(free_gpu_memory_fraction=0.4))
    llm = LLM(args.target, **common)
    ar_tokens, ar_s = _generate(llm, args.max_new)
    llm.shutdown()
    spec = speculative_config(draft_model=args.draft, num_speculative_tokens=args.k, draft_dtype=args.draft_dtype,
                              draft_device=args.draft_device)
    llm = LLM(args.target, speculative_config=spec, disable_overlap_scheduler=True, **common)
    psd_tokens, psd_s = _generate(llm, args.max_new)
    stats = spec.drafter.stats()
    llm.shutdown()
    for i, (a, p) in enumerate(zip(ar_tokens, psd_tokens)):
        if a != p:
            first = next((j for j, (x, y) in enumerate(zip(a, p)) if x != y), min(len(a), len(p)))
            raise CheckFailed(f"prompt {i}: PSD tokens differ from AR at position {first} "
                              f"(AR {a[first:first + 5]}, PSD {p[first:first + 5]})")
    return {"ar_s": ar_s, "psd_s": psd_s, "tokens": sum(map(len, ar_tokens)), "stats": stats}


def _post(url: str, body: dict, timeout: float) -> dict:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as resp:  # noqa: S310 - a loopback URL we built
        return json.loads(resp.read())


def serve_check(args: argparse.Namespace, n: int = 3) -> int:
    """Start ``minedraft serve-trtllm`` and send ``n`` completions; returns how many came back."""
    import yaml

    with tempfile.TemporaryDirectory() as tmp:
        cfg = Path(tmp) / "psd.yaml"
        cfg.write_text(yaml.safe_dump({
            "model": args.target, "num_speculative_tokens": args.k,
            "draft": {"model": args.draft, "dtype": args.draft_dtype, **({"device": args.draft_device}
                                                                           if args.draft_device else {})},
            "llm": {"max_batch_size": 8, "kv_cache_config": {"free_gpu_memory_fraction": 0.4}},
            "server": {"host": "127.0.0.1", "port": args.port},
        }))
        env = {**os.environ, "TLLM_WORKER_USE_SINGLE_PROCESS": "1"}
        proc = subprocess.Popen([sys.executable, "-m", "minedraft.cli", "serve-trtllm", "--config", str(cfg)],
                                env=env)
        base = f"http://127.0.0.1:{args.port}"
        try:
            deadline = time.monotonic() + args.serve_timeout
            while True:
                if proc.poll() is not None:
                    raise CheckFailed(f"minedraft serve-trtllm exited with status {proc.returncode} before serving")
                try:
                    urllib.request.urlopen(f"{base}/v1/models", timeout=5).read()  # noqa: S310
                    break
                except (urllib.error.URLError, ConnectionError):
                    if time.monotonic() > deadline:
                        raise CheckFailed(f"the server did not answer within {args.serve_timeout}s") from None
                    time.sleep(2)
            served = 0
            for prompt in PROMPTS[:n]:
                out = _post(f"{base}/v1/completions", {"model": args.target, "prompt": prompt,
                                                       "max_tokens": 16, "temperature": 0}, timeout=120)
                served += bool(out.get("choices") and out["choices"][0].get("text"))
            return served
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--target", required=True, help="target model (HF checkpoint directory)")
    p.add_argument("--draft", required=True, help="draft model, loaded by minedraft's reference backend")
    p.add_argument("--k", type=int, default=4, help="draft length (max_draft_len)")
    p.add_argument("--max-new", type=int, default=64)
    p.add_argument("--draft-dtype", default="bfloat16")
    p.add_argument("--draft-device", default=None, help="default: cuda (the target's GPU, own stream)")
    p.add_argument("--port", type=int, default=8011)
    p.add_argument("--serve-timeout", type=float, default=900.0)
    p.add_argument("--skip-serve", action="store_true")
    args = p.parse_args(argv)
    try:
        version = preflight()
        os.environ.setdefault("TLLM_WORKER_USE_SINGLE_PROCESS", "1")
        import torch

        gpu = torch.cuda.get_device_name(0)
        pair = run_pair(args)
        import gc

        gc.collect()  # the pair's models, freed before the server's process claims the GPU
        torch.cuda.empty_cache()
        served = "skipped" if args.skip_serve else f"{serve_check(args)}/3"
    except CheckFailed as exc:
        print(f"trtllm_gpu_check: FAILED: {exc}", file=sys.stderr)
        return 2 if str(exc).startswith("cannot run") else 1
    s = pair["stats"]
    print(f"trtllm_gpu_check: OK tensorrt_llm={version} gpu={gpu!r} prompts={len(PROMPTS)} tokens={pair['tokens']} "
          f"greedy_identical=yes ar_s={pair['ar_s']:.3f} psd_s={pair['psd_s']:.3f} "
          f"psd_over_ar={pair['ar_s'] / pair['psd_s']:.2f}x hit_rate={s.get('hit_rate', 0):.2f} "
          f"acceptance={s.get('acceptance_rate', 0):.2f} served={served}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
