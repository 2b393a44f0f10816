"""Run one ``sglang.Engine`` on CPU over a list of requests and write the outputs as JSON
(test harness only).

    python run_engine.py SPEC.json OUT.json

SPEC: {"model", "mode" (AR | STANDALONE | MINEDRAFT), "draft", "num_steps",
"max_running_requests", "env" (extra environment, e.g. MINEDRAFT_SGLANG_LANES),
"requests": [{"rid", "input_ids", "max_new_tokens"}], "abort": {"rid", "after_chunks"}}.
All requests are submitted at once, so with a small max_running_requests they join and
leave the running batch mid-run. With "rounds": [{"concurrency", "num_requests",
"max_new_tokens", "rep"}], the requests' prompts are instead decoded in timed, streamed
rounds (scripts/sglang_cpu_bench.py). OUT: {"outputs": {rid: {"output_ids", "finish_reason"}},
"worker_stats": the MINEDRAFT worker's counters (MINEDRAFT only)}.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402


async def _one(engine, req: dict, abort: dict | None) -> dict:
    params = {"temperature": 0.0, "max_new_tokens": req["max_new_tokens"]}
    if abort and abort["rid"] == req["rid"]:
        chunks = 0
        last = None
        gen = await engine.async_generate(input_ids=req["input_ids"], sampling_params=params, rid=req["rid"],
                                          stream=True)
        async for chunk in gen:
            last = chunk
            chunks += 1
            if chunks == abort["after_chunks"]:
                engine.tokenizer_manager.abort_request(rid=req["rid"])
        return {"output_ids": None, "finish_reason": last["meta_info"]["finish_reason"], "chunks": chunks}
    out = await engine.async_generate(input_ids=req["input_ids"], sampling_params=params, rid=req["rid"])
    return {"output_ids": out["output_ids"], "finish_reason": out["meta_info"]["finish_reason"]}


async def _all(engine, spec: dict) -> dict:
    import asyncio

    reqs = spec["requests"]
    results = await asyncio.gather(*(_one(engine, r, spec.get("abort")) for r in reqs))
    return {r["rid"]: res for r, res in zip(reqs, results)}


async def _timed_request(engine, input_ids: list[int], params: dict, start: float) -> dict:
    """One streamed request: tokens, latency and TTFT from the round's start, verify count."""
    first, last = None, None
    gen = await engine.async_generate(input_ids=input_ids, sampling_params=params, stream=True)
    async for chunk in gen:
        if first is None:
            first = time.perf_counter() - start
        last = chunk
    meta = last["meta_info"]
    return {"tokens": meta["completion_tokens"], "latency": time.perf_counter() - start, "ttft": first,
            "verify_ct": meta.get("spec_verify_ct")}


async def _timed_round(engine, prompts: list[list[int]], concurrency: int, num_requests: int,
                       max_new_tokens: int) -> dict:
    """``num_requests`` requests, all arriving at the start, at most ``concurrency`` in
    flight (a client-side limit, as ``minedraft bench`` holds its max_batch_size), each
    decoding exactly ``max_new_tokens`` tokens (EOS ignored)."""
    import asyncio

    params = {"temperature": 0.0, "max_new_tokens": max_new_tokens, "ignore_eos": True}
    limit = asyncio.Semaphore(concurrency)
    start = time.perf_counter()

    async def one(i: int) -> dict:
        async with limit:
            return await _timed_request(engine, prompts[i % len(prompts)], params, start)

    outs = await asyncio.gather(*(one(i) for i in range(num_requests)))
    wall = time.perf_counter() - start
    return {"concurrency": concurrency, "max_new_tokens": max_new_tokens, "wall_time": wall,
            "output_tokens": sum(o["tokens"] for o in outs), "requests": outs}


async def _rounds(engine, spec: dict) -> list[dict]:
    prompts = [r["input_ids"] for r in spec["requests"]]
    await _timed_round(engine, prompts, 2, 2, 4)  # warm-up, not reported
    return [dict(await _timed_round(engine, prompts, r["concurrency"], r.get("num_requests", r["concurrency"]),
                                    r["max_new_tokens"]), rep=r.get("rep", 0)) for r in spec["rounds"]]


def main(spec_path: str, out_path: str) -> None:
    with open(spec_path) as f:
        spec = json.load(f)
    os.environ.update(spec.get("env", {}))
    stats_file = None
    if spec["mode"] == "MINEDRAFT":
        stats_file = tempfile.NamedTemporaryFile(suffix=".json", delete=False).name
        os.environ["MINEDRAFT_SGLANG_STATS_FILE"] = stats_file
    harness.prepare_process()
    import sglang

    with harness.amx_backend_allowed():
        engine = sglang.Engine(**harness.engine_args(
            spec["model"], spec["mode"], draft=spec.get("draft"), num_steps=spec.get("num_steps", 3),
            max_running_requests=spec.get("max_running_requests", 4)))
    try:
        if "rounds" in spec:
            outputs = {"rounds": engine.loop.run_until_complete(_rounds(engine, spec))}
        else:
            outputs = engine.loop.run_until_complete(_all(engine, spec))
    finally:
        engine.shutdown()
    stats = None
    if stats_file and os.path.getsize(stats_file):
        with open(stats_file) as f:
            stats = json.load(f)
        os.unlink(stats_file)
    with open(out_path, "w") as f:
        json.dump({"outputs": outputs, "worker_stats": stats}, f)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
