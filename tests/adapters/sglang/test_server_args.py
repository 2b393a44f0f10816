"""`--speculative-algorithm MINEDRAFT` through SGLang's real argument parser and resolver."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

pytest.importorskip("sglang")

from minedraft.adapters.sglang.config import (
    ENV_DRAFT_DEVICE,
    ENV_LANE_THREADS,
    ENV_LANES,
    ENV_SLACK,
    handle_server_args,
    options_from_env,
    validate_server_args,
)
from minedraft.types import InvalidInputError


def test_num_draft_tokens_sets_the_chain_and_the_synchronous_scheduler(resolve):
    _, view = resolve("--speculative-algorithm", "minedraft", "--speculative-num-draft-tokens", "5")
    assert view.speculative_algorithm == "MINEDRAFT"
    assert (view.speculative_num_steps, view.speculative_num_draft_tokens, view.speculative_eagle_topk) == (4, 5, 1)
    assert view.disable_overlap_schedule is True
    assert view.max_running_requests == 48


def test_defaults_and_explicit_values_are_kept(resolve):
    _, view = resolve("--speculative-algorithm", "MINEDRAFT")
    assert (view.speculative_num_steps, view.speculative_num_draft_tokens) == (3, 4)
    _, view = resolve("--speculative-algorithm", "MINEDRAFT", "--speculative-num-steps", "2",
                      "--max-running-requests", "7", "--disable-overlap-schedule")
    assert (view.speculative_num_steps, view.speculative_num_draft_tokens, view.max_running_requests) == (2, 3, 7)


@pytest.mark.parametrize(
    "extra, draft, message",
    [
        ((), False, "--speculative-draft-model-path is required"),
        (("--speculative-eagle-topk", "4"), True, "--speculative-eagle-topk must be 1"),
        (("--speculative-num-steps", "2", "--speculative-num-draft-tokens", "5"), True, r"must equal --speculative-num-steps \+ 1"),
        (("--speculative-num-draft-tokens", "1"), True, "must be an int >= 2"),
        (("--speculative-use-rejection-sampling",), True, "--speculative-use-rejection-sampling"),
        # Attention data parallelism, in its 0.5.23 spelling and in the deprecated one SGLang
        # rewrites into it (clearing --enable-dp-attention before the plugin sees it).
        (("--tp-size", "2", "--attn-dp-size", "2"), True, "--attn-dp-size must be 1"),
        (("--tp-size", "2", "--dp-size", "2", "--enable-dp-attention"), True, "--attn-dp-size must be 1"),
        (("--enable-return-routed-experts",), True, "--enable-return-routed-experts"),
    ],
)
def test_bad_combinations_fail_with_the_flag_named(resolve, extra, draft, message):
    with pytest.raises(ValueError, match=message):
        resolve("--speculative-algorithm", "MINEDRAFT", *extra, draft=draft)


@pytest.mark.parametrize(
    "env, message",
    [
        ({ENV_LANES: "gpu"}, ENV_LANES),
        ({ENV_LANES: "devices"}, "cannot run on another device"),
        ({ENV_LANE_THREADS: "0"}, ENV_LANE_THREADS),
        ({ENV_DRAFT_DEVICE: "cuda:1"}, "separate draft GPU is not supported"),
        ({ENV_SLACK: "-2"}, ENV_SLACK),
    ],
)
def test_bad_environment_fails_at_parse_time(resolve, monkeypatch, env, message):
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    with pytest.raises(ValueError, match=message):
        resolve("--speculative-algorithm", "MINEDRAFT")


def test_the_threads_lane_needs_one_tensor_parallel_rank(resolve, monkeypatch):
    monkeypatch.setenv(ENV_LANES, "threads")
    with pytest.raises(ValueError, match=r"MINEDRAFT_SGLANG_LANES=threads needs --tp-size 1.*got 2"):
        resolve("--speculative-algorithm", "MINEDRAFT", "--tp-size", "2")


@pytest.mark.parametrize(("extra", "graphs"), [
    ((), True),
    (("--disable-cuda-graph",), False),
    (("--disable-decode-cuda-graph",), False),
    (("--cuda-graph-backend-decode", "disabled"), False),
    (("--disable-cuda-graph", "--cuda-graph-config", '{"decode": {"backend": "full"}}'), True),
])
def test_decode_graphs_are_read_from_the_resolved_config(resolve, extra, graphs):
    from minedraft.adapters.sglang.config import decode_graphs_on

    args, view = resolve("--speculative-algorithm", "MINEDRAFT", *extra)
    assert decode_graphs_on(view) is graphs


def test_all_problems_are_reported_together():
    args = SimpleNamespace(speculative_eagle_topk=2, speculative_use_rejection_sampling=True, pp_size=2,
                           disaggregation_mode="prefill")
    with pytest.raises(InvalidInputError) as info:
        validate_server_args(args, environ={})
    text = str(info.value)
    for flag in ("--speculative-draft-model-path", "--speculative-eagle-topk", "--speculative-use-rejection-sampling",
                 "--pp-size", "--disaggregation-mode"):
        assert flag in text


def test_handle_server_args_on_a_plain_namespace():
    args = SimpleNamespace(speculative_num_steps=None, speculative_num_draft_tokens=6, max_running_requests=None,
                           disable_overlap_schedule=False, enable_mixed_chunk=True)
    handle_server_args(args)
    assert (args.speculative_num_steps, args.speculative_num_draft_tokens, args.speculative_eagle_topk) == (5, 6, 1)
    assert args.disable_overlap_schedule is True and args.enable_mixed_chunk is False


def test_options_from_env():
    assert options_from_env({}).lanes is None  # the worker picks by device
    opts = options_from_env({ENV_LANES: "Sequential", ENV_SLACK: "3", ENV_DRAFT_DEVICE: "same"})
    assert (opts.lanes, opts.slack, opts.draft_device) == ("inline", 3, "same")
    # The old spellings are aliases of the one lane vocabulary (minedraft.lanes).
    for alias, kind in (("stream", "cuda_streams"), ("cuda_streams", "cuda_streams"), ("inline", "inline"),
                        ("thread", "threads")):
        assert options_from_env({ENV_LANES: alias}).lanes == kind
    assert options_from_env({}).lane_threads is None  # the worker halves the process's threads
    assert options_from_env({ENV_LANES: "threads", ENV_LANE_THREADS: "2"}).lane_threads == 2


def test_worker_creation_returns_the_minedraft_worker_and_leaves_standalone_alone(resolve):
    from sglang.srt.speculative.spec_info import SpeculativeAlgorithm
    from sglang.srt.speculative.standalone_worker_v2 import StandaloneWorkerV2

    from minedraft.adapters.sglang.worker import MineDraftWorker

    args, view = resolve("--speculative-algorithm", "MINEDRAFT")
    assert SpeculativeAlgorithm.from_string(view.speculative_algorithm).create_worker(args) is MineDraftWorker
    args, view = resolve("--speculative-algorithm", "STANDALONE", "--speculative-num-steps", "2",
                         "--speculative-eagle-topk", "1", "--speculative-num-draft-tokens", "3")
    assert SpeculativeAlgorithm.from_string(view.speculative_algorithm).create_worker(args) is StandaloneWorkerV2
