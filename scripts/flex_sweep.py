"""Flex against the fixed modes (AR, SD, PSD) at a few batch sizes, in one run.

Until ``minedraft bench`` runs ``flex`` itself, this is the measurement behind docs/flex.md.
Every mode runs the same workload at each batch size b: 2 b prompts, ``max_batch_size=b``
(so AR and SD run two waves of b, PSD and flex 2 b at once in two sub-batches), greedy,
fixed output length. Modes are interleaved within each repetition so that machine noise
hits all alike; the table reports the median tokens/s over repetitions.

Draft: ``smollm2-draft`` when its weights exist, else ``--draft bf16-copy`` (the target's
own weights in bfloat16 with the target in float32: high acceptance, cost ~0.5-0.6 of the
target) or ``--draft layers:N`` (the target's first N layers plus its head, untrained:
acceptance near zero, so AR should win). Any path or model name works too.

    python scripts/flex_sweep.py --draft bf16-copy --batches 1 2 4 8 --reps 3 --tokens 32 --threads 1
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

import torch

PROMPTS = [
    "The capital of France is",
    "Once upon a time, there was a little dog named",
    "Write a Python function that adds two numbers.",
    "Explain why the sky is blue in two sentences.",
    "List three uses of a paperclip:",
    "The quick brown fox",
    "In 1969, the first humans",
    "To make a cup of tea, first",
    "Dear team, I am writing to let you know that",
    "def fibonacci(n):",
    "The three primary colors are",
    "Summarise the plot of Romeo and Juliet:",
    "A good breakfast includes",
    "Water boils at",
    "The best way to learn a language is",
    "Photosynthesis is the process by which",
]


def build_engines(target: str, draft: str, dtype: str):
    from minedraft.adapters.reference import ReferenceBackend
    from minedraft.backends import EngineSpec

    options = {}
    draft_source: object = draft
    if draft == "bf16-copy":
        draft_source, options = target, {"draft_dtype": "bfloat16"}
    elif draft.startswith("layers:"):
        from minedraft.adapters.reference.loading import load_causal_lm

        model = load_causal_lm(target, dtype=torch.float32)
        model.model.layers = model.model.layers[: int(draft.split(":")[1])]
        model.config.num_hidden_layers = len(model.model.layers)
        draft_source = model
    spec = EngineSpec(target=target, draft=draft_source, dtype=dtype, device="cpu", options=options,
                      max_batch_size=16)
    return ReferenceBackend().build(spec)


def run_once(llm, prompts, params) -> tuple[float, int, dict]:
    t0 = time.perf_counter()
    outs = llm.generate(prompts, params)
    wall = time.perf_counter() - t0
    tokens = sum(len(o.token_ids) for o in outs)
    assert all(o.error is None for o in outs), [o.error for o in outs]
    return wall, tokens, llm.last_trace.summary()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--target", default="smollm2")
    ap.add_argument("--draft", default="bf16-copy")
    ap.add_argument("--dtype", default="float32")
    ap.add_argument("--batches", type=int, nargs="+", default=[1, 2, 4, 8])
    ap.add_argument("--modes", nargs="+", default=["ar", "sd", "psd", "flex"])
    ap.add_argument("--k", type=int, default=4)
    ap.add_argument("--tokens", type=int, default=32)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--threshold", type=float, default=None, help="draft_confidence_threshold for flex")
    ap.add_argument("--cold", action="store_true", help="forget flex's measurements before every flex run")
    ap.add_argument("--threads", type=int, default=1,
                    help="torch intra-op threads of the process (1: no oversubscription on a shared 2-core box)")
    ap.add_argument("--json", default=None, help="write the raw results here")
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)

    from minedraft import LLM, SamplingParams

    engines = build_engines(args.target, args.draft, args.dtype)
    tok = engines.tokenizer
    prompt_ids = [tok.encode(p) for p in PROMPTS]
    params = SamplingParams(temperature=0.0, max_new_tokens=args.tokens, ignore_eos=True)
    llms = {}
    for b in args.batches:
        for mode in args.modes:
            extra = {"draft_confidence_threshold": args.threshold} if mode == "flex" and args.threshold else {}
            llms[mode, b] = LLM(None, None, mode=mode, engines=engines, num_speculative_tokens=args.k,
                                max_batch_size=b, **extra)
    print(f"threads={torch.get_num_threads()} target={args.target} draft={args.draft} dtype={args.dtype}", flush=True)
    for mode in args.modes:  # untimed warm-up: first calls allocate caches
        run_once(llms[mode, args.batches[0]], prompt_ids[:2], params)
    results: dict[tuple[str, int], list[float]] = {}
    extras: dict[tuple[str, int], list[str]] = {}
    for rep in range(args.reps):
        for b in args.batches:
            prompts = [prompt_ids[i % len(prompt_ids)] for i in range(2 * b)]
            order = args.modes if rep % 2 == 0 else list(reversed(args.modes))
            for mode in order:
                if mode == "flex" and args.cold:
                    engines.memory.clear()  # flex's learned costs live with the engines
                wall, tokens, summary = run_once(llms[mode, b], prompts, params)
                results.setdefault((mode, b), []).append(tokens / wall)
                if mode == "flex":
                    steps = llms[mode, b].last_trace.steps
                    mix = {m: sum(s.mode == m for s in steps) for m in ("flex:psd", "flex:sd", "flex:ar")}
                    ks = sorted({s.k for s in steps if s.k})
                    extras.setdefault((mode, b), []).append(
                        " ".join(f"{m[5:]}={n}" for m, n in mix.items()) + f" k={','.join(map(str, ks)) or '-'}")
                print(f"rep {rep} b={b} {mode:5s} {tokens / wall:7.1f} tok/s  accept={summary.get('acceptance_rate', 0):.2f}"
                      + (f"  steps: {extras[mode, b][-1]}" if mode == "flex" else ""), flush=True)
    print()
    header = "| b | " + " | ".join(args.modes) + " | best fixed | flex / best |"
    print(header)
    print("|" + "---|" * (len(args.modes) + 3))
    rows = []
    for b in args.batches:
        med = {m: statistics.median(results[m, b]) for m in args.modes}
        fixed = {m: v for m, v in med.items() if m != "flex"}
        best = max(fixed, key=fixed.get) if fixed else None
        ratio = med["flex"] / fixed[best] if best and "flex" in med else float("nan")
        rows.append({"batch": b, **med, "best_fixed": best, "flex_over_best": ratio})
        print(f"| {b} | " + " | ".join(f"{med[m]:.1f}" for m in args.modes) + f" | {best} | {ratio:.2f} |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"args": vars(args), "rows": rows, "raw": {f"{m}@{b}": v for (m, b), v in results.items()},
                       "flex_steps": {f"{m}@{b}": v for (m, b), v in extras.items()}}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
