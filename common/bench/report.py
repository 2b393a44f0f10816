"""Plain-text tables of a results object (``minedraft bench``) and of several (``compare``)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from . import occupancy, oracle, prediction


def _f(x: float | None, fmt: str = "{:.1f}") -> str:
    return "-" if x is None else fmt.format(x)


def _ms(x: float | None) -> str:
    return "-" if x is None else f"{1000 * x:.1f}"


def _spread(cfg: dict[str, Any]) -> str:
    """Output-length spread of the run; results files from before the option have none."""
    spread = cfg.get("max_new_tokens_spread") or 0
    return f" (per request x[{1 - spread:g}, {1 + spread:g}])" if spread else ""


def _cores(cfg: dict[str, Any]) -> str:
    equal = cfg.get("equal_cores")
    if equal is None:
        return ""
    return " (equal cores)" if equal else " (UNEQUAL CORES: AR/SD and PSD use different thread totals)"


def table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]
    line = "  ".join(h.rjust(w) if i else h.ljust(w) for i, (h, w) in enumerate(zip(headers, widths)))
    body = ["  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))) for r in rows]
    return "\n".join([line, "-" * len(line), *body])


RESULT_HEADERS = ("mode", "b", "k", "conc", "thr", "tok/s", "pred", "decode tok/s", "lat mean/p50/p90 s", "ttft p50 s",
                  "accept", "tok/step", "overlap", "step/max", "=AR")


def result_rows(results: dict[str, Any]) -> list[list[str]]:
    rows = []
    for r in results["results"]:
        lat = r["latency"]
        pred = r["predicted"]["tokens_per_second"] if r["predicted"] else None
        rows.append([
            r["mode"] + ("*" if r["kind"] == "reference" else ""), str(r["batch_size"]), str(r["k"]), str(r["concurrency"]), _f(r["threads_total"], "{}"),
            _f(r["tokens_per_second"]) + ("" if r["reps"] == 1 else f" ±{(r['tokens_per_second_max'] - r['tokens_per_second_min']) / 2:.1f}"),
            _f(pred), _f(r["decode_tokens_per_second"]),
            f"{lat['mean']:.2f}/{lat['p50']:.2f}/{lat['p90']:.2f}", f"{r['ttft']['p50']:.2f}",
            _f(r["acceptance_rate"], "{:.2f}"), _f(r["tokens_per_target_step"], "{:.2f}"),
            _f(r["overlapped_share"], "{:.2f}"), _f(r["step_time_over_max"], "{:.2f}"),
            _f(r["matches_reference"], "{:.2f}"),
        ])
    return rows


def _cost_lines(cm: dict[str, Any]) -> list[str]:
    rounds = prediction.rounds_taken(cm["calibration"])
    pooled = f" ({rounds} rounds, one before each repetition, pooled)" if rounds > 1 else ""
    lines = ["", f"Cost model (docs/theory.md), fitted to the calibration{pooled}:"]
    for threads, c in cm["fits"].items():
        draft = (f"{_ms(c['d0'])} + {_ms(c['d1'])}*b" if c.get("b_knot") is None else
                 f"{_ms(c['d0'])} + {_ms(c['d1'])}*min(b,{c['b_knot']:g}) + {_ms(c['d2'])}*max(0,b-{c['b_knot']:g})")
        rows = (f"{_ms(c['v2'])}*r" if c.get("r_knot") is None else
                f"{_ms(c['v2'])}*min(r,{c['r_knot']:g}) + {_ms(c['v3'])}*max(0,r-{c['r_knot']:g})")
        # Attention terms (ms per row and context position); files before them have none.
        d_att, v_att = (f" + {1e3 * c['d_att']:.3g}*b*L", f" + {1e3 * c['v_att']:.3g}*r*L") if "v_att" in c else ("", "")
        lines.append(f"  {threads} thread(s): T_draft(b,k,L) = k*({draft}{d_att}) ms, "
                     f"T_verify(b,k,L) = {_ms(c['v0'])} + {_ms(c['v1'])}*b + {rows}{v_att} ms, r = b*(k+1), "
                     "L = longest committed sequence")
    lines.append(f"  PSD overhead c = {_ms(cm['overhead'])} ms/step; acceptance alpha = {cm['alpha']:.3f}; "
                 f"threads: {cm['threads']}")
    best: dict[int, list[str]] = {}
    for b in cm["best"]:
        best.setdefault(b["batch_size"], []).append(
            f"{b['mode']} k={b['k']} {b['tokens_per_second']:.1f} tok/s" if b["mode"] != "ar"
            else f"ar {b['tokens_per_second']:.1f} tok/s")
    for b, items in best.items():
        lines.append(f"  best k, predicted at b={b}: " + "; ".join(items))
    for s in cm["speedup_psd_over_sd"]:
        label = s.get("label") or f"PSD/SD at b={s['batch_size']} k={s['k']}"  # files from before the pairing
        lines.append(f"  {label}: measured {s['measured']:.2f}x (decode {_f(s['measured_decode'], '{:.2f}')}x), "
                     f"predicted {_f(s['predicted'], '{:.2f}')}x; PSD's bound over SD at its own sub-batch "
                     f"(T_d+T_v)/max(T_d,T_v) {s['bound']:.2f}x (at most 2; not at equal load)")
    return lines


def _ratio_lines(ratios: list[dict[str, Any]]) -> list[str]:
    """Equal-load ratios first; the rest, labelled, after."""
    if not ratios:
        return []
    ordered = sorted(ratios, key=lambda p: (not (p["equal_load"] and p["equal_cores"]), p["numerator"],
                                            p["denominator"], p["concurrency"], p["k"]))
    return ["", "Ratios (measured tokens/s; equal requests in flight and equal cores unless labelled):",
            *(f"  {p['label']}: {p['ratio']:.2f}x" for p in ordered)]


STEP_HEADERS = ("mode", "b", "k", "step ms", "pred step", "draft lane", "calibrated", "target lane", "calibrated")


def _step_table(rows: list[dict[str, Any]]) -> list[str]:
    """Decode-step and lane times in the run against the calibrated single-lane times: lanes
    slower in the run than calibrated means the other lane or other processes took the CPU."""
    out = []
    for r in rows:
        p = r["predicted"]
        if not p or r["mode"] == "ar" or r["mean_decode_step_time"] is None:
            continue
        out.append([r["mode"], str(r["batch_size"]), str(r["k"]), _ms(r["mean_decode_step_time"]), _ms(p["step_time"]),
                    _ms(r["mean_decode_draft_time"]), _ms(p["t_draft"]), _ms(r["mean_decode_verify_time"]),
                    _ms(p["t_verify"])])
    if not out:
        return []
    return ["", "Decode steps (means, ms) against the cost model:", table(STEP_HEADERS, out)]


def _coop_lines(coop: dict[str, Any]) -> list[str]:
    lines = ["", f"Cooperative verification (b={coop['batch_size']}, k={coop['k']}, vocab {coop['vocab_size']}, "
                 f"median of {coop['reps']}):"]
    for c in coop["cases"]:
        lines.append(
            f"  {c['sampling']}: accept on target lane {_ms(c['cooperative_seconds'])} ms, {c['bytes_cooperative']} B "
            f"cross; naive split {_ms(c['naive_seconds'])} ms, {c['bytes_naive'] / 1e6:.2f} MB cross "
            f"({_ms(c['difference_seconds'])} ms more); same outcome: {'yes' if c['same_outcome'] else 'NO'}")
    return lines


def _reps(span: list[float] | None) -> str:
    """', reps 20.1-23.3' (slowest-fastest repetition; older results files have none)."""
    return "" if not span else f", reps {span[0]:.1f}-{span[1]:.1f}"


def _verdict(c: dict[str, Any]) -> str:
    """'met', or 'NOT met' and whether the repetitions' spread covers the gap (one
    repetition, or files from before the flag: plain 'NOT met')."""
    if c["met"]:
        return "met"
    if c.get("beyond_spread") is None:
        return "NOT met"
    return "NOT met, " + ("beyond the repetitions' spread" if c["beyond_spread"] else "within the repetitions' spread")


def _flex_lines(bar: list[dict[str, Any]]) -> list[str]:
    lines = ["", "Flex against the best fixed mode (bar: flex >= 0.95x; same concurrency: the AR, SD and PSD rows "
                 "holding as many requests as flex):"]
    for e in bar:
        parts = []
        for name, label in (("same_concurrency", "same requests in flight"), ("same_batch", "same max_batch_size")):
            c = e[name]
            if c is None:
                parts.append(f"{label}: -")
                continue
            if not c.get("equal_load", name == "same_concurrency"):  # the best row held another number of requests
                label += " (UNEQUAL LOAD)"
            cores = "" if c.get("equal_cores", True) else " UNEQUAL CORES"
            parts.append(f"{label}: {c['ratio']:.2f}x vs {c['best_mode']} b={c['best_batch_size']} "
                         f"({c['best_tokens_per_second']:.1f} tok/s{_reps(c.get('best_range'))}){cores} "
                         f"{_verdict(c)}")
        notes = _reps(e.get("flex_range")) + ("" if e.get("cold") is None else f", learning trial {e['cold']:.1f}")
        notes = f" ({notes[2:]})" if notes else ""
        lines.append(f"  b={e['batch_size']} k={e['k']}: flex {e['flex']:.1f} tok/s{notes}; " + "; ".join(parts))
    return lines


def bar_summary_lines(summary: dict[str, Any] | None) -> list[str]:
    """The whole bar at equal load, and how often an oracle flex would meet it at this
    run's noise (``minedraft.bench.oracle``)."""
    if not summary:
        return []
    lines = [f"  the bar at equal load: {summary['points'] - summary['under_bar']} of {summary['points']} points "
             f">= {oracle.FLEX_BAR}x ({'met' if summary['every_point_met'] else 'NOT met'}); mean "
             f"{summary['mean_ratio']:.3f}x, bar >= {oracle.MEAN_BAR}x ({'met' if summary['mean_met'] else 'NOT met'})"]
    noise, chance = summary.get("noise"), summary.get("oracle")
    if chance:
        rho = "-" if noise["rho"] is None else f"{noise['rho']:.2f}"
        lines.append(f"  an oracle flex (the best fixed mode on every step, no decision cost) would meet every point "
                     f"in {chance['every_point']:.0%} of runs, the mean in {chance['mean']:.0%}, both in "
                     f"{chance['both']:.0%} (simulated at this run's noise: one trial's sd {noise['sigma']:.3f} "
                     f"in log tok/s, modes in one repetition correlated {rho}, {noise['trials']} fixed-mode trials)")
    pair = summary.get("paired")
    if pair:
        ratios = " ".join(f"{r:.2f}" for r in pair["ratios"])
        lines.append(f"  paired by repetition (each repetition's flex trial over the best mode's trial beside it, "
                     f"median over repetitions): {ratios}; {summary['points'] - pair['under_bar']} of "
                     f"{summary['points']} points >= {oracle.FLEX_BAR}x ({'met' if pair['every_point_met'] else 'NOT met'}); "
                     f"mean {pair['mean_ratio']:.3f}x ({'met' if pair['mean_met'] else 'NOT met'})"
                     + (f"; the oracle would meet every point in {chance['paired_every_point']:.0%}, the mean in "
                        f"{chance['paired_mean']:.0%}, both in {chance['paired_both']:.0%}"
                        if chance and "paired_both" in chance else ""))
    return lines


def render(results: dict[str, Any]) -> str:
    cfg = results["config"]
    out = [f"minedraft bench: {results['label']}",
           f"target={results['engines'].get('target', cfg['target'])} draft={results['engines'].get('draft')} "
           f"backend={cfg['backend']} dtype={results['engines'].get('dtype')} "
           f"max_new_tokens={cfg['max_new_tokens']}{_spread(cfg)} temperature={cfg['temperature']} "
           f"requests/trial={cfg['requests_per_batch']}*b repeats={cfg['repeats']} "
           f"threads: AR/SD/peers {cfg['sequential_threads']}, PSD {cfg['lane_threads']} per lane"
           f"{_cores(cfg)} prompts={cfg.get('prompt_class', 'chat')}",
           "", table(RESULT_HEADERS, result_rows(results)),
           "b: requests verified together (per sub-batch for PSD); conc: requests in flight; thr: intra-op threads "
           "in use (all lanes); pred: cost-model steady state; step/max: PSD step time / max(T_draft, T_verify); "
           "=AR: share of outputs equal to AR's (greedy; under 16-bit dtypes round-off between batch shapes flips "
           "near-ties, so it can fall below 1 losslessly: docs/benchmarks.md); mode*: a reference row at flex's "
           "concurrency (flex bar)"]
    out += _ratio_lines(results.get("ratios") or [])
    out += occupancy.lines(results["trials"])
    if results["cost_model"]:
        cm = results["cost_model"]
        if "fits" in cm:  # a calibration was taken (not with --no-calibrate)
            out += _cost_lines(cm) + _step_table(results["results"])
        replayed = cm.get("prediction")
        if replayed is None:  # files from before the per-trial replay
            replayed = prediction.prediction_table(results["trials"], cm["calibration"], cm["threads"], cm["overhead"])
        # files from before the repeatability line have none stored
        spread = cm["repeatability"] if "repeatability" in cm else prediction.repeatability(cm["calibration"])
        out += prediction.lines(replayed, per_repetition=prediction.rounds_taken(cm["calibration"]) > 1, spread=spread)
    if results.get("flex_bar"):
        out += _flex_lines(results["flex_bar"])
        out += bar_summary_lines(oracle.stored_summary(results))
    if results["cooperative_verification"]:
        out += _coop_lines(results["cooperative_verification"])
    out += footer_lines(results)
    return "\n".join(out)


def _cpu_use(cond: dict[str, Any]) -> str:
    """Steal and this process's busy cores, where recorded (files before them: nothing)."""
    out = ""
    if cond.get("steal_share") is not None:
        out += f"; CPU steal {cond['steal_share']:.1%} (other guests on these cores)"
    if cond.get("process_cores") is not None:
        out += f"; this process kept {cond['process_cores']:.2f} cores busy"
    return out


def footer_lines(results: dict[str, Any]) -> list[str]:
    """The run's conditions, notes and files: the last lines of every report."""
    cond = results["conditions"]
    out = ["", f"Conditions: load average {cond.get('loadavg_start')} -> {cond.get('loadavg_end')}, "
               f"{results['hardware'].get('cpu_affinity') or results['hardware'].get('cpu_count')} cores, "
               f"{cond.get('wall_seconds', 0):.0f} s" + _cpu_use(cond)]
    out += [f"note: {n}" for n in results["notes"]]
    if results["files"]:
        out.append("files: " + ", ".join(os.path.join(results["config"]["out_dir"], f)
                                         for f in results["files"].values()))
    return out
