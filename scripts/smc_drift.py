"""How far SMC-SD drifts from the target: ``minedraft.bench.drift.measure_drift`` on real models.

Runs exact sampling (``ar``), SMC-SD and optionally other modes on the same prompts and
prints the figures of docs/smc.md as a table (and JSON with ``--json``). Example:

    python scripts/smc_drift.py --draft target-int8 --prompts 8 --samples 16 --max-new-tokens 16

Drafts: any source the reference backend loads (``smollm2-draft``, a directory, ...), or
``target-bf16`` / ``target-int8``: a bf16 copy / a dynamically int8-quantised copy of the
target (lm_head kept in fp32), deterministic stand-ins with high / medium acceptance.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import time

import torch

FALLBACK_PROMPTS = [
    "What is the capital of France?",
    "Write a Python function that adds two numbers.",
    "Why is the sky blue?",
    "Give me three tips for sleeping better.",
    "Explain what a hash table is in one paragraph.",
    "Write a haiku about autumn.",
    "How do vaccines work?",
    "Summarise the plot of Romeo and Juliet in two sentences.",
]


def prompt_texts(n: int) -> tuple[list[str], str]:
    try:
        from minedraft.prompts import bench_prompts

        return bench_prompts(n), f"minedraft.prompts.bench_prompts({n})"
    except ImportError:
        return (FALLBACK_PROMPTS * n)[:n], "scripts/smc_drift.py FALLBACK_PROMPTS"


def build_engines(target: str, draft: str, dtype: str):
    from minedraft.adapters.reference import ReferenceBackend
    from minedraft.adapters.reference.embedded import TARGET_NAME, load_target
    from minedraft.backends import EngineSpec

    options = {}
    draft_source: object = draft
    if draft in ("target-bf16", "target-int8"):
        if target != TARGET_NAME:
            raise SystemExit(f"--draft {draft} copies the built-in target; use --target {TARGET_NAME}")
        base = load_target(torch.float32, "cpu")
        if draft == "target-bf16":
            draft_source, options["draft_dtype"] = copy.deepcopy(base), "bfloat16"
        else:
            from torch.ao.quantization import quantize_dynamic

            model = copy.deepcopy(base)
            model.model = quantize_dynamic(model.model, {torch.nn.Linear}, dtype=torch.qint8)
            draft_source, options["draft_dtype"] = model, "float32"
    spec = EngineSpec(target=target, draft=draft_source, dtype=dtype, options=options, max_batch_size=64)
    return ReferenceBackend().build(spec)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--target", default="smollm2")
    ap.add_argument("--draft", default="target-int8")
    ap.add_argument("--dtype", default="float32", help="target dtype (the reference distribution)")
    ap.add_argument("--prompts", type=int, default=8)
    ap.add_argument("--samples", type=int, default=16, help="samples per prompt and mode")
    ap.add_argument("--max-new-tokens", type=int, default=16)
    ap.add_argument("-k", "--num-speculative-tokens", type=int, default=4, help="gamma")
    ap.add_argument("--particles", type=int, default=4)
    ap.add_argument("--ess-threshold", type=float, default=0.5)
    ap.add_argument("--resampling", default="systematic")
    ap.add_argument("--output", default="sample", help="returned-sequence rule: sample | argmax")
    ap.add_argument("--temperature", type=float, default=1.0)
    ap.add_argument("--modes", default="smc", help="comma-separated modes besides ar (e.g. smc,sd)")
    ap.add_argument("--max-batch-size", type=int, default=64)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", default=None, help="also write the report here")
    args = ap.parse_args(argv)
    torch.set_num_threads(1)

    from minedraft.bench.drift import measure_drift
    from minedraft.schedulers.smc import SMCOptions

    t0 = time.perf_counter()
    engines = build_engines(args.target, args.draft, args.dtype)
    texts, source = prompt_texts(args.prompts)
    tok = engines.tokenizer
    prompts = [tok.encode(tok.apply_chat_template([{"role": "user", "content": t}], tokenize=False,
                                                  add_generation_prompt=True), add_special_tokens=False) for t in texts]
    smc = SMCOptions(num_particles=args.particles, ess_threshold=args.ess_threshold, resampling=args.resampling,
                     output=args.output)
    report = measure_drift(
        engines, prompts, modes=[m for m in args.modes.split(",") if m], temperature=args.temperature,
        samples=args.samples, max_new_tokens=args.max_new_tokens, num_speculative_tokens=args.num_speculative_tokens,
        smc=smc, max_batch_size=args.max_batch_size, seed=args.seed,
    )
    report["config"].update(target=args.target, draft=args.draft, dtype=args.dtype, prompt_source=source,
                            command="python scripts/smc_drift.py " + " ".join(argv if argv is not None else sys.argv[1:]),
                            seconds=round(time.perf_counter() - t0, 1))
    cols = ["first_token_kl", "nll", "greedy_agreement", "greedy_prefix", "tokens_per_pass", "mean_ess_fraction",
            "resample_rate"]
    print(json.dumps(report["config"]))
    print("| mode | " + " | ".join(cols) + " |")
    print("|---" * (len(cols) + 1) + "|")
    for mode, fig in report["modes"].items():
        cells = []
        for c in cols:
            if c not in fig:
                cells.append("-")
            elif c + "_se" in fig:
                cells.append(f"{fig[c]:.3f} ± {fig[c + '_se']:.3f}")
            else:
                cells.append(f"{fig[c]:.3f}")
        print(f"| {mode} | " + " | ".join(cells) + " |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
