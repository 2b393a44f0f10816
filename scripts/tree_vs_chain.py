"""Draft trees against draft chains: accepted tokens per target step and tokens/s.

``compare(...)`` runs the same prompts through several modes on one engine pair (loaded
once) and returns one dict per mode; ``minedraft bench`` can call it (see docs/trees.md).
From the shell::

    python scripts/tree_vs_chain.py --target smollm2 --draft DIR --modes sd tree psd tree-psd \\
        --prompts 8 --max-new-tokens 64 -k 4 --branches 4

The default draft is the shipped ``smollm2-draft``; ``--draft int8`` drafts instead with
the target's decoder layers quantised to int8, a stand-in built offline (``stand_in_draft``).
Speed figures belong in docs with the command that produced them.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import torch

from minedraft import LLM, SamplingParams
from minedraft.backends import EnginePair

CHAIN_MODES = ("ar", "sd", "psd")
FALLBACK_PROMPTS = [
    "Explain why the sky is blue in two sentences.",
    "Write a Python function that returns the n-th Fibonacci number.",
    "What is the capital of France, and what is it famous for?",
    "Give three tips for writing a clear email.",
    "Summarise the plot of Romeo and Juliet.",
    "List the planets of the solar system in order.",
    "How do I boil an egg?",
    "Translate 'good morning, how are you?' into Spanish.",
]


def _prompts(engines: EnginePair, n: int) -> list[Any]:
    """Held-out chat prompts (``minedraft.prompts``) in the chat template when the target
    has one; a small built-in list otherwise."""
    try:
        from minedraft.prompts import heldout_prompts

        texts = heldout_prompts(n)
    except Exception:  # noqa: BLE001 - the prompt sets are optional here
        texts = (FALLBACK_PROMPTS * (n // len(FALLBACK_PROMPTS) + 1))[:n]
    tok = engines.tokenizer
    if tok is None:
        return [[5 + (7 * i + j) % 50 for j in range(8 + i)] for i in range(n)]  # token-id prompts
    if getattr(tok, "chat_template", None):  # token ids: the template holds its special tokens
        return [tok.encode(tok.apply_chat_template([{"role": "user", "content": t}], tokenize=False,
                                                   add_generation_prompt=True), add_special_tokens=False)
                for t in texts]
    return texts


def compare(
    target: Any = None,
    draft: Any = None,
    *,
    engines: EnginePair | None = None,
    prompts: Sequence[Any] | int = 8,
    modes: Sequence[str] = ("sd", "tree"),
    num_speculative_tokens: int = 4,
    tree_branches: int = 4,
    tree_branch_tokens: int | None = None,
    max_new_tokens: int = 64,
    temperature: float = 0.0,
    max_batch_size: int = 8,
    repeats: int = 1,
    dtype: str = "auto",
    device: str = "cpu",
    lanes: str | None = None,
    threads: int | None = 1,
) -> list[dict[str, Any]]:
    """Per mode: ``accepted_per_step`` (accepted draft tokens per request per target pass),
    ``tokens_per_step`` (tokens emitted per request per target pass, bonus included),
    ``verified_per_step`` (draft tokens — chain or tree nodes — the target scored per
    request per pass), ``draft_s_per_step`` / ``verify_s_per_step`` (seconds the draft /
    target lane was busy per scheduler step), ``tokens_per_s`` (output tokens / wall seconds, best of
    ``repeats``, modes interleaved), and ``same_as_first`` (outputs equal to the first
    mode's; expected under greedy only). Overlapping modes (``*psd``) get threaded lanes on CPU unless ``lanes`` says
    otherwise; ``threads`` sets torch's intra-op threads for the sequential modes (the
    threaded lanes use one each), None leaves it alone."""
    saved = torch.get_num_threads()
    if threads is not None:
        torch.set_num_threads(threads)
    try:
        return _compare(target, draft, engines, prompts, modes, num_speculative_tokens, tree_branches,
                        tree_branch_tokens, max_new_tokens, temperature, max_batch_size, repeats, dtype, device, lanes)
    finally:
        torch.set_num_threads(saved)


def _compare(target, draft, engines, prompts, modes, num_speculative_tokens, tree_branches, tree_branch_tokens,
             max_new_tokens, temperature, max_batch_size, repeats, dtype, device, lanes) -> list[dict[str, Any]]:
    if engines is None:
        engines = LLM(target, draft, mode="sd", dtype=dtype, device=device, max_batch_size=max_batch_size).engines
    if isinstance(prompts, int):
        prompts = _prompts(engines, prompts)
    params = SamplingParams(temperature=temperature, max_new_tokens=max_new_tokens, seed=0 if temperature else None,
                            ignore_eos=True)
    llms = {}
    for mode in modes:
        mode_lanes = lanes or ("threads" if mode.endswith("psd") and device == "cpu" else None)
        tree = {"tree_branches": tree_branches, "tree_branch_tokens": tree_branch_tokens} if mode.startswith("tree") else {}
        llm = LLM(None, None, mode=mode, engines=engines, num_speculative_tokens=num_speculative_tokens,
                  max_batch_size=max_batch_size, lanes=mode_lanes, **tree)
        llm.generate(prompts[:1], SamplingParams(temperature=0.0, max_new_tokens=4))  # warm-up: allocation, first-call costs
        llms[mode] = llm
    best: dict[str, tuple] = {}
    for _ in range(repeats):  # modes interleaved, so a change in machine load hits them alike
        for mode, llm in llms.items():
            t0 = time.perf_counter()
            outs = llm.generate(list(prompts), params)
            wall = time.perf_counter() - t0
            if mode not in best or wall < best[mode][0]:
                best[mode] = (wall, outs, llm.last_trace.summary(), llm.last_trace.steps)
    results, first = [], None
    for mode in modes:
        wall, outs, summary, steps = best[mode]
        verified = sum(s.verify_batch for s in steps)
        tokens = sum(len(o.token_ids) for o in outs)
        ids = [o.token_ids for o in outs]
        first = ids if first is None else first
        results.append({
            "mode": mode,
            "k": num_speculative_tokens,
            "branches": tree_branches if mode.startswith("tree") else 0,
            "requests": len(outs),
            "output_tokens": tokens,
            "target_steps": len(steps),
            "accepted_per_step": sum(s.accepted for s in steps) / verified if verified else 0.0,
            "tokens_per_step": summary.get("tokens_per_target_step", 0.0),
            "verified_per_step": sum(s.proposed for s in steps) / verified if verified else 0.0,
            "draft_s_per_step": sum(s.draft_time for s in steps) / len(steps) if steps else 0.0,
            "verify_s_per_step": sum(s.verify_time for s in steps) / len(steps) if steps else 0.0,
            "wall_s": wall,
            "tokens_per_s": tokens / wall if wall else 0.0,
            "same_as_first": ids == first,
            "errors": sum(o.error is not None for o in outs),
        })
    return results


def stand_in_draft(kind: str, target: Any) -> Any:
    """Drafts built offline from the target, without training (for when no trained draft
    exists): ``int8`` — the target with its decoder layers dynamically quantised to int8
    (same tokens, cheaper matmuls on CPU, high acceptance); ``truncate:N`` — its first N
    layers with its final norm and head (agrees with the target only ~5% of the time on
    SmolLM2-135M: too weak to show anything)."""
    from minedraft.adapters.reference.loading import load_causal_lm

    if target == "smollm2":
        from minedraft.adapters.reference.embedded import target_checkpoint

        target = str(target_checkpoint())
    model = load_causal_lm(target, dtype=torch.float32)
    if kind == "int8":
        from torch.ao.quantization import quantize_dynamic

        quantize_dynamic(model.model.layers, {torch.nn.Linear}, dtype=torch.qint8, inplace=True)
        return model
    if kind.startswith("truncate:"):
        layers = int(kind.split(":", 1)[1])
        model.model.layers = model.model.layers[:layers]
        model.config.num_hidden_layers = layers
        return model
    raise ValueError(f"stand-in draft must be 'int8' or 'truncate:N', got {kind!r}")


def markdown(rows: Sequence[dict[str, Any]]) -> str:
    head = ("| mode | k | K | accepted / step | tokens / step | verified / step | draft ms / step "
            "| verify ms / step | tokens/s | same output |\n|---|---|---|---|---|---|---|---|---|---|\n")
    return head + "".join(
        f"| {r['mode']} | {r['k']} | {r['branches']} | {r['accepted_per_step']:.2f} | {r['tokens_per_step']:.2f} "
        f"| {r['verified_per_step']:.2f} | {1e3 * r['draft_s_per_step']:.0f} | {1e3 * r['verify_s_per_step']:.0f} "
        f"| {r['tokens_per_s']:.1f} | {'yes' if r['same_as_first'] else 'no'} |\n"
        for r in rows
    )


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--target", default="smollm2")
    ap.add_argument("--draft", default="smollm2-draft",
                    help="draft source (default: the shipped draft), or a stand-in built from the target: "
                         "'int8' or 'truncate:N'")
    ap.add_argument("--modes", nargs="+", default=["sd", "tree"])
    ap.add_argument("--prompts", type=int, default=8)
    ap.add_argument("--max-new-tokens", type=int, default=64)
    ap.add_argument("-k", "--num-speculative-tokens", type=int, default=4)
    ap.add_argument("--branches", type=int, default=4)
    ap.add_argument("--branch-tokens", type=int, default=None)
    ap.add_argument("--temperature", type=float, default=0.0)
    ap.add_argument("--max-batch-size", type=int, default=8)
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--dtype", default="auto")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--threads", type=int, default=1, help="intra-op threads of the sequential modes")
    ap.add_argument("--json", default=None, help="also write the rows here")
    args = ap.parse_args(argv)
    draft = args.draft
    if draft == "int8" or draft.startswith("truncate:"):
        draft = stand_in_draft(draft, args.target)
    rows = compare(args.target, draft, prompts=args.prompts, modes=args.modes,
                   num_speculative_tokens=args.num_speculative_tokens, tree_branches=args.branches,
                   tree_branch_tokens=args.branch_tokens, max_new_tokens=args.max_new_tokens,
                   temperature=args.temperature, max_batch_size=args.max_batch_size, repeats=args.repeats,
                   dtype=args.dtype, device=args.device, threads=args.threads)
    print(markdown(rows))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
