"""``minedraft bench-serving``: requests arriving over time, per mode and offered load.

For every request rate (and optional concurrency cap), the same seeded schedule of
requests (arrival times, prompts, output lengths) is served by every mode, the modes'
order rotated per rate so that machine noise hits them alike. In-process, every mode gets
the same capacity, ``max_running`` requests in flight (AR/SD verify up to that many
together, PSD/flex hold two sub-batches of half), and by default equal cores (AR/SD:
2 x ``lane_threads`` intra-op threads). Over HTTP the server decides; the run is named
by ``server_label``. Metrics: serving_metrics; results: schema.SERVING_*.
"""

from __future__ import annotations

import asyncio
import math
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from ..backends import EnginePair
from ..types import InvalidInputError
from ..validation import require_number, require_out_dir
from . import schema
from .arrivals import ServingRequest, build_requests
from .config import DEFAULT_DRAFT, DEFAULT_TARGET, LANES, check_mode_options
from .prompt_classes import PROMPT_CLASSES, class_prompts
from .serving_client import HTTPTransport, InProcessTransport, Transport, run_load
from .serving_metrics import rate_label, summarize


@dataclass
class ServingConfig:
    target: Any = DEFAULT_TARGET
    draft: Any = DEFAULT_DRAFT
    backend: str = "reference"
    modes: tuple[str, ...] = ("ar", "sd", "psd")
    request_rates: tuple[float, ...] = (2.0, 4.0, 8.0, math.inf)  # requests/s; inf: all at once
    max_concurrency: int | None = None  # client-side cap on requests outstanding (vLLM's --max-concurrency)
    burstiness: float = 1.0  # gamma shape of the arrival gaps; 1: Poisson
    num_prompts: int = 32
    max_running: int = 8  # engine capacity in requests in flight (in-process)
    k: int = 4
    max_new_tokens: int = 32
    max_new_tokens_spread: float = 0.5
    temperature: float = 0.0
    seed: int = 0
    prompt_class: str = "chat"
    chat: bool = True
    slo_ttft: float | None = None  # seconds
    slo_tpot: float | None = None  # seconds
    sequential_threads: int | None = None  # None: LANES x lane_threads (equal cores)
    lane_threads: int = 1
    dtype: str = "auto"
    device: str = "cpu"
    draft_device: str | None = None
    allow_pickle: bool = False
    trust_remote_code: bool = False
    warmup: bool = True
    base_url: str | None = None  # set: the HTTP transport against this server
    model: str | None = None  # the "model" field sent to the server
    server_label: str = "server"
    out_dir: str = "minedraft-bench-serving"
    label: str | None = None
    progress: bool = True
    scheduler_options: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.modes = tuple(self.modes)
        self.request_rates = tuple(float(r) for r in self.request_rates)
        if not self.request_rates or any(not r > 0 for r in self.request_rates):
            raise InvalidInputError(f"request_rates must be numbers > 0 (or inf), got {list(self.request_rates)!r}")
        if self.sequential_threads is None and isinstance(self.lane_threads, int) and self.lane_threads >= 1:
            self.sequential_threads = LANES * self.lane_threads
        for name in ("num_prompts", "max_running", "k", "max_new_tokens", "lane_threads", "sequential_threads"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InvalidInputError(f"{name} must be an int >= 1, got {value!r}")
        if self.max_concurrency is not None and (not isinstance(self.max_concurrency, int) or self.max_concurrency < 1):
            raise InvalidInputError(f"max_concurrency must be an int >= 1 or None, got {self.max_concurrency!r}")
        require_number("max_new_tokens_spread", self.max_new_tokens_spread, 0, 1, high_open=True)
        require_number("burstiness", self.burstiness, 0, low_open=True)
        require_number("temperature", self.temperature, 0)
        for name in ("slo_ttft", "slo_tpot"):
            value = getattr(self, name)
            if value is not None and not (isinstance(value, (int, float)) and value > 0):
                raise InvalidInputError(f"{name} must be a number > 0 or None, got {value!r}")
        if self.prompt_class not in PROMPT_CLASSES:
            raise InvalidInputError(f"prompt_class must be one of {list(PROMPT_CLASSES)}, got {self.prompt_class!r}")
        require_out_dir("out_dir", self.out_dir)
        if self.base_url is None:
            self._check_modes()

    def _check_modes(self) -> None:
        from ..schedulers import SCHEDULERS

        unknown = [m for m in self.modes if m not in SCHEDULERS]
        if not self.modes or unknown or len(set(self.modes)) != len(self.modes):
            raise InvalidInputError(f"modes must be distinct names among {sorted(SCHEDULERS)}, got {list(self.modes)!r}")
        split = [m for m in self.modes if SCHEDULERS[m].in_flight_per_batch == LANES]
        if split and self.max_running % LANES:
            raise InvalidInputError(f"max_running must be even for {split} (two sub-batches of half), "
                                    f"got {self.max_running}")
        check_mode_options(self.modes, self.scheduler_options)

    @property
    def transport(self) -> str:
        return "http" if self.base_url else "in-process"

    @property
    def needs_draft(self) -> bool:
        from ..schedulers import SCHEDULERS

        return self.base_url is None and any(SCHEDULERS[m].needs_drafter for m in self.modes)

    @property
    def equal_cores(self) -> bool | None:
        """AR/SD threads equal to PSD's lanes together; None over HTTP or without a lane mode."""
        from ..schedulers import SCHEDULERS

        if self.base_url or not any(SCHEDULERS[m].overlapping for m in self.modes):
            return None
        return self.sequential_threads == LANES * self.lane_threads

    def batch_size(self, mode: str) -> int:
        from ..schedulers import SCHEDULERS

        return self.max_running // SCHEDULERS[mode].in_flight_per_batch  # PSD: two sub-batches of half

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        for key in ("target", "draft"):
            if out[key] is not None and not isinstance(out[key], str):
                out[key] = type(out[key]).__name__
        out["request_rates"] = [None if math.isinf(r) else r for r in self.request_rates]  # JSON has no inf
        out["equal_cores"] = self.equal_cores
        return out


# -- building the pieces --------------------------------------------------------------------------
def build_engines(config: ServingConfig) -> EnginePair:
    from .config import BenchConfig
    from .harness import build_engines as bench_engines

    bench = BenchConfig(target=config.target, draft=config.draft if config.needs_draft else None,
                        backend=config.backend, modes=config.modes, in_flight=(config.max_running,),
                        dtype=config.dtype, device=config.device, draft_device=config.draft_device,
                        allow_pickle=config.allow_pickle, trust_remote_code=config.trust_remote_code, peers=False)
    return bench_engines(bench)


def prompt_pool(config: ServingConfig, engines: EnginePair | None) -> tuple[list, list, dict[str, Any]]:
    """(token ids, texts, info) of the prompt set: in-process the engine's tokenisation
    (chat prompts templated); over HTTP the texts as they are (the server tokenises)."""
    from .workload import prompt_ids

    n = max(config.num_prompts, 1)
    if engines is not None:
        ids, info = prompt_ids(engines, n, config.chat, config.seed, config.prompt_class)
        return ids, [None] * len(ids), info
    texts, source = class_prompts(config.prompt_class, n)
    return [()] * len(texts), texts, {"source": source, "chat_template": False, "prompt_class": config.prompt_class}


def in_process_transport(config: ServingConfig, engines: EnginePair, mode: str) -> tuple[InProcessTransport, dict]:
    from ..api import LLM
    from ..schedulers import SCHEDULERS, create_scheduler

    eng = engines if SCHEDULERS[mode].needs_drafter else replace(engines, drafter=None)
    llm = LLM(engines.info.get("target", "engines"), None, mode=mode, engines=eng, num_speculative_tokens=config.k,
              max_batch_size=config.batch_size(mode), device=config.device, draft_device=config.draft_device,
              intra_op_threads=config.lane_threads,
              **SCHEDULERS[mode].options_class.taken_from(config.scheduler_options))
    scheduler_config = llm._config()  # the same settings LLM.generate would run with
    inline = llm.lane_kind == "inline"
    threads = config.sequential_threads if inline else config.lane_threads
    transport = InProcessTransport(lambda: create_scheduler(mode, eng.target, eng.drafter, scheduler_config, llm.options,
                                                           memory=eng.memory), mode,
                                   threads=threads, temperature=config.temperature, seed=config.seed)
    on_gpu = config.device.startswith("cuda")  # the GPU sets the speed, not the host's intra-op threads
    info = {"lanes": llm.lane_kind, "batch_size": config.batch_size(mode),
            "threads_total": None if on_gpu else threads * (1 if inline else LANES)}
    return transport, info


# -- the run --------------------------------------------------------------------------------------
class ServingBench:
    def __init__(self, config: ServingConfig, engines: EnginePair | None = None) -> None:
        self.config = config
        self.engines = None if config.base_url else (engines or build_engines(config))
        self.pool_ids, self.pool_texts, self.prompt_info = prompt_pool(config, self.engines)
        self.notes: list[str] = []
        self.outputs: dict[tuple[str, float], list[list[int] | None]] = {}

    @property
    def modes(self) -> tuple[str, ...]:
        return (self.config.server_label,) if self.config.base_url else self.config.modes

    def requests(self, rate: float, n: int | None = None, max_new_tokens: int | None = None) -> list[ServingRequest]:
        cfg = self.config
        return build_requests(self.pool_ids, self.pool_texts, n or cfg.num_prompts, rate,
                              max_new_tokens or cfg.max_new_tokens, cfg.max_new_tokens_spread if n is None else 0.0,
                              cfg.seed, cfg.burstiness)

    def transport(self, mode: str) -> tuple[Transport, dict[str, Any]]:
        cfg = self.config
        if cfg.base_url:
            return (HTTPTransport(cfg.base_url, cfg.model, cfg.server_label, cfg.temperature),
                    {"lanes": "server", "batch_size": None, "threads_total": None})
        return in_process_transport(cfg, self.engines, mode)

    def run_one(self, mode: str, rate: float, requests: list[ServingRequest], max_concurrency: int | None) -> dict:
        transport, info = self.transport(mode)

        async def go():
            await transport.start()
            try:
                return await run_load(transport, requests, max_concurrency)
            finally:
                await transport.close()

        records, origin, duration = asyncio.run(go())
        cfg = self.config
        trace = getattr(transport, "trace", None)
        summary = trace.summary() if trace is not None and trace.steps else {}
        self.outputs[(mode, rate)] = [r.token_ids for r in records]
        drafts = self._drafts(mode)
        return {
            "mode": mode, "transport": cfg.transport, "request_rate": None if math.isinf(rate) else rate,
            "max_concurrency": max_concurrency, "max_running": None if cfg.base_url else cfg.max_running,
            "batch_size": info["batch_size"], "k": cfg.k if drafts else 0, "threads_total": info["threads_total"],
            "lanes": info["lanes"], "rep": 0, "order": 0,
            **summarize(records, duration, cfg.slo_ttft, cfg.slo_tpot),
            # None, not 0, where nothing was drafted (one-token requests): there is no rate.
            "acceptance_rate": summary.get("acceptance_rate") if summary.get("steps") and drafts
            and any(s.proposed for s in trace.steps) else None,
            "matches_reference": None, "requests": [r.to_json(origin) for r in records],
        }

    def _drafts(self, mode: str) -> bool:
        """Whether the mode drafts (k applies); unknown over HTTP (the server decides): k 0."""
        from ..schedulers import SCHEDULERS

        return self.config.base_url is None and SCHEDULERS[mode].needs_drafter

    def warmup(self, bar: Any) -> None:
        if not self.config.warmup:
            return
        for mode in self.modes:
            bar.set_description(f"warm-up {mode}")
            self.run_one(mode, math.inf, self.requests(math.inf, n=2, max_new_tokens=4), None)
            bar.update(1)

    def mark_matches(self, runs: list[dict[str, Any]]) -> None:
        """Greedy, in-process: share of requests whose tokens equal AR's at the same rate."""
        if self.config.temperature > 0 or self.config.base_url:
            return
        for run in runs:
            rate = math.inf if run["request_rate"] is None else run["request_rate"]
            ref, mine = self.outputs.get(("ar", rate)), self.outputs.get((run["mode"], rate))
            if ref and mine:
                pairs = [(a, b) for a, b in zip(ref, mine) if a is not None and b is not None]
                run["matches_reference"] = sum(a == b for a, b in pairs) / len(pairs) if pairs else None

    def run(self, argv: list[str] | None = None) -> dict[str, Any]:
        from .harness import _progress

        cfg = self.config
        started, load_start, created = time.perf_counter(), schema.loadavg(), schema.now_iso()
        clock = schema.cpu_clock()
        bar = _progress(cfg.progress, len(self.modes) * (len(cfg.request_rates) + int(cfg.warmup)))
        runs = []
        try:
            self.warmup(bar)
            for ri, rate in enumerate(cfg.request_rates):
                requests = self.requests(rate)
                shift = ri % len(self.modes)
                for mode in self.modes[shift:] + self.modes[:shift]:
                    bar.set_description(f"{mode} at {rate_label(rate)} req/s")
                    run = self.run_one(mode, rate, requests, cfg.max_concurrency)
                    run["order"] = len(runs)
                    runs.append(run)
                    bar.update(1)
        finally:
            bar.close()
        self.mark_matches(runs)
        runs.sort(key=lambda r: (math.inf if r["request_rate"] is None else r["request_rate"], self.modes.index(r["mode"])))
        results = self.assemble(runs, argv, created)
        results["conditions"] = {"loadavg_start": load_start, "loadavg_end": schema.loadavg(),
                                 "wall_seconds": time.perf_counter() - started,
                                 **schema.cpu_conditions(clock, schema.cpu_clock())}
        if cfg.base_url is not None:  # the engine runs in the server's process, not this client's
            results["conditions"]["process_cores"] = None
        self.write(results)
        return results

    def assemble(self, runs: list[dict[str, Any]], argv: list[str] | None, created: str) -> dict[str, Any]:
        cfg = self.config
        engines = self.engines.info if self.engines is not None else {"server": cfg.base_url, "model": cfg.model}
        return {
            "schema": schema.SERVING_SCHEMA_NAME, "schema_version": schema.SERVING_SCHEMA_VERSION, "created": created,
            "label": cfg.label or f"{cfg.transport} {cfg.prompt_class} ({schema.hardware_info()['cpu_model']})",
            "command": "minedraft bench-serving" + ("" if not argv else " " + " ".join(argv)),
            "hardware": schema.hardware_info(), "versions": schema.versions_info(),
            "config": {**cfg.to_json(), "prompts": self.prompt_info},
            "engines": {k: v for k, v in engines.items() if isinstance(v, (str, int, float, bool, type(None)))},
            "conditions": {}, "runs": runs, "files": {}, "notes": self.notes,
        }

    def write(self, results: dict[str, Any]) -> None:
        from .serving_report import serving_plot

        out = Path(self.config.out_dir)
        out.mkdir(parents=True, exist_ok=True)
        results["files"] = {"results": "serving.json", "plot": "serving.png"}
        serving_plot(results, out / "serving.png")
        schema.save_serving(results, out / "serving.json")


def run_serving(config: ServingConfig, engines: EnginePair | None = None, argv: list[str] | None = None,
                print_report: bool = False) -> dict[str, Any]:
    """Run the serving sweep; write serving.json and serving.png into ``config.out_dir``."""
    from .serving_report import render_serving

    results = ServingBench(config, engines).run(argv)
    if print_report:
        print(render_serving(results))
    return results
