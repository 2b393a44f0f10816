"""Predicted against measured decode tokens/s, trial by trial.

A trial's decode steps are replayed through a cost model: each step keeps its measured
workload (requests verified and drafted, draft tokens verified, tokens emitted, whether it
overlapped) and only its duration is predicted,

- sequential (AR, SD, flex's AR/SD steps): ``T_d(b_d, k) + T_v(b_v, k_v) + c_seq``;
- overlapped (PSD, flex's PSD steps): ``max(T_d(b_d, k), T_v(b_v, k_v)) + c``,

with ``k_v`` the step's verified width, its longest draft (the target scores the batch as a
padded rectangle, so a short draft among long ones saves nothing; files before schema 3
have only the mean, draft tokens per verified request), and each cost at the step's
context, the longest committed sequence verified or drafted for (attention runs over it;
files before schema 4 have none, and their fits no attention term). The predicted decode tokens/s
is the trial's decode tokens over the summed predicted durations, so occupancy (the
draining tail runs fewer requests than ``b``), acceptance and per-step k are inputs and
the model is judged on time alone. Two models are applied:

- ``calibration``: ``CostModel`` fitted to the calibration's decode steps
  (``probe.calibrate``: SD's, and PSD's on the two lanes), at the step's intra-op thread
  count, the calibration taken just before the trial's repetition (points carry their
  ``round``, the repetition that followed them; one round with ``--no-recalibrate``);
- ``in_scheduler``: ``CostModel`` fitted to the decode steps of every *other*
  configuration (mode, b, k) of the same run, at the same thread count (leave one
  configuration out, so a row's own timings never predict it). Per-step overheads
  ``c_seq`` and ``c`` are the medians over those steps. This is the figure the issue's
  bar (within 10%) is checked on: it measures whether the model's form carries from one
  configuration to another under the real scheduler, contention included;
- ``in_repetition``: the same, fitted only to the other configurations' trials of the
  trial's own repetition. Repetitions interleave every configuration, so these steps ran
  within minutes of the trial, where the whole run's spread over a quarter of an hour in
  which the host's speed drifts by 10-24% (docs/flex.md): a trial timed in a slow spell
  is predicted from steps timed in the same spell, as the flex bar pairs repetitions.

The two in-scheduler fits need no calibration: every bench run has them. A trial with a
step that no fit can price (a thread count no other configuration ran: flex's PSD probes in
a run without PSD) has no prediction; a row is predicted from the trials that have one and
held against their measured median, and says how many of its trials that is.

Rows are medians over repetitions; prefill steps are left out as in ``decode tok/s``.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from ..rules.cost_model import CostModel

TOLERANCE = 0.10  # the bar: within 10% at every measured point
MODELS = ("calibration", "in_scheduler", "in_repetition")  # the fits, as keys of every table entry


@dataclass(frozen=True)
class Step:
    """One decode step's measured workload and times (a column of a trial's ``steps``)."""

    overlapped: bool  # ran on the two lanes (PSD); else inline (AR, SD)
    threads: int  # intra-op threads of the lanes that ran it
    verify_batch: int
    draft_batch: int
    proposed: int  # draft tokens verified
    width: float  # longest draft verified (files before schema 3: the mean, proposed / verify_batch)
    verify_context: int  # longest committed sequence verified (files before schema 4: 0)
    draft_context: int  # longest committed sequence drafted for
    draft_k: int  # draft forwards asked of the draft lane
    emitted: int
    duration: float
    draft_time: float
    verify_time: float
    draft_prefill: bool = False  # the draft call also fed unseen context (files before schema 5: False)


def _step_mode(trial: dict[str, Any], cols: dict[str, list], i: int) -> str:
    """"ar", "sd" or "psd" for step i: the recorded mode (flex records ``flex:<mode>``), or
    for files without a mode column the trial's mode, flex's inferred from its overlap."""
    if "mode" in cols:
        return cols["mode"][i].split(":")[-1]
    if trial["mode"] != "flex":
        return trial["mode"]
    return "psd" if cols["overlapped"][i] else ("sd" if cols["draft_batch"][i] else "ar")


def decode_steps(trial: dict[str, Any], threads: dict[str, int]) -> Iterator[Step]:
    """The trial's decode steps. ``threads``: intra-op threads of sequential steps (``sd``)
    and of each PSD lane (``psd``)."""
    cols = trial.get("steps")
    if not cols:
        return
    for i in range(len(cols["duration"])):
        if cols["prefill"][i]:
            continue
        mode = _step_mode(trial, cols, i)
        k = cols["k"][i] if "k" in cols else trial["k"]
        batch, proposed = cols["verify_batch"][i], cols["proposed"][i]
        width = cols["verify_width"][i] if "verify_width" in cols else proposed / batch if batch else 0.0
        contexts = {c: cols[c][i] if c in cols else 0 for c in ("verify_context", "draft_context")}
        yield Step(
            overlapped=bool(cols["overlapped"][i]), threads=threads["psd" if mode == "psd" else "sd"],
            verify_batch=batch, draft_batch=cols["draft_batch"][i], proposed=proposed, width=width, **contexts,
            draft_k=max(int(k), 1), emitted=cols["emitted"][i], duration=cols["duration"][i],
            draft_time=cols["draft_time"][i], verify_time=cols["verify_time"][i],
            draft_prefill=bool(cols["draft_prefill"][i]) if "draft_prefill" in cols else False,
        )


@dataclass
class StepModel:
    """Cost models per thread count plus the per-step overheads they leave out."""

    models: dict[int, CostModel]
    sequential_overhead: float = 0.0  # c_seq: step time - T_d - T_v of inline steps
    overlapped_overhead: float = 0.0  # c: step time - max(T_d, T_v) of overlapped steps

    def step_time(self, s: Step) -> float | None:
        model = self.models.get(s.threads)
        drafts = bool(s.draft_batch) and s.draft_time > 0
        if model is None or model.observations[1] < 2 or drafts and model.observations[0] < 2:
            return None  # too little to fit: no prediction rather than a made-up one
        t_draft = model.t_draft(s.draft_batch, s.draft_k, s.draft_context) if drafts else 0.0
        t_verify = model.t_verify(s.verify_batch, s.width, s.verify_context) if s.verify_batch else 0.0
        if s.overlapped:
            return max(t_draft, t_verify) + self.overlapped_overhead
        return t_draft + t_verify + self.sequential_overhead


def calibration_fits(calibration: Iterable[dict[str, Any]], overhead: float = 0.0) -> dict[int, CostModel]:
    """One ``CostModel`` per intra-op thread count, fitted to the calibration's points
    (median of the reps); ``overhead``: PSD's per-step c."""
    by_threads: dict[int, list[dict[str, Any]]] = {}
    for p in calibration:
        by_threads.setdefault(p["threads"], []).append(p)
    return {t: CostModel.from_measurements(ps, overhead=overhead) for t, ps in by_threads.items()}


def calibration_rounds(calibration: Iterable[dict[str, Any]], overhead: float = 0.0) -> Callable[[int], StepModel]:
    """The calibration's fits by repetition: the fit of the latest round taken before
    repetition ``rep`` (points without a ``round``, from files before it: round 0)."""
    by_round: dict[int, list[dict[str, Any]]] = {}
    for p in calibration:
        by_round.setdefault(p.get("round", 0), []).append(p)
    models = {r: StepModel(calibration_fits(ps), overlapped_overhead=overhead) for r, ps in by_round.items()}
    empty = StepModel({}, overlapped_overhead=overhead)

    def fit(rep: int) -> StepModel:
        taken = [r for r in models if r <= rep]
        return models[max(taken)] if taken else empty

    return fit


def fit_steps(steps: Iterable[Step]) -> StepModel:
    """Fits to in-scheduler decode steps: verifications and draft calls per thread count,
    overheads as medians. A draft call that also fed context the drafter had not seen (a
    prompt, or the tokens flex's AR steps committed) is left out of the draft fit: its time
    is mostly that prefill, and one such call at a batch size no other step reached set the
    fit's slope there (flex's one SD step at 32 in flight, after AR steps, put 179 ms a
    draft forward where plain drafting takes 35)."""
    models: dict[int, CostModel] = {}
    seq, ovl = [], []
    for s in steps:
        model = models.setdefault(s.threads, CostModel(window=1 << 20))
        if s.verify_batch:
            model.observe_verify(s.verify_batch, s.width, s.verify_time, s.verify_context)
        if s.draft_batch and s.draft_time > 0 and not s.draft_prefill:
            model.observe_draft(s.draft_batch, s.draft_k, s.draft_time, s.draft_context)
        if s.overlapped:
            ovl.append(s.duration - max(s.draft_time, s.verify_time))
        else:
            seq.append(s.duration - s.draft_time - s.verify_time)
    return StepModel(models, max(0.0, statistics.median(seq)) if seq else 0.0,
                     max(0.0, statistics.median(ovl)) if ovl else 0.0)


def predicted_decode_rate(model: StepModel, steps: list[Step]) -> float | None:
    """Decode tokens of ``steps`` over their summed predicted durations."""
    times = [model.step_time(s) for s in steps]
    if not steps or any(t is None for t in times):
        return None
    total = sum(t for t in times if t is not None)
    return sum(s.emitted for s in steps) / total if total > 0 else None


def rounds_taken(calibration: Iterable[dict[str, Any]]) -> int:
    """How many calibrations a run took (one before each repetition by default; points
    without a ``round``, from files before it, count as round 0)."""
    return len({p.get("round", 0) for p in calibration})


def repeatability(calibration: list[dict[str, Any]]) -> dict[str, Any] | None:
    """How closely the machine repeats its own timings: each calibration point (threads,
    batch, k, context, lanes) measured in two or more rounds, its draft and verify seconds
    compared across the rounds as slowest / fastest - 1 (the "spread"). A point's model
    error cannot be told apart from a spread this wide, so the report sets it next to the
    10% bar. None with fewer than two rounds."""
    seconds: dict[tuple, list[float]] = {}
    for p in calibration:
        point = (p["threads"], p["batch"], p["k"], p.get("context", 0), p.get("overlapped", False))
        for cost in ("t_draft", "t_verify"):
            if p.get(cost):
                seconds.setdefault((*point, cost), []).append(p[cost])
    spreads = [max(v) / min(v) - 1.0 for v in seconds.values() if len(v) > 1]
    if not spreads:
        return None
    return {"rounds": rounds_taken(calibration), "costs": len(spreads),
            "median_spread": statistics.median(spreads), "beyond_tolerance": sum(s > TOLERANCE for s in spreads)}


def _key(trial: dict[str, Any]) -> tuple[str, int, int]:
    return trial["mode"], trial["batch_size"], trial["k"]


def prediction_table(trials: list[dict[str, Any]], calibration: Iterable[dict[str, Any]],
                     threads: dict[str, int], overhead: float = 0.0) -> list[dict[str, Any]]:
    """One entry per (mode, b, k) of the scheduler trials: measured decode tokens/s and the
    predictions of ``MODELS`` (medians over repetitions), their ratios and whether each is
    within ``TOLERANCE``. ``threads``: intra-op threads of sequential steps (``sd``) and per
    PSD lane (``psd``). Without calibration points its prediction is None."""
    runs = [t for t in trials if t["kind"] == "scheduler" and t.get("steps")]
    steps = {id(t): list(decode_steps(t, threads)) for t in runs}
    groups: dict[tuple[str, int, int], list[dict[str, Any]]] = {}
    for t in runs:
        if steps[id(t)]:
            groups.setdefault(_key(t), []).append(t)
    calibrated = calibration_rounds(calibration, overhead)

    fitted: dict[tuple[tuple[str, int, int], int | None], StepModel] = {}

    def fit(name: str, key: tuple[str, int, int], trial: dict[str, Any]) -> StepModel:
        """The model ``name`` applies to ``trial`` of configuration ``key``."""
        rep = trial.get("rep", 0)
        if name == "calibration":
            return calibrated(rep)
        scope = rep if name == "in_repetition" else None  # None: every repetition
        if (key, scope) not in fitted:
            fitted[key, scope] = fit_steps(s for t in runs if _key(t) != key
                                           and (scope is None or t.get("rep", 0) == scope) for s in steps[id(t)])
        return fitted[key, scope]

    out = []
    for key, members in groups.items():
        entry: dict[str, Any] = {"mode": key[0], "batch_size": key[1], "k": key[2],
                                 "concurrency": members[0]["concurrency"]}
        measured = [sum(s.emitted for s in steps[id(t)]) / sum(s.duration for s in steps[id(t)]) for t in members]
        entry["measured_decode"] = statistics.median(measured)
        for name in MODELS:
            rates = [predicted_decode_rate(fit(name, key, t), steps[id(t)]) for t in members]
            # Trials no fit can price are left out (module docstring).
            priced = [(r, m) for r, m in zip(rates, measured) if r is not None]
            pred = statistics.median(r for r, _ in priced) if priced else None
            ratio = pred / statistics.median(m for _, m in priced) if pred is not None else None
            entry[name] = {"predicted": pred, "ratio": ratio, "priced": len(priced), "trials": len(members),
                           "within_tolerance": ratio is not None and abs(ratio - 1.0) <= TOLERANCE}
        out.append(entry)
    out.sort(key=lambda e: (e["batch_size"], e["k"], e["mode"]))
    return out


def lines(table: list[dict[str, Any]], per_repetition: bool = False,
          spread: dict[str, Any] | None = None) -> list[str]:
    """The table as report lines; ``per_repetition``: the calibration was taken again before
    each repetition (the default; not with ``--no-recalibrate``); ``spread``: the
    calibration's ``repeatability``. Without a calibration (``--no-calibrate``) its column
    is left out."""
    if not table:
        return []
    # files from before a fit lack its key; a run without calibration has no calibration fit
    names = [n for n in MODELS if all(n in e for e in table)
             and (n != "calibration" or any(e[n]["predicted"] is not None for e in table))]
    which = "the calibration's decode steps" + (", the one taken before the trial's repetition" if per_repetition else "")
    fitted = {"calibration": f"'calibration': fitted to {which}",
              "in_scheduler": "'in-scheduler': fitted to the other configurations' decode steps",
              "in_repetition": "'in-repetition': the same, of the trial's own repetition"}
    out = ["", f"Predicted against measured decode tok/s, each trial's own decode steps replayed (bar: within "
               f"{TOLERANCE:.0%}; {'; '.join(fitted[n] for n in names)}):"]

    def cell(e: dict[str, Any], name: str) -> str:
        p = e[name]
        if p["predicted"] is None:
            return "-"
        notes = "" if p["within_tolerance"] else ", outside"
        if p.get("priced", 0) < p.get("trials", 0):  # files before the counts have neither
            notes += f", {p['priced']} of {p['trials']} trials priced"
        return f"{p['predicted']:.1f} ({p['ratio']:.2f}{notes})"

    for e in table:
        cells = "; ".join(f"{n.replace('_', '-')} {cell(e, n)}" for n in names)
        out.append(f"  {e['mode']:>4} b={e['batch_size']:<2} k={e['k']} conc={e['concurrency']:<2}: measured "
                   f"{e['measured_decode']:.1f}; {cells}")
    for name in names:
        within = sum(e[name]["within_tolerance"] for e in table)
        out.append(f"  within {TOLERANCE:.0%}, {name.replace('_', '-')}: {within} of {len(table)}")
    if spread:
        out.append(f"  repeatability: the same calibration cost measured in {spread['rounds']} rounds differs by a "
                   f"median {spread['median_spread']:.0%} (slowest / fastest - 1); {spread['beyond_tolerance']} of "
                   f"{spread['costs']} by more than {TOLERANCE:.0%}")
    return out
