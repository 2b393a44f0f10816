"""``minedraft bench``: AR, SD, PSD (and the peers) on one engine pair, interleaved.

One run builds the engines once and hands them to every mode (``LLM(engines=...)``), so
no mode pays for loading weights and all share one copy of them. The run is a list of
*trials* (one mode at one batch size and k, over the same requests); trials of one
(batch size, k) group run back to back, in an order rotated at every repetition, so that
machine noise (other processes on a shared 2-core box) hits every mode alike.

The grid is keyed by load (``in_flight``, the default): a group c holds AR and SD at
max_batch_size c and PSD and flex at sub-batch c/2 (two sub-batches, c in flight, as
MineDraft keeps them), all serving the same ``requests_per_batch * c`` requests, so that
every ratio the report prints compares equal requests in flight (and, with the default
``sequential_threads`` = 2 x ``lane_threads``, equal cores). ``batch_size`` is the number
of requests verified together (per sub-batch under PSD); ``concurrency`` (requests in
flight) is recorded next to every figure.

The older batch grid (``batch_sizes``) runs every mode at the same b, so PSD holds 2b
requests where SD holds b; its ratios still pair rows of equal concurrency where the grid
has them and label the rest. A scheduler holds ``in_flight_per_batch`` x b requests (PSD 2,
every other mode, flex included, 1); should flex hold more than b, its groups in the batch
grid gain ``reference`` trials: AR and SD at flex's concurrency serving exactly the flex
trial's requests (kind ``reference``).
Flex learns its costs online: unless ``flex_learning`` is off, each (b, k) first gets one
untimed full-length flex trial (its tokens/s is kept as the bar's ``cold`` figure).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..api import LLM
from ..backends import EnginePair, EngineSpec, get_backend
from ..schedulers import SCHEDULERS
from ..trace import Trace
from ..types import InvalidInputError
from . import analysis, oracle, plots, probe, report, schema, traces
from .config import DEFAULT_DRAFT, BenchConfig
from .metrics import result_rows, trial_metrics
from .workload import prompt_ids, request_params


@dataclass
class TrialSpec:
    mode: str
    kind: str  # "scheduler" (a minedraft mode), "peer", or "reference" (a fixed mode at flex's concurrency)
    batch_size: int
    k: int
    rep: int
    requests: int | None = None  # default: requests_per_batch * batch_size

    @property
    def key(self) -> tuple[str, int, int]:
        return (self.mode, self.batch_size, self.k)


REFERENCE_MODES = ("ar", "sd")  # the flex bar's fixed modes run at flex's concurrency


def build_engines(config: BenchConfig) -> EnginePair:
    draft = config.draft if (config.needs_draft or config.peers) else None
    spec = EngineSpec(target=config.target, draft=draft, dtype=config.dtype, device=config.device,
                      draft_device=config.draft_device, max_batch_size=max(config.grid_batch_sizes),
                      allow_pickle=config.allow_pickle, trust_remote_code=config.trust_remote_code)
    try:
        return get_backend(config.backend).build(spec)
    except InvalidInputError as exc:
        if config.draft == DEFAULT_DRAFT and "draft" in str(exc).lower():
            raise InvalidInputError(
                f"the default draft {DEFAULT_DRAFT!r} is not available ({exc}). Pass --draft DIR with a draft "
                "checkpoint that shares the target's tokenizer, or --modes ar --no-peers to time the target alone"
            ) from exc
        raise


def plan(config: BenchConfig, peers: dict[str, bool]) -> list[TrialSpec]:
    """Groups (c, k) in order, c a grid value (requests in flight, or b in the batch grid);
    inside a group every mode once, rotated per repetition. Modes without a drafter do not
    depend on k and run in the first k's group only; the peers (batch 1 only; ``peers``
    maps a name to whether it uses the draft) join the c = 1 group. In the in-flight grid
    every trial of a group serves the same requests_per_batch x c requests; in the batch
    grid, flex's groups gain the reference trials (AR, SD at 2b)."""
    trials: list[TrialSpec] = []
    groups = [(c, k) for c in config.groups for k in config.ks]
    by_load = config.in_flight is not None
    for rep in range(config.repeats):
        for gi, (c, k) in enumerate(groups):
            entries = []
            for m in config.modes:
                b = config.batch_for(m, c)
                if b is not None and (SCHEDULERS[m].needs_drafter or k == config.ks[0]):
                    entries.append(TrialSpec(m, "scheduler", b, k if SCHEDULERS[m].needs_drafter else 0, rep,
                                             requests=c * config.requests_per_batch if by_load else None))
            flex_in_flight = SCHEDULERS["flex"].in_flight_per_batch
            if "flex" in config.modes and not by_load and flex_in_flight > 1:
                entries += [TrialSpec(m, "reference", flex_in_flight * c, k if SCHEDULERS[m].needs_drafter else 0, rep,
                                      requests=c * config.requests_per_batch)
                            for m in REFERENCE_MODES if SCHEDULERS[m].needs_drafter or k == config.ks[0]]
            if c == 1 and k == config.ks[0]:
                entries += [TrialSpec(name, "peer", 1, k if drafts else 0, rep,
                                      requests=config.requests_per_batch if by_load else None)
                            for name, drafts in peers.items()]
            shift = (rep + gi) % len(entries) if entries else 0
            trials += entries[shift:] + entries[:shift]
    return trials


def skipped_note(config: BenchConfig) -> str | None:
    """Modes the in-flight grid cannot run at some c (two sub-batches of an odd number)."""
    missing = sorted({(m, c) for m in config.modes for c in config.groups if config.batch_for(m, c) is None})
    if not missing:
        return None
    modes = sorted({m for m, _ in missing})
    loads = sorted({c for _, c in missing})
    return (f"{', '.join(modes)} skipped at {', '.join(map(str, loads))} in flight: two sub-batches need an even "
            "number of requests")


class Bench:
    """One run: engines, requests, the trial loop and the files."""

    def __init__(self, config: BenchConfig, engines: EnginePair | None = None) -> None:
        self.config = config
        self.backend = get_backend(config.backend)
        self.engines = engines or build_engines(config)
        n = max(config.groups) * config.requests_per_batch
        self.prompts, self.prompt_info = prompt_ids(self.engines, n, config.chat, config.seed, config.prompt_class)
        self.params = request_params(n, config.max_new_tokens, config.temperature, config.seed,
                                     config.max_new_tokens_spread)
        self.notes: list[str] = [n for n in (skipped_note(config),) if n]
        self.flex_cold: dict[tuple[int, int], float] = {}  # (b, k) -> tokens/s of flex's learning trial
        self.peers = self._peer_functions()
        self.trials = plan(config, {name: _uses_draft(fn) for name, fn in self.peers.items()})
        self.last_traces: dict[tuple[str, int, int], Trace] = {}
        self.outputs: dict[tuple[str, int, int, int], list[list[int]]] = {}

    def _peer_functions(self) -> dict[str, Any]:
        if not self.config.peers:
            return {}
        if self.config.max_new_tokens_spread > 0:
            self.notes.append("peers skipped: they give every request one max_new_tokens, and "
                              "max_new_tokens_spread varies it per request")
            return {}
        if 1 not in self.config.groups:
            self.notes.append("peers skipped: they run at batch size 1, which is not in the grid")
            return {}
        capability = getattr(self.backend, "peers", None)
        if not callable(capability):
            self.notes.append(f"peers skipped: backend {self.config.backend!r} offers none")
            return {}
        peers = dict(capability())
        if self.engines.drafter is None:
            peers = {name: fn for name, fn in peers.items() if not _uses_draft(fn)}
        for name, fn in list(peers.items()):
            reason = getattr(fn, "unsupported", lambda engines: None)(self.engines)
            if reason:  # e.g. assisted generation cannot drive an EAGLE-style draft
                self.notes.append(reason)
                del peers[name]
        return peers

    # -- trials ------------------------------------------------------------------------------
    def run_trial(self, spec: TrialSpec, n: int | None = None, max_new_tokens: int | None = None) -> dict[str, Any]:
        n = n or spec.requests or spec.batch_size * self.config.requests_per_batch
        if spec.kind == "peer":
            return self._peer_trial(spec, n, max_new_tokens)
        cfg = self.config
        params = self.params[:n] if max_new_tokens is None else request_params(n, max_new_tokens, cfg.temperature, cfg.seed)
        # Target-only modes get the pair without its drafter: nothing of theirs touches it.
        engines = self.engines if SCHEDULERS[spec.mode].needs_drafter else replace(self.engines, drafter=None)
        llm = LLM(self.engines.info.get("target", "engines"), None, mode=spec.mode, engines=engines,
                  num_speculative_tokens=max(spec.k, 1), max_batch_size=spec.batch_size, device=cfg.device,
                  draft_device=cfg.draft_device, intra_op_threads=cfg.lane_threads, **cfg.options_for(spec.mode))
        threads = cfg.sequential_threads if llm.lane_kind == "inline" else cfg.lane_threads
        with probe.intra_op_threads(threads if llm.lane_kind in ("inline", "threads") else None):
            t0 = time.perf_counter()
            outs = llm.generate(self.prompts[:n], params)
            wall = time.perf_counter() - t0
        ok = [o for o in outs if o.error is None]
        record = self._record(spec, n, llm.lane_kind, threads if llm.lane_kind in ("inline", "threads") else None)
        record.update(trial_metrics(
            llm.last_trace, [len(o.token_ids) for o in outs], [o.metrics["latency"] for o in ok],
            [o.metrics["ttft"] for o in ok], [t0 + o.metrics["ttft"] for o in ok], wall, cfg.keep_steps,
        ))
        record["errors"] = len(outs) - len(ok)
        if max_new_tokens is None and spec.kind == "scheduler" and spec.rep >= 0:  # not an untimed trial
            self.last_traces[spec.key] = llm.last_trace
            self.outputs[(spec.mode, record["concurrency"], spec.k, spec.rep)] = [o.token_ids for o in outs]
        return record

    def _peer_trial(self, spec: TrialSpec, n: int, max_new_tokens: int | None) -> dict[str, Any]:
        cfg = self.config
        with probe.intra_op_threads(cfg.sequential_threads):
            res = self.peers[spec.mode](self.engines, self.prompts[:n], max_new_tokens=max_new_tokens or cfg.max_new_tokens,
                                        num_speculative_tokens=max(spec.k, 1), temperature=cfg.temperature, seed=cfg.seed)
        # Requests are served one after another; all arrive at the start, as in the other trials.
        waited, latency, ttft = 0.0, [], []
        for lat, first in zip(res["latency"], res["ttft"]):
            ttft.append(waited + first)
            waited += lat
            latency.append(waited)
        record = self._record(spec, n, "inline", cfg.sequential_threads)
        record.update(trial_metrics(None, [len(o) for o in res["outputs"]], latency, ttft, [], res["wall_time"]))
        record["errors"], record["settings"] = 0, res.get("settings", {})
        if max_new_tokens is None:
            self.outputs[(spec.mode, record["concurrency"], spec.k, spec.rep)] = res["outputs"]
        return record

    def _record(self, spec: TrialSpec, n: int, lanes: str, threads: int | None) -> dict[str, Any]:
        overlapping = spec.kind != "peer" and lanes != "inline" and spec.mode != "ar"
        per_batch = SCHEDULERS[spec.mode].in_flight_per_batch if overlapping else 1
        if self.config.device.startswith("cuda"):
            threads = None  # the GPU sets the speed, not the host's intra-op threads
        return {
            "mode": spec.mode, "kind": spec.kind, "batch_size": spec.batch_size, "k": spec.k,
            "concurrency": per_batch * spec.batch_size, "rep": spec.rep, "order": 0,
            "num_requests": n, "lanes": lanes, "intra_op_threads": threads,
            "threads_total": None if threads is None else threads * (2 if lanes != "inline" else 1),
            "devices": 2 if lanes == "devices" else 1,  # "devices": the draft on a device of its own
            "matches_reference": None,
        }

    def mark_matches(self, trials: list[dict[str, Any]]) -> None:
        """Greedy runs: share of requests whose tokens equal AR's at the same requests in
        flight (else any AR trial of the same repetition that served as many) and repetition
        (a lossless-ness cross-check; bf16 round-off may flip rare near-ties)."""
        if self.config.temperature > 0:
            return
        for t in trials:
            if t["kind"] == "reference":  # its outputs are not kept (other requests than the sweep's rows)
                continue
            mine = self.outputs.get((t["mode"], t["concurrency"], t["k"], t["rep"]))
            ref = self.outputs.get(("ar", t["concurrency"], 0, t["rep"]))
            if ref is None or len(ref) < len(mine or ()):
                ref = next((o for (m, _, _, rep), o in self.outputs.items()
                            if m == "ar" and rep == t["rep"] and len(o) >= len(mine or ())), None)
            if ref is not None and mine is not None:
                t["matches_reference"] = sum(a == b for a, b in zip(ref, mine)) / len(mine)

    # -- the run ---------------------------------------------------------------------------
    def run(self, argv: list[str] | None = None) -> dict[str, Any]:
        cfg = self.config
        started, load_start, created = time.perf_counter(), schema.loadavg(), schema.now_iso()
        clock = schema.cpu_clock()
        bar = _progress(cfg.progress, self._total_units())
        try:
            self._warmup(bar)
            calibration, rounds = self._calibrate(bar, 0), {0}
            trials = []
            for order, spec in enumerate(self.trials):
                if cfg.calibrate and cfg.recalibrate and spec.rep not in rounds:  # the repetition's first trial
                    calibration += self._calibrate(bar, spec.rep)
                    rounds.add(spec.rep)
                bar.set_description(f"{spec.mode} b={spec.batch_size} k={spec.k} rep={spec.rep}")
                record = self.run_trial(spec)
                record["order"] = order
                trials.append(record)
                bar.update(1)
            coop = self._cooperative(bar)
        finally:
            bar.close()
        self.mark_matches(trials)
        results = self._assemble(trials, calibration, coop, argv, created)
        results["conditions"] = {"loadavg_start": load_start, "loadavg_end": schema.loadavg(),
                                 "wall_seconds": time.perf_counter() - started,
                                 **schema.cpu_conditions(clock, schema.cpu_clock())}
        self._write_files(results, started)
        return results

    def _total_units(self) -> int:
        cfg = self.config
        warm = len({(s.mode, s.kind == "peer") for s in self.trials}) if cfg.warmup else 0
        warm += len(self._flex_learning_specs())
        calib = 0
        if cfg.calibrate:
            per = len(cfg.grid_batch_sizes) * (len(set(cfg.ks) | {0}) if self.engines.drafter is not None else 1)
            per *= len(probe.CALIBRATION_CONTEXTS)
            calib = per * len({cfg.sequential_threads, cfg.lane_threads}) * (cfg.repeats if cfg.recalibrate else 1)
        return warm + calib + len(self.trials) + (1 if self._coop_setting() else 0)

    def _warmup(self, bar: Any) -> None:
        """One short untimed trial per mode and peer: first calls allocate and compile."""
        if not self.config.warmup:
            return
        b = min(self.config.grid_batch_sizes)
        for spec in {(s.mode, s.kind == "peer"): s for s in self.trials if s.rep == 0}.values():
            bar.set_description(f"warm-up {spec.mode}")
            self.run_trial(TrialSpec(spec.mode, spec.kind, b if spec.kind != "peer" else 1, spec.k, -1),
                           n=2, max_new_tokens=4)
            bar.update(1)
        for spec in self._flex_learning_specs():
            bar.set_description(f"flex learning b={spec.batch_size} k={spec.k}")
            record = self.run_trial(replace(spec, rep=-1))  # the timed trials' workload, output lengths included
            self.flex_cold[spec.batch_size, spec.k] = record["tokens_per_second"]
            bar.update(1)

    def _flex_learning_specs(self) -> list[TrialSpec]:
        if not (self.config.warmup and self.config.flex_learning):
            return []
        return [s for s in self.trials if s.mode == "flex" and s.kind == "scheduler" and s.rep == 0]

    def _calibrate(self, bar: Any, rep: int) -> list[dict[str, Any]]:
        """Calibration points, each tagged ``round``: the repetition whose trials follow it."""
        cfg = self.config
        if not cfg.calibrate:
            return []
        # PSD's lane thread count is timed on the two lanes at once, as PSD runs; where it
        # equals the sequential count, one sequential pass serves both.
        lanes = cfg.equal_cores is not None and cfg.lane_threads != cfg.sequential_threads
        points = []
        for threads in sorted({cfg.sequential_threads, cfg.lane_threads}):
            overlapped = lanes and threads == cfg.lane_threads
            bar.set_description(f"calibrating T_draft, T_verify ({threads} thread{'s' * (threads > 1)}"
                                f"{' per lane, lanes overlapped' if overlapped else ''})")
            points += probe.calibrate(self.engines, self.prompts, cfg.grid_batch_sizes, cfg.ks, threads,
                                      reps=cfg.calibration_reps, tick=lambda: bar.update(1), overlapped=overlapped)
        return [{**p, "round": rep} for p in points]

    def _coop_setting(self) -> tuple[int, int] | None:
        cfg = self.config
        if not cfg.cooperative or self.engines.drafter is None:
            return None
        small = [b for b in cfg.grid_batch_sizes if b <= 8]
        return (max(small) if small else min(cfg.grid_batch_sizes), cfg.ks[len(cfg.ks) // 2])

    def _cooperative(self, bar: Any) -> dict[str, Any] | None:
        setting = self._coop_setting()
        if setting is None:
            return None
        bar.set_description("cooperative verification vs naive split")
        out = probe.cooperative_verification(self.engines, self.prompts, *setting, seed=self.config.seed)
        bar.update(1)
        return out

    def _assemble(self, trials: list[dict[str, Any]], calibration: list[dict[str, Any]],
                  coop: dict[str, Any] | None, argv: list[str] | None, created: str) -> dict[str, Any]:
        cfg = self.config
        rows = result_rows(trials)
        results: dict[str, Any] = {
            "schema": schema.SCHEMA_NAME, "schema_version": schema.SCHEMA_VERSION, "created": created,
            "label": cfg.label or f"{cfg.backend} {self.engines.info.get('device', cfg.device)} {cfg.preset} "
                                  f"({schema.hardware_info()['cpu_model']})",
            "command": "minedraft bench" + ("" if not argv else " " + " ".join(argv)),
            "hardware": schema.hardware_info(), "versions": schema.versions_info(),
            "config": {**cfg.to_json(), "prompts": self.prompt_info, "peers_run": list(self.peers)},
            "engines": {k: v for k, v in self.engines.info.items() if _jsonable(v)},
            "conditions": {}, "trials": trials, "results": rows, "cost_model": None,
            "cooperative_verification": coop, "files": {}, "notes": self.notes,
        }
        results["cost_model"] = analysis.analyse(results, calibration)
        results["ratios"] = analysis.ratios(rows)
        if "flex" in cfg.modes:
            results["flex_bar"] = analysis.flex_bar(rows, self.flex_cold)
            results["flex_bar_summary"] = oracle.summary(results["flex_bar"], trials, cfg.repeats)
        return results

    def _write_files(self, results: dict[str, Any], origin: float) -> None:
        out = Path(self.config.out_dir)
        out.mkdir(parents=True, exist_ok=True)
        files = {"results": "results.json", "throughput_plot": "throughput.png", "timeline_plot": "timeline.png",
                 "trace": "trace.json"}
        plots.throughput_plot(results, out / files["throughput_plot"])
        chosen = plots.timeline_plot(self.last_traces, out / files["timeline_plot"], self.config.timeline_batch,
                                     self.config.timeline_steps)
        if chosen is None:
            files.pop("timeline_plot")
            self.notes.append("no lane timeline: no scheduler trial recorded lane intervals")
        traces.write_chrome(self.last_traces, out / files["trace"], origin)
        results["files"] = files
        schema.save(results, out / files["results"])


def _uses_draft(peer: Any) -> bool:
    """Peer functions say whether they run the draft model (``uses_draft``, default no)."""
    return bool(getattr(peer, "uses_draft", False))


def _jsonable(value: Any) -> bool:
    return isinstance(value, (str, int, float, bool, type(None)))


class _NoBar:
    def update(self, n: int = 1) -> None:
        pass

    def set_description(self, text: str) -> None:
        pass

    def close(self) -> None:
        pass


def _progress(enabled: bool, total: int) -> Any:
    if not enabled:
        return _NoBar()
    from tqdm import tqdm

    return tqdm(total=total, unit="trial", dynamic_ncols=True, leave=False)


def run_bench(config: BenchConfig, engines: EnginePair | None = None, argv: list[str] | None = None,
              print_report: bool = False) -> dict[str, Any]:
    """Run the benchmark; write results.json, plots and trace into ``config.out_dir``."""
    results = Bench(config, engines).run(argv)
    if print_report:
        print(report.render(results))
    return results
