"""``minedraft generate``: run one or more prompts through AR, SD or PSD and print the text."""

from __future__ import annotations

import argparse
import json

from ..cli_options import add_mode_option_args, mode_options
from ..schedulers import SCHEDULERS


def add_engine_args(p: argparse.ArgumentParser, default_mode: str = "psd") -> None:
    """Engine options shared by generate and bench."""
    p.add_argument("--target", default="smollm2", help="target model: directory, .gguf file, hub id or 'smollm2'")
    p.add_argument("--draft", default="smollm2-draft", help="draft model (same sources; default: shipped draft)")
    p.add_argument("--mode", default=default_mode, choices=sorted(SCHEDULERS), help="decoding mode (default %(default)s)")
    p.add_argument("--backend", default="reference", help="engine backend (default %(default)s)")
    p.add_argument("-k", "--num-speculative-tokens", type=int, default=4, help="draft length k (default %(default)s)")
    p.add_argument("--max-batch-size", type=int, default=16,
                   help="requests verified together, per sub-batch under PSD (default %(default)s)")
    p.add_argument("--dtype", default="auto", help="model dtype; auto: bf16 where the hardware runs it fast, else fp16 (GPU) or fp32 (default %(default)s)")
    p.add_argument("--device", default="cpu", help="cpu or cuda[:N] (default %(default)s)")
    p.add_argument("--draft-device", default=None, help="the draft's own device (default: --device)")
    p.add_argument("--lanes", default=None, help="inline | threads | cuda_streams | devices (default: by mode)")
    p.add_argument("--allow-pickle", action="store_true", help="allow loading pickle checkpoints (*.bin)")
    p.add_argument("--trust-remote-code", action="store_true")
    add_mode_option_args(p)


def engine_kwargs(args: argparse.Namespace) -> dict:
    return dict(
        backend=args.backend, num_speculative_tokens=args.num_speculative_tokens,
        max_batch_size=args.max_batch_size, dtype=args.dtype, device=args.device,
        draft_device=args.draft_device, lanes=args.lanes,
        allow_pickle=args.allow_pickle, trust_remote_code=args.trust_remote_code,
    )


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("generate", help="generate text for prompts")
    add_engine_args(p)
    p.add_argument("prompts", nargs="+", help="prompt texts")
    p.add_argument("--max-new-tokens", type=int, default=64, help="default %(default)s")
    p.add_argument("--temperature", type=float, default=0.0, help="0: greedy (default %(default)s)")
    p.add_argument("--top-k", type=int, default=0, help="0: off (default %(default)s)")
    p.add_argument("--top-p", type=float, default=1.0, help="default %(default)s")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--chat", action="store_true", help="wrap each prompt in the target's chat template")
    p.add_argument("--json", action="store_true", help="print one JSON object per request")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..api import LLM
    from ..types import SamplingParams

    params = SamplingParams(
        temperature=args.temperature, top_k=args.top_k, top_p=args.top_p, seed=args.seed,
        max_new_tokens=args.max_new_tokens,
    )
    llm = LLM(args.target, None if args.mode == "ar" else args.draft, mode=args.mode, **engine_kwargs(args),
              **mode_options(args))
    prompts = args.prompts
    if args.chat:
        outputs = llm.chat([[{"role": "user", "content": p}] for p in prompts], params)
    else:
        outputs = llm.generate(prompts, params)
    summary = llm.last_trace.summary()
    for prompt, out in zip(prompts, outputs):
        if args.json:
            print(json.dumps({"request_id": out.request_id, "text": out.text, "token_ids": out.token_ids,
                              "finish_reason": out.finish_reason, "error": out.error, **out.metrics}))
        else:
            print(f"--- {out.request_id} ({out.finish_reason}, {len(out.token_ids)} tokens)")
            if args.chat:  # the user's message and the answer, not the chat template around them
                print(f"> {prompt}\n{out.text or ''}")
            else:
                print((out.prompt or "") + (out.text or ""))
            if out.error:
                print(f"error: {out.error}")
    if not args.json:
        print(f"--- mode={args.mode} steps={summary.get('steps')} acceptance={summary.get('acceptance_rate', 0):.3f} "
              f"tokens/target-step={summary.get('tokens_per_target_step', 0):.2f} "
              f"overlapped={summary.get('overlapped_share', 0):.2f}")
    return 1 if any(o.error for o in outputs) else 0
