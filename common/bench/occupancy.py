"""Where a trial's time went: prefill steps, decode steps with every slot busy, and decode
steps below that.

A bench trial is closed: 2 x c requests arrive at the start and c are in flight at once.
Its tokens/s mixes three regimes, and the modes spend different shares of the trial in each:

- *prefill steps* (some request got its first token): a newcomer's prompt runs through the
  target, in a forward of its own beside the decode rows;
- *busy decode steps*: as many sequences in flight as the trial ever held, the steady
  state of a server that is kept loaded;
- *decode steps below that*: newcomers entering a few at a time, and the draining tail
  once no request is waiting.

Under AR with one output length, the requests of a wave finish at the same step, so the
next wave enters in one prefill and nothing drains before the end. Speculative modes
finish requests at staggered steps (acceptance differs per request), so they spend more
of a trial in the other two regimes. The busy-step rate compares the modes on the steady
state alone. It explains the whole-trial tokens/s, which stays the headline.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class TimeSplit:
    """Shares of a trial's summed step time (they add up to 1) and the busy steps' rate."""

    prefill: float  # in prefill steps
    busy: float  # in decode steps at the trial's peak number of sequences in flight
    below: float  # in decode steps with fewer
    busy_rate: float | None  # tokens emitted per second of busy decode steps; None if there were none


def time_split(steps: Mapping[str, Sequence[Any]] | None) -> TimeSplit | None:
    """The split of one trial's step columns; None without steps or without a ``running``
    column (``--no-steps``, files before schema 5)."""
    running = (steps or {}).get("running")
    if not steps or not running or not any(running):
        return None
    peak = max(running)
    times = {"prefill": 0.0, "busy": 0.0, "below": 0.0}
    busy_tokens = 0
    for duration, in_flight, prefill, emitted in zip(steps["duration"], running, steps["prefill"], steps["emitted"]):
        regime = "prefill" if prefill else "busy" if in_flight == peak else "below"
        times[regime] += duration
        busy_tokens += emitted if regime == "busy" else 0
    total = sum(times.values())
    if total <= 0:
        return None
    rate = busy_tokens / times["busy"] if times["busy"] > 0 else None
    return TimeSplit(times["prefill"] / total, times["busy"] / total, times["below"] / total, rate)


def split_rows(trials: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per (mode, kind, b, k), in the order first met: requests in flight and the medians
    over repetitions of the shares and the busy rate. Configurations without splits are
    left out."""
    groups: dict[tuple[str, str, int, int], tuple[dict[str, Any], list[TimeSplit]]] = {}
    for trial in trials:
        split = time_split(trial.get("steps"))
        if split is not None:
            key = (trial["mode"], trial["kind"], trial["batch_size"], trial["k"])
            groups.setdefault(key, (trial, []))[1].append(split)
    rows = []
    for (mode, kind, b, k), (t, splits) in groups.items():
        rates = [s.busy_rate for s in splits if s.busy_rate is not None]
        rows.append({
            "mode": mode, "kind": kind, "batch_size": b, "k": k, "concurrency": t["concurrency"],
            "threads_total": t["threads_total"], "devices": t.get("devices", 1),
            "prefill": statistics.median(s.prefill for s in splits), "busy": statistics.median(s.busy for s in splits),
            "below": statistics.median(s.below for s in splits),
            "busy_rate": statistics.median(rates) if rates else None,
        })
    return rows


def lines(trials: Sequence[dict[str, Any]]) -> list[str]:
    """The report's section: one line per configuration, with its busy rate over AR's at the
    same requests in flight (labelled where the two ran on different numbers of cores)."""
    rows = split_rows(trials)
    if not rows:
        return []
    ar = {r["concurrency"]: r for r in rows if r["mode"] == "ar" and r["kind"] == "scheduler" and r["busy_rate"]}
    out = ["", "Where the time went (shares of step time: prefill steps / decode steps with every slot busy / "
               "decode steps below that; tok/s of the busy decode steps; medians over repetitions):"]
    for r in sorted(rows, key=lambda r: (r["concurrency"], r["kind"] != "scheduler", r["mode"], r["k"])):
        rate = "-" if r["busy_rate"] is None else f"{r['busy_rate']:.1f} tok/s"
        base = ar.get(r["concurrency"])
        vs_ar = ""
        if base and r["busy_rate"] and r["mode"] != "ar":
            cores = ""
            if r["devices"] != base["devices"]:
                cores = f", UNEQUAL HARDWARE: {r['devices']} devices against AR's {base['devices']}"
            elif r["threads_total"] != base["threads_total"]:
                cores = f", UNEQUAL CORES: {r['threads_total']} threads against AR's {base['threads_total']}"
            vs_ar = f" ({r['busy_rate'] / base['busy_rate']:.2f}x AR's{cores})"
        name = r["mode"] + ("*" if r["kind"] == "reference" else "")
        out.append(f"  {name:<5} b={r['batch_size']:<3} k={r['k']} {r['concurrency']:>3} in flight: "
                   f"{r['prefill']:.0%} / {r['busy']:.0%} / {r['below']:.0%}, busy steps {rate}{vs_ar}")
    return out
