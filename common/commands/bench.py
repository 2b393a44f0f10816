"""``minedraft bench``: AR, SD and PSD (and transformers' generate / assisted generation)
on one model pair, interleaved; prints a table, writes results.json, plots and a trace."""

from __future__ import annotations

import argparse
import sys

from ..cli_options import mode_options
from .generate import add_engine_args, engine_kwargs

_HIDDEN = ("mode", "max_batch_size", "lanes")  # from add_engine_args; bench sweeps them instead


def _ints(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"expected comma-separated integers, got {text!r}") from exc


def _names(text: str) -> tuple[str, ...]:
    return tuple(x.strip() for x in text.split(",") if x.strip())


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench", help="compare AR, SD and PSD (and HF generate) on one model pair",
                       description=__doc__)
    add_engine_args(p)
    for action in p._actions:
        if action.dest in _HIDDEN:
            action.help = argparse.SUPPRESS
    p.add_argument("--quick", action="store_true", help="small preset: about a minute on 2 CPU cores")
    p.add_argument("--sweep", choices=["psd"], default=None,
                   help="psd: PSD against SD at sub-batch sizes 1,4,8,16 and k in 2,4,6")
    p.add_argument("--modes", type=_names, default=None, help="comma-separated modes (default ar,sd,psd)")
    p.add_argument("--in-flight", type=_ints, default=None, metavar="C,...",
                   help="the grid, by requests in flight, e.g. 1,2,8,16 (default): AR/SD verify c together, "
                        "PSD/flex hold two sub-batches of c/2; every ratio compares equal load")
    p.add_argument("--batch-sizes", type=_ints, default=None,
                   help="the older grid instead: every mode at max_batch_size b (PSD per sub-batch, so 2b in "
                        "flight); ratios pair equal loads where the grid has them and label the rest")
    p.add_argument("--ks", type=_ints, default=None, help="draft lengths, e.g. 2,4,6 (default: -k)")
    p.add_argument("--repeats", type=int, default=None, help="repetitions of every trial (interleaved)")
    p.add_argument("--max-new-tokens", type=int, default=None)
    p.add_argument("--max-new-tokens-spread", type=float, default=None, metavar="S",
                   help="draw each request's output length from [N(1-S), N(1+S)], N = --max-new-tokens "
                        "(seeded, the same in every mode; default 0: all N). Peers are skipped")
    p.add_argument("--requests-per-batch", type=int, default=None, help="requests per trial = this x b (default 2)")
    p.add_argument("--temperature", type=float, default=None)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--sequential-threads", type=int, default=None,
                   help="intra-op threads of AR, SD and the peers (default: PSD's two lanes x --lane-threads, "
                        "equal cores; less is reported as UNEQUAL CORES)")
    p.add_argument("--lane-threads", type=int, default=None, help="intra-op threads per PSD lane (default 1)")
    p.add_argument("--no-peers", dest="peers", action="store_false", default=None,
                   help="skip transformers generate / assisted generation")
    p.add_argument("--no-cooperative", dest="cooperative", action="store_false", default=None,
                   help="skip the cooperative-verification micro-measurement")
    p.add_argument("--no-calibrate", dest="calibrate", action="store_false", default=None,
                   help="skip timing T_draft/T_verify (no steady-state predictions; the model fitted to the run's own "
                        "decode steps is still judged)")
    p.add_argument("--no-recalibrate", dest="recalibrate", action="store_false", default=None,
                   help="calibrate once, before the first repetition, instead of before every repetition (each "
                        "trial is otherwise predicted from the calibration just before it)")
    p.add_argument("--no-warmup", dest="warmup", action="store_false", default=None)
    p.add_argument("--no-flex-learning", dest="flex_learning", action="store_false", default=None,
                   help="time flex from a cold policy (no untimed learning trial per b, k)")
    p.add_argument("--no-chat", dest="chat", action="store_false", default=None,
                   help="do not wrap prompts in the target's chat template")
    p.add_argument("--prompt-class", default=None, choices=("chat", "text", "code"),
                   help="held-out prompts: chat (default), text (raw-text completion) or code (code "
                        "completion); text and code are never chat-templated")
    p.add_argument("--no-steps", dest="keep_steps", action="store_false", default=None,
                   help="leave per-step columns out of results.json")
    p.add_argument("--timeline-batch", type=int, default=None, help="batch size shown in timeline.png")
    p.add_argument("--out", dest="out_dir", default=None, help="output directory (default ./minedraft-bench)")
    p.add_argument("--label", default=None, help="name of this run in compare tables")
    p.add_argument("--no-progress", dest="progress", action="store_false", default=None)
    p.set_defaults(func=run)


_FIELDS = ("modes", "in_flight", "batch_sizes", "ks", "repeats", "max_new_tokens", "max_new_tokens_spread", "requests_per_batch",
           "temperature", "seed", "sequential_threads", "lane_threads", "peers", "cooperative", "calibrate", "recalibrate",
           "warmup", "flex_learning", "chat", "prompt_class", "keep_steps", "timeline_batch", "out_dir", "label", "progress")


def config_from_args(args: argparse.Namespace):
    from ..bench import PRESETS, BenchConfig

    preset = "psd" if args.sweep == "psd" else ("quick" if args.quick else "default")
    fields = dict(PRESETS.get(preset, {}))
    if args.batch_sizes is not None and args.in_flight is None:
        fields.pop("in_flight", None)  # the user chose the batch grid over the preset's
    fields.update({name: getattr(args, name) for name in _FIELDS if getattr(args, name) is not None})
    if args.ks is None and "ks" not in PRESETS.get(preset, {}):
        fields["ks"] = (args.num_speculative_tokens,)
    eng = engine_kwargs(args)
    options = mode_options(args)  # each mode of the run gets those it takes
    return BenchConfig(
        target=args.target, draft=args.draft, backend=eng["backend"], dtype=eng["dtype"], device=eng["device"],
        draft_device=eng["draft_device"], allow_pickle=eng["allow_pickle"], trust_remote_code=eng["trust_remote_code"],
        preset=preset, scheduler_options=options, **fields,
    )


def run(args: argparse.Namespace) -> int:
    from ..bench import run_bench

    config = config_from_args(args)
    results = run_bench(config, argv=sys.argv[2:] if len(sys.argv) > 2 and sys.argv[1] == "bench" else None,
                        print_report=True)
    errors = sum(t["errors"] for t in results["trials"])
    return 1 if errors else 0
