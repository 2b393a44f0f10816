"""``minedraft bench-serving``: requests arriving over time (Poisson at each request rate,
or a fixed concurrency), per mode: output tokens/s, TTFT, TPOT, ITL and end-to-end latency
at p50/p90/p99, goodput under an SLO. In-process against the embedded engine, or with
``--base-url`` against any OpenAI-compatible server; writes serving.json and serving.png."""

from __future__ import annotations

import argparse
import math
import sys

from ..cli_options import mode_options
from .bench import _names
from .generate import add_engine_args, engine_kwargs

_HIDDEN = ("mode", "max_batch_size", "lanes")


def _rates(text: str) -> tuple[float, ...]:
    try:
        rates = tuple(math.inf if x.strip().lower() == "inf" else float(x) for x in text.split(",") if x.strip())
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"expected comma-separated numbers or inf, got {text!r}") from exc
    if not rates or any(not r > 0 for r in rates):
        raise argparse.ArgumentTypeError(f"request rates must be > 0 (or inf), got {text!r}")
    return rates


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench-serving", help="serving benchmark: arrivals over time, latency percentiles, goodput",
                       description=__doc__)
    add_engine_args(p)
    for action in p._actions:
        if action.dest in _HIDDEN:
            action.help = argparse.SUPPRESS
    p.add_argument("--modes", type=_names, default=("ar", "sd", "psd"), help="comma-separated modes (in-process)")
    p.add_argument("--request-rates", type=_rates, default=(2.0, 4.0, 8.0, math.inf),
                   help="offered loads in requests/s, e.g. 2,4,8,inf (inf: all at once)")
    p.add_argument("--max-concurrency", type=int, default=None, help="at most this many requests outstanding")
    p.add_argument("--burstiness", type=float, default=1.0, help="gamma shape of arrival gaps (1: Poisson)")
    p.add_argument("--num-prompts", type=int, default=32, help="requests per mode and rate")
    p.add_argument("--max-running", type=int, default=8,
                   help="requests in flight in the engine (AR/SD batch; PSD/flex: two sub-batches of half)")
    p.add_argument("--max-new-tokens", type=int, default=32)
    p.add_argument("--max-new-tokens-spread", type=float, default=0.5, metavar="S",
                   help="output lengths drawn from [N(1-S), N(1+S)] per request (seeded)")
    p.add_argument("--temperature", type=float, default=0.0)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--prompt-class", default="chat", choices=("chat", "text", "code"))
    p.add_argument("--no-chat", dest="chat", action="store_false", help="do not chat-template chat prompts")
    p.add_argument("--slo-ttft", type=float, default=None, metavar="MS", help="goodput SLO on TTFT, milliseconds")
    p.add_argument("--slo-tpot", type=float, default=None, metavar="MS", help="goodput SLO on TPOT, milliseconds")
    p.add_argument("--sequential-threads", type=int, default=None,
                   help="intra-op threads of AR/SD (default: PSD's two lanes x --lane-threads, equal cores)")
    p.add_argument("--lane-threads", type=int, default=1)
    p.add_argument("--no-warmup", dest="warmup", action="store_false")
    p.add_argument("--base-url", default=None, help="HTTP transport: an OpenAI-compatible server, e.g. "
                                                    "http://127.0.0.1:30000")
    p.add_argument("--model", default=None, help="HTTP: the model name to send")
    p.add_argument("--server-label", default="server", help="HTTP: the name of this server's rows")
    p.add_argument("--out", dest="out_dir", default="minedraft-bench-serving")
    p.add_argument("--label", default=None)
    p.add_argument("--no-progress", dest="progress", action="store_false")
    p.set_defaults(func=run)


def config_from_args(args: argparse.Namespace):
    from ..bench.serving import ServingConfig

    eng = engine_kwargs(args)
    options = mode_options(args)  # each mode of the run gets those it takes
    ms = {name: None if getattr(args, name) is None else getattr(args, name) / 1000 for name in ("slo_ttft", "slo_tpot")}
    return ServingConfig(
        target=args.target, draft=args.draft, backend=eng["backend"], modes=args.modes,
        request_rates=args.request_rates, max_concurrency=args.max_concurrency, burstiness=args.burstiness,
        num_prompts=args.num_prompts, max_running=args.max_running, k=args.num_speculative_tokens,
        max_new_tokens=args.max_new_tokens, max_new_tokens_spread=args.max_new_tokens_spread,
        temperature=args.temperature, seed=args.seed, prompt_class=args.prompt_class, chat=args.chat,
        sequential_threads=args.sequential_threads, lane_threads=args.lane_threads, dtype=eng["dtype"],
        device=eng["device"], draft_device=eng["draft_device"], allow_pickle=eng["allow_pickle"],
        trust_remote_code=eng["trust_remote_code"], warmup=args.warmup, base_url=args.base_url, model=args.model,
        server_label=args.server_label, out_dir=args.out_dir, label=args.label, progress=args.progress,
        scheduler_options=options, **ms,
    )


def run(args: argparse.Namespace) -> int:
    from ..bench.serving import run_serving

    config = config_from_args(args)
    argv = sys.argv[2:] if len(sys.argv) > 2 and sys.argv[1] == "bench-serving" else None
    results = run_serving(config, argv=argv, print_report=True)
    return 1 if any(r["errors"] for r in results["runs"]) else 0
