"""The serving benchmark's client: one load generator, two transports.

``run_load`` sends each request at its scheduled time (at most ``max_concurrency`` at once)
and collects a ``RequestRecord`` per request. A transport answers ``send(request)`` with the
streamed chunks' arrival times:

- ``InProcessTransport``: the embedded engine. One engine thread runs the scheduler's
  ``add_request``/``step`` loop (continuous batching); requests reach it through a queue
  and every token committed in a step is delivered when that step returns, as a streaming
  server would flush it.
- ``HTTPTransport``: any OpenAI-compatible server's ``/v1/completions`` with ``stream=true``
  (server-sent events; httpx).

A transport never drops a request: a failure becomes the record's ``error``.
"""

from __future__ import annotations

import asyncio
import json
import queue
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..types import InvalidInputError, RequestState, SamplingParams
from .arrivals import ServingRequest
from .serving_metrics import RequestRecord


class Transport(Protocol):
    name: str

    async def start(self) -> None: ...

    async def send(self, request: ServingRequest) -> RequestRecord: ...

    async def close(self) -> None: ...


async def run_load(transport: Transport, requests: Sequence[ServingRequest],
                   max_concurrency: int | None = None) -> tuple[list[RequestRecord], float, float]:
    """Send every request on schedule; returns (records in request order, start, duration)."""
    if max_concurrency is not None and max_concurrency < 1:
        raise InvalidInputError(f"max_concurrency must be >= 1 or None, got {max_concurrency!r}")
    gate = asyncio.Semaphore(max_concurrency) if max_concurrency else None
    origin = time.perf_counter()

    async def one(req: ServingRequest) -> RequestRecord:
        await asyncio.sleep(max(0.0, origin + req.arrival - time.perf_counter()))
        if gate is None:
            return await _guarded(transport, req)
        async with gate:
            return await _guarded(transport, req)

    records = list(await asyncio.gather(*(one(r) for r in requests)))
    end = max((r.end for r in records), default=origin)
    return records, origin, end - origin


async def _guarded(transport: Transport, req: ServingRequest) -> RequestRecord:
    start = time.perf_counter()
    try:
        return await transport.send(req)
    except Exception as exc:  # noqa: BLE001 - delivered in the record, never dropped
        return RequestRecord(req.index, req.arrival, start=start, end=time.perf_counter(),
                             error=f"{type(exc).__name__}: {exc}")


# -- in-process ---------------------------------------------------------------------------------
@dataclass
class _Live:
    state: RequestState
    record: RequestRecord
    done: asyncio.Future
    loop: asyncio.AbstractEventLoop
    seen: int = 0


class InProcessTransport:
    """The embedded engine behind a queue; ``scheduler_factory()`` builds a fresh scheduler."""

    def __init__(self, scheduler_factory: Any, name: str, threads: int | None = None,
                 temperature: float = 0.0, seed: int = 0) -> None:
        self.name = name
        self._factory = scheduler_factory
        self._threads = threads
        self._temperature, self._seed = temperature, seed
        self._inbox: queue.Queue[_Live | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._broken: str | None = None
        self.trace = None

    async def start(self) -> None:
        ready: queue.Queue[BaseException | None] = queue.Queue()
        self._thread = threading.Thread(target=self._loop, args=(ready,), name="minedraft-engine", daemon=True)
        self._thread.start()
        failure = ready.get()
        if failure is not None:
            raise failure

    async def send(self, request: ServingRequest) -> RequestRecord:
        loop = asyncio.get_running_loop()
        record = RequestRecord(request.index, request.arrival, start=time.perf_counter(),
                               prompt_tokens=len(request.prompt_ids))
        seed = (self._seed + request.index) if self._temperature > 0 else None
        params = SamplingParams(temperature=self._temperature, max_new_tokens=request.max_new_tokens,
                                ignore_eos=True, seed=seed)
        live = _Live(RequestState(prompt_ids=list(request.prompt_ids), params=params), record,
                     loop.create_future(), loop)
        if self._broken is not None or self._thread is None or not self._thread.is_alive():
            record.error, record.end = f"engine stopped: {self._broken or 'not running'}", time.perf_counter()
            return record
        self._inbox.put(live)
        return await live.done

    async def close(self) -> None:
        if self._thread is not None:
            self._inbox.put(None)
            await asyncio.get_running_loop().run_in_executor(None, self._thread.join)
            self._thread = None

    # -- the engine thread --------------------------------------------------------------------
    def _loop(self, ready: queue.Queue) -> None:
        from .probe import intra_op_threads

        try:
            with intra_op_threads(self._threads):
                scheduler = self._factory()
                ready.put(None)
                try:
                    self._serve(scheduler)
                finally:
                    scheduler.close()
                    self.trace = scheduler.trace
        except BaseException as exc:  # noqa: BLE001 - reported to start() or to every live request
            self._broken = self._broken or f"{type(exc).__name__}: {exc}"
            ready.put(exc)
            self._drain()

    def _drain(self) -> None:
        """After the engine stopped: whatever is still queued gets the error."""
        while True:
            try:
                item = self._inbox.get_nowait()
            except queue.Empty:
                return
            if item is not None:
                self._deliver(item, error=f"engine stopped: {self._broken}")

    def _serve(self, scheduler: Any) -> None:
        live: dict[str, _Live] = {}
        while True:
            idle = not scheduler.has_unfinished()  # nothing to step: wait for the next arrival
            try:
                items = [self._inbox.get(timeout=0.05) if idle else self._inbox.get_nowait()]
            except queue.Empty:
                items = []
            while True:
                try:
                    items.append(self._inbox.get_nowait())
                except queue.Empty:
                    break
            if None in items:
                for item in items:
                    if item is not None:
                        self._deliver(item, error="engine stopped before the request was admitted")
                self._fail_all(live, "engine stopped")
                return
            for item in items:
                try:
                    scheduler.add_request(item.state)
                    live[item.state.request_id] = item
                except InvalidInputError as exc:
                    self._deliver(item, error=str(exc))
            if not scheduler.has_unfinished():
                continue
            try:
                scheduler.step()
            except Exception as exc:  # noqa: BLE001 - every live request receives it
                self._broken = f"step failed: {type(exc).__name__}: {exc}"
                self._fail_all(live, self._broken)
                raise
            self._flush(live)

    def _flush(self, live: dict[str, _Live]) -> None:
        """Tokens committed in the step just run reach their clients now, in one chunk each."""
        now = time.perf_counter()
        for rid, item in list(live.items()):
            n = len(item.state.output_ids)
            if n > item.seen:
                item.record.chunk_times.append(now)
                item.record.chunk_tokens.append(n - item.seen)
                item.seen = n
            if item.state.finished:
                del live[rid]
                self._deliver(item, error=item.state.error, now=now)

    def _fail_all(self, live: dict[str, _Live], message: str) -> None:
        for item in live.values():
            self._deliver(item, error=item.state.error or message)
        live.clear()

    @staticmethod
    def _deliver(item: _Live, error: str | None, now: float | None = None) -> None:
        rec = item.record
        rec.end = now or time.perf_counter()
        rec.output_tokens = len(item.state.output_ids)
        rec.token_ids = list(item.state.output_ids)
        rec.error = error
        item.loop.call_soon_threadsafe(_resolve, item.done, rec)


def _resolve(future: asyncio.Future, record: RequestRecord) -> None:
    if not future.done():
        future.set_result(record)


# -- HTTP ---------------------------------------------------------------------------------------
class HTTPTransport:
    """``POST {base_url}/v1/completions`` with ``stream=true``: one chunk time per SSE event
    that carries text; output tokens from the final ``usage`` when the server sends it
    (``stream_options.include_usage``), else the number of such chunks."""

    def __init__(self, base_url: str, model: str | None = None, name: str = "server", temperature: float = 0.0,
                 timeout: float = 600.0, api_key: str | None = None, ignore_eos: bool = True) -> None:
        if not base_url.startswith(("http://", "https://")):
            raise InvalidInputError(f"base_url must start with http:// or https://, got {base_url!r}")
        self.name = name
        self.url = base_url.rstrip("/") + "/v1/completions"
        self.model, self.temperature, self.timeout, self.ignore_eos = model, temperature, timeout, ignore_eos
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client: Any = None

    async def start(self) -> None:
        import httpx

        limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
        self._client = httpx.AsyncClient(timeout=self.timeout, limits=limits, headers=self._headers)

    async def close(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    def payload(self, request: ServingRequest) -> dict[str, Any]:
        body: dict[str, Any] = {
            "prompt": request.prompt_text if request.prompt_text is not None else list(request.prompt_ids),
            "max_tokens": request.max_new_tokens, "temperature": self.temperature, "stream": True,
            "stream_options": {"include_usage": True}, "ignore_eos": self.ignore_eos,
        }
        if self.model:
            body["model"] = self.model
        return body

    async def send(self, request: ServingRequest) -> RequestRecord:
        record = RequestRecord(request.index, request.arrival, start=time.perf_counter())
        usage: dict[str, Any] | None = None
        finished = False  # [DONE] or a finish_reason seen: a stream cut off before either is an error
        async with self._client.stream("POST", self.url, json=self.payload(request)) as resp:
            if resp.status_code != 200:
                body = (await resp.aread()).decode(errors="replace")[:300]
                record.error, record.end = f"HTTP {resp.status_code}: {body}", time.perf_counter()
                return record
            async for line in resp.aiter_lines():
                if not line.startswith("data:"):
                    continue
                data = line[5:].strip()
                if data == "[DONE]":
                    finished = True
                    break
                event = json.loads(data)
                if event.get("error"):
                    record.error = f"server error: {event['error']}"
                    break
                usage = event.get("usage") or usage
                choices = event.get("choices") or []
                finished = finished or bool(choices and choices[0].get("finish_reason"))
                if choices and choices[0].get("text"):
                    record.chunk_times.append(time.perf_counter())
                    record.chunk_tokens.append(1)
        record.end = time.perf_counter()
        if record.chunk_times and record.error is None:
            record.end = record.chunk_times[-1]
        record.output_tokens = int(usage["completion_tokens"]) if usage and usage.get("completion_tokens") \
            else len(record.chunk_times)
        if usage and usage.get("prompt_tokens") is not None:
            record.prompt_tokens = int(usage["prompt_tokens"])
        if record.error is None and not record.chunk_times:
            record.error = "the stream ended without any text"
        if record.error is None and not finished:
            record.error = "the stream was cut off: it ended with neither a finish_reason nor [DONE]"
        return record
