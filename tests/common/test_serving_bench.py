"""minedraft bench-serving: metric definitions on synthetic timestamps, the seeded arrival
schedule, the in-process transport (lossless against AR greedy) and the HTTP transport
against a small local OpenAI-compatible streaming server. Nothing here asserts speed."""

from __future__ import annotations

import asyncio
import json
import math
import statistics
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import torch

from minedraft.api import LLM
from minedraft.bench import BenchConfig
from minedraft.bench.arrivals import ServingRequest, arrival_times, build_requests
from minedraft.bench.schema import load_serving, validate_serving
from minedraft.bench.serving import ServingBench, ServingConfig, in_process_transport
from minedraft.bench.serving_client import HTTPTransport, run_load
from minedraft.bench.serving_metrics import RequestRecord, summarize
from minedraft.bench.serving_report import render_serving
from minedraft.cli import build_parser, main
from minedraft.types import InvalidInputError, SamplingParams

from conftest import build_pair, tiny_llama


# -- metrics --------------------------------------------------------------------------------------
def _rec(i: int, start: float, chunks: list[float], tokens: list[int], error: str | None = None) -> RequestRecord:
    return RequestRecord(i, arrival=start, start=start, end=chunks[-1] if chunks else start + 1, chunk_times=chunks,
                         chunk_tokens=tokens, output_tokens=sum(tokens), error=error)


def test_metrics_follow_the_serving_definitions_exactly():
    records = [
        _rec(0, 0.0, [0.5, 1.0, 1.5], [1, 2, 1]),  # TTFT 0.5, E2E 1.5, TPOT (1.5-0.5)/3, ITL 0.5, 0.5
        _rec(1, 1.0, [1.2, 2.2], [1, 1]),  # TTFT 0.2, E2E 1.2, TPOT 1.0, ITL 1.0
        _rec(2, 2.0, [3.0], [1]),  # TTFT 1.0, E2E 1.0, one token: no TPOT, no ITL
        _rec(3, 2.0, [], [], error="HTTP 500: boom"),  # counted as an error, not in the distributions
    ]
    m = summarize(records, duration=4.0, slo_ttft=0.6, slo_tpot=0.5)
    assert (m["num_requests"], m["completed"], m["errors"], m["error_messages"]) == (4, 3, 1, ["HTTP 500: boom"])
    assert m["output_tokens"] == 7 and m["output_throughput"] == pytest.approx(7 / 4)
    assert m["request_throughput"] == pytest.approx(3 / 4)
    # TTFT values 0.2, 0.5, 1.0: p50 0.5, p90 = 0.5 + 0.8 * 0.5, p99 = 0.5 + 0.98 * 0.5
    assert m["ttft"]["p50"] == pytest.approx(0.5) and m["ttft"]["p90"] == pytest.approx(0.9)
    assert m["ttft"]["p99"] == pytest.approx(0.99) and m["ttft"]["mean"] == pytest.approx(1.7 / 3)
    # TPOT values 1/3 and 1.0
    assert m["tpot"]["p50"] == pytest.approx(2 / 3) and m["tpot"]["p90"] == pytest.approx(1 / 3 + 0.9 * 2 / 3)
    # ITL pooled over requests: 0.5, 0.5, 1.0
    assert m["itl"]["p50"] == pytest.approx(0.5) and m["itl"]["p99"] == pytest.approx(0.5 + 0.98 * 0.5)
    assert m["e2e_latency"]["p50"] == pytest.approx(1.2) and m["e2e_latency"]["p90"] == pytest.approx(1.2 + 0.8 * 0.3)
    assert m["tokens_per_chunk"] == pytest.approx(7 / 6)
    # SLO TTFT <= 0.6 and TPOT <= 0.5: request 0 only (1: TPOT 1.0; 2: TTFT 1.0; 3: failed)
    assert (m["good_requests"], m["goodput"]) == (1, pytest.approx(1 / 4))
    assert summarize(records, 4.0, slo_ttft=1.0)["good_requests"] == 3  # one-token request: TPOT counts as 0
    assert summarize(records, 4.0)["goodput"] is None  # no SLO, no goodput
    assert summarize([], 1.0)["ttft"] == {"mean": None, "p50": None, "p90": None, "p99": None}


# -- arrivals -------------------------------------------------------------------------------------
def test_arrival_schedule_is_seeded_poisson_and_reproducible():
    a = arrival_times(4000, rate=8.0, seed=3)
    assert a == arrival_times(4000, rate=8.0, seed=3) and a != arrival_times(4000, rate=8.0, seed=4)
    assert a[0] == 0.0 and all(y >= x for x, y in zip(a, a[1:]))
    gaps = [y - x for x, y in zip(a, a[1:])]
    # exponential gaps: mean 1/rate and coefficient of variation 1 (fixed seed, 4000 draws)
    assert statistics.fmean(gaps) == pytest.approx(1 / 8, rel=0.05)
    assert statistics.pstdev(gaps) / statistics.fmean(gaps) == pytest.approx(1.0, rel=0.06)
    assert arrival_times(3, math.inf, seed=0) == [0.0, 0.0, 0.0]
    # the same seed at twice the rate: the same schedule, twice as dense
    assert arrival_times(50, 16.0, seed=3) == pytest.approx([t / 2 for t in a[:50]])
    with pytest.raises(InvalidInputError, match="request rate must be a number > 0"):
        arrival_times(2, 0.0, seed=0)


def test_requests_draw_prompts_and_lengths_from_the_seed():
    ids = [[i + 2] * (i + 1) for i in range(5)]
    reqs = build_requests(ids, [None] * 5, 8, 4.0, 10, 0.5, seed=1)
    assert reqs == build_requests(ids, [None] * 5, 8, 4.0, 10, 0.5, seed=1)
    assert sorted(r.prompt_ids for r in reqs[:5]) == sorted(tuple(x) for x in ids)  # the whole set first
    assert all(5 <= r.max_new_tokens <= 15 for r in reqs) and len({r.max_new_tokens for r in reqs}) > 1
    assert [r.arrival for r in reqs] == arrival_times(8, 4.0, seed=1)
    with pytest.raises(InvalidInputError, match="num_prompts"):
        build_requests(ids, [None] * 5, 0, 4.0, 10, 0.5, seed=1)


# -- in-process -----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def engines():
    torch.set_num_threads(1)
    return build_pair(tiny_llama(layers=2, hidden=64, seed=0), tiny_llama(layers=1, hidden=32, seed=1),
                      max_batch_size=4)


def _config(tmp_path, **kw) -> ServingConfig:
    base = dict(target="tiny-target", draft="tiny-draft", modes=("ar", "sd", "psd", "flex"),
                request_rates=(40.0, math.inf), num_prompts=6, max_running=4, k=2, max_new_tokens=5,
                out_dir=str(tmp_path), progress=False, dtype="float64", warmup=False, lane_threads=1,
                sequential_threads=1)
    base.update(kw)
    return ServingConfig(**base)


def test_in_process_serving_answers_every_request_with_ar_greedy_tokens(engines, tmp_path):
    config = _config(tmp_path, slo_ttft=60.0, slo_tpot=60.0)
    bench = ServingBench(config, engines)
    results = bench.run()
    requests = bench.requests(math.inf)
    ar = LLM("t", None, mode="ar", engines=engines, max_batch_size=4).generate(
        [list(r.prompt_ids) for r in requests],
        [SamplingParams(temperature=0.0, max_new_tokens=r.max_new_tokens, ignore_eos=True) for r in requests])
    expected = [o.token_ids for o in ar]
    assert {(r["mode"], r["request_rate"]) for r in results["runs"]} == {
        (m, rate) for m in config.modes for rate in (40.0, None)}
    for run in results["runs"]:
        assert (run["completed"], run["errors"]) == (6, 0), run["mode"]
        assert run["output_tokens"] == sum(r.max_new_tokens for r in requests)
        assert run["good_requests"] == 6 and run["matches_reference"] == 1.0
        assert all(r["ttft"] is not None and r["latency"] >= r["ttft"] for r in run["requests"])
    for mode in config.modes:  # token for token, every mode at every rate
        for rate in (40.0, math.inf):
            assert bench.outputs[(mode, rate)] == expected, (mode, rate)
    saved = load_serving(tmp_path / "serving.json")
    assert saved["runs"][0]["ttft"].keys() == {"mean", "p50", "p90", "p99"} and (tmp_path / "serving.png").exists()
    assert "UNEQUAL CORES" in render_serving(results)  # 1 thread for AR/SD against PSD's 2 lanes x 1
    assert results["conditions"]["process_cores"] > 0 and "cores busy" in render_serving(results)
    assert {r["batch_size"] for r in results["runs"] if r["mode"] == "psd"} == {2}  # two sub-batches of 2
    assert {r["batch_size"] for r in results["runs"] if r["mode"] == "flex"} == {4}  # its cap covers both
    assert {r["mode"]: r["k"] for r in results["runs"]} == {"ar": 0, "sd": 2, "psd": 2, "flex": 2}


def test_one_token_requests_draft_nothing_and_have_no_acceptance_rate(engines, tmp_path):
    results = ServingBench(_config(tmp_path, modes=("sd",), request_rates=(math.inf,), num_prompts=2,
                                   max_new_tokens=1, max_new_tokens_spread=0.0), engines).run()
    (run,) = results["runs"]
    assert run["completed"] == 2 and run["acceptance_rate"] is None  # not 0: nothing was drafted


def test_in_process_errors_reach_the_client_and_are_counted(engines):
    config = _config(".", modes=("sd",))
    transport, _ = in_process_transport(config, engines, "sd")
    too_long = ServingRequest(1, 0.0, tuple([3] * (engines.target.max_context + 2)), None, 4)
    fine = ServingRequest(0, 0.0, (5, 6, 7), None, 3)

    async def go():
        await transport.start()
        try:
            return await run_load(transport, [fine, too_long], max_concurrency=1)
        finally:
            await transport.close()

    records, _, _ = asyncio.run(go())
    assert records[0].ok and records[0].output_tokens == 3
    assert not records[1].ok and "context window" in records[1].error
    assert summarize(records, 1.0)["errors"] == 1


def test_serving_config_names_bad_fields():
    with pytest.raises(InvalidInputError, match="max_running must be even"):
        ServingConfig(modes=("sd", "psd"), max_running=5)
    with pytest.raises(InvalidInputError, match="request_rates"):
        ServingConfig(request_rates=(0.0,))
    with pytest.raises(InvalidInputError, match="modes must be distinct"):
        ServingConfig(modes=("sd", "warp"))
    # Refused up front, not after the engines are built and warmed up.
    for field, value, message in [("max_new_tokens_spread", 1.0, r"in \[0, 1\), got 1.0"),
                                  ("burstiness", 0, r"> 0, got 0"), ("temperature", -1, r">= 0, got -1")]:
        with pytest.raises(InvalidInputError, match=rf"{field} must be a number {message}"):
            ServingConfig(**{field: value})
    # Mode options as minedraft bench checks them: a value no mode takes, or a bad value.
    with pytest.raises(InvalidInputError, match=r"tree_branches is not an option of any mode of this run \['sd'\]"):
        ServingConfig(modes=("sd",), scheduler_options={"tree_branches": 2})
    with pytest.raises(InvalidInputError, match=r"SMCOptions.num_particles"):
        ServingConfig(modes=("sd", "smc"), scheduler_options={"num_particles": 0})


def test_an_output_folder_that_cannot_be_made_is_refused_before_the_run(tmp_path):
    # Checked up front: the results are written at the end, and a run would be lost.
    (tmp_path / "a-file").write_text("")
    with pytest.raises(InvalidInputError, match=r"out_dir must be a folder, got .*a-file', which is a file"):
        ServingConfig(out_dir=str(tmp_path / "a-file"))
    with pytest.raises(InvalidInputError, match=r"out_dir .*below' cannot be made: .*a-file' is a file"):
        BenchConfig(out_dir=str(tmp_path / "a-file" / "below"))
    BenchConfig(out_dir=str(tmp_path / "new" / "deeper"))  # made when the results are written
    assert ServingConfig(lane_threads=2).sequential_threads == 4  # equal cores by default


# -- HTTP -----------------------------------------------------------------------------------------
class _SSEHandler(BaseHTTPRequestHandler):
    """A tiny OpenAI-compatible /v1/completions: streams one chunk per token (the token text
    is 't<i>'), then usage and [DONE]. Prompt 'fail-http' answers 500; 'fail-stream' sends
    an error event mid-stream; 'cut-off' closes the connection after two chunks; 'null-error'
    carries ``"error": null`` on every chunk, as some servers do."""

    def log_message(self, *args):  # keep pytest output clean
        pass

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        assert self.path == "/v1/completions" and body["stream"] is True
        if body["prompt"] == "fail-http":
            self.send_response(500)
            self.end_headers()
            self.wfile.write(b'{"error": "boom"}')
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        for i in range(body["max_tokens"]):
            if body["prompt"] == "fail-stream" and i == 2:
                self._event({"error": {"message": "out of memory"}})
                return
            if body["prompt"] == "cut-off" and i == 2:
                return  # HTTP/1.0: the connection closes, the body ends with no usage and no [DONE]
            extra = {"error": None} if body["prompt"] == "null-error" else {}
            self._event({"choices": [{"index": 0, "text": f"t{i}"}], **extra})
        self._event({"choices": [], "usage": {"prompt_tokens": 3, "completion_tokens": body["max_tokens"]}})
        self.wfile.write(b"data: [DONE]\n\n")

    def _event(self, obj):
        self.wfile.write(f"data: {json.dumps(obj)}\n\n".encode())
        self.wfile.flush()


@pytest.fixture()
def server():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _SSEHandler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()
    thread.join(timeout=5)


def test_http_transport_answers_every_request_and_surfaces_errors(server):
    texts = ["hello", "fail-http", "world", "fail-stream", "cut-off", "null-error"]
    requests = [ServingRequest(i, 0.01 * i, (), t, 4 + i) for i, t in enumerate(texts)]
    transport = HTTPTransport(server, model="m", timeout=10)

    async def go():
        await transport.start()
        try:
            return await asyncio.wait_for(run_load(transport, requests, max_concurrency=2), timeout=20)
        finally:
            await transport.close()

    records, _, _ = asyncio.run(go())
    assert [r.index for r in records] == [0, 1, 2, 3, 4, 5]
    assert records[0].ok and records[0].output_tokens == 4 and len(records[0].chunk_times) == 4
    assert records[2].ok and records[2].output_tokens == 6 and records[2].prompt_tokens == 3
    assert records[1].error.startswith("HTTP 500") and "boom" in records[1].error
    assert "out of memory" in records[3].error
    assert "cut off" in records[4].error and len(records[4].chunk_times) == 2  # not a completed request
    assert records[5].ok and records[5].output_tokens == 9
    assert summarize(records, 1.0)["errors"] == 3
    assert transport.payload(requests[0])["max_tokens"] == 4 and transport.payload(requests[0])["ignore_eos"]


def test_http_sweep_writes_the_same_schema_and_fails_on_errors(server, tmp_path, capsys):
    out = tmp_path / "http"
    code = main(["bench-serving", "--base-url", server, "--request-rates", "50,inf", "--num-prompts", "5",
                 "--max-new-tokens", "3", "--prompt-class", "code", "--out", str(out), "--no-progress",
                 "--server-label", "toy", "--slo-ttft", "5000"])
    assert code == 0
    results = load_serving(out / "serving.json")
    assert [(r["mode"], r["transport"], r["request_rate"]) for r in results["runs"]] == [
        ("toy", "http", 50.0), ("toy", "http", None)]
    assert all(r["completed"] == 5 and r["good_requests"] == 5 and r["k"] == 0 for r in results["runs"])
    assert results["conditions"]["process_cores"] is None  # the engine's cores are the server's, not the client's
    printed = capsys.readouterr().out
    assert "toy" in printed and f"server={server} model=-" in printed and "target=" not in printed
    dead = main(["bench-serving", "--base-url", "http://127.0.0.1:9", "--request-rates", "inf", "--num-prompts", "2",
                 "--max-new-tokens", "2", "--out", str(tmp_path / "dead"), "--no-progress", "--no-warmup"])
    assert dead == 1  # connection refused: every request carries the error, the command fails
    assert load_serving(tmp_path / "dead" / "serving.json")["runs"][0]["errors"] == 2


def test_cli_parses_rates_and_slos():
    from minedraft.commands.bench_serving import config_from_args

    args = build_parser().parse_args(["bench-serving", "--modes", "ar,psd", "--request-rates", "2,inf",
                                      "--slo-ttft", "250", "--slo-tpot", "40", "-k", "3"])
    config = config_from_args(args)
    assert (config.modes, config.request_rates, config.slo_ttft, config.slo_tpot, config.k) == (
        ("ar", "psd"), (2.0, math.inf), 0.25, 0.04, 3)
    assert config.to_json()["request_rates"] == [2.0, None]


def test_serving_schema_names_missing_fields():
    good = {"schema": "minedraft.bench_serving", "schema_version": 1, "created": "x", "label": "l", "command": "c",
            "hardware": {}, "versions": {}, "config": {}, "engines": {}, "conditions": {}, "runs": [], "files": {},
            "notes": []}
    validate_serving(good)
    with pytest.raises(InvalidInputError, match=r"results.runs\[0\].mode is missing"):
        validate_serving({**good, "runs": [{}]})
    with pytest.raises(InvalidInputError, match="results.schema must be"):
        validate_serving({**good, "schema": "minedraft.bench"})
    # A serving file handed to the bench's reader (minedraft compare) is named as such.
    from minedraft.bench.schema import validate

    with pytest.raises(InvalidInputError, match=r"results.schema must be 'minedraft.bench', got 'minedraft.bench_serving'"):
        validate(good)
