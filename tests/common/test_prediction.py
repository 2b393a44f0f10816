"""Predicted against measured decode tokens/s (minedraft.bench.prediction): each trial's
decode steps replayed through a cost model fitted to the calibration, or to the other
configurations' steps. Synthetic trials whose times follow a known law."""

from __future__ import annotations

import pytest

from minedraft.bench.prediction import (
    calibration_rounds,
    decode_steps,
    fit_steps,
    lines,
    prediction_table,
    repeatability,
)

THREADS = {"ar": 2, "sd": 2, "psd": 1}


def t_verify(b: int, width: int, threads: int) -> float:
    """A padded verification: b rows of width + 1 positions, however many drafts are shorter."""
    return (0.030 + 0.001 * b + 0.0005 * b * (width + 1)) * (2.0 if threads == 1 else 1.0)


def t_draft(b: int, k: int, threads: int) -> float:
    return k * (0.004 + 0.0008 * b) * (2.0 if threads == 1 else 1.0)


SEQ_OVERHEAD, PSD_OVERHEAD = 0.001, 0.002


def _trial(mode: str, b: int, k: int, tail: bool = True, slow: float = 1.0, rep: int = 0,
           ragged: bool = False) -> dict:
    """A trial of one configuration: a prefill step, full-batch decode steps, then a draining
    tail with fewer requests; every time from the laws above (times ``slow``). ``ragged``:
    only half of the requests draft (the others verify no draft, as under flex's caps)."""
    cols: dict[str, list] = {c: [] for c in ("duration", "verify_batch", "draft_batch", "proposed", "accepted",
                                             "emitted", "draft_time", "verify_time", "overlapped", "prefill",
                                             "bytes_crossed", "mode", "k", "verify_width")}
    occupancy = [b] * 6 + ([max(1, b // 2), 1] if tail else [])
    for i, n in enumerate([b, *occupancy]):
        overlapped = mode == "psd"
        threads = THREADS[mode]
        kk = 0 if mode == "ar" else k
        drafting = max(1, n // 2) if ragged and kk else n if kk else 0
        proposed = drafting * kk
        td = t_draft(drafting, kk, threads) * slow if kk else 0.0
        tv = t_verify(n, kk, threads) * slow
        duration = max(td, tv) + PSD_OVERHEAD if overlapped else td + tv + SEQ_OVERHEAD
        for c, v in (("duration", duration), ("verify_batch", n), ("draft_batch", drafting),
                     ("proposed", proposed), ("accepted", proposed // 2), ("emitted", n + proposed // 2),
                     ("draft_time", td), ("verify_time", tv), ("overlapped", int(overlapped)),
                     ("prefill", int(i == 0)), ("bytes_crossed", 0), ("mode", mode), ("k", kk),
                     ("verify_width", kk)):
            cols[c].append(v)
    return {"mode": mode, "kind": "scheduler", "batch_size": b, "k": 0 if mode == "ar" else k,
            "concurrency": 2 * b if mode == "psd" else b, "rep": rep, "overhead_per_step": None, "steps": cols}


def _trials(slow_key: tuple[str, int] | None = None) -> list[dict]:
    out = []
    for mode in ("ar", "sd", "psd"):
        for b in (1, 2, 4, 8, 16):
            slow = 1.5 if (mode, b) == slow_key else 1.0
            out += [_trial(mode, b, 2, slow=slow, rep=r) for r in range(2)]
    return out


def _calibration() -> list[dict]:
    return [{"threads": t, "batch": b, "k": k, "t_draft": t_draft(b, k, t) if k else None,
             "t_verify": t_verify(b, k, t)} for t in (1, 2) for b in (1, 2, 4, 8, 16) for k in (0, 2)]


def test_exact_laws_are_predicted_exactly_by_both_models():
    table = prediction_table(_trials(), _calibration(), THREADS, overhead=PSD_OVERHEAD)
    assert len(table) == 15
    for e in table:
        assert e["in_scheduler"]["ratio"] == pytest.approx(1.0, abs=1e-6), e
        assert e["in_scheduler"]["within_tolerance"]
    # the calibration carries no sequential overhead: within 10%, not exact
    assert all(e["calibration"]["within_tolerance"] for e in table)
    assert "within 10%, in-scheduler: 15 of 15" in "\n".join(lines(table))


def test_each_repetition_is_predicted_from_the_calibration_taken_before_it():
    """With --recalibrate the machine may run 1.5x slower from the second repetition on: the
    calibration taken before it saw that, and predicts those trials; the first calibration
    alone misses every row."""
    trials = [_trial(m, b, 2, slow=1.5 if r else 1.0, rep=r) for m in ("ar", "sd", "psd") for b in (1, 2, 4, 8, 16)
              for r in range(2)]
    slower = [{**p, "t_draft": p["t_draft"] and 1.5 * p["t_draft"], "t_verify": 1.5 * p["t_verify"], "round": 1}
              for p in _calibration()]
    per_repetition = prediction_table(trials, [{**p, "round": 0} for p in _calibration()] + slower, THREADS,
                                      overhead=PSD_OVERHEAD)
    first_only = prediction_table(trials, _calibration(), THREADS, overhead=PSD_OVERHEAD)
    assert all(e["calibration"]["within_tolerance"] for e in per_repetition)
    assert not any(e["calibration"]["within_tolerance"] for e in first_only)
    assert "the one taken before the trial's repetition" in "\n".join(lines(per_repetition, per_repetition=True))
    fit = calibration_rounds([{**p, "round": 1} for p in _calibration()])
    assert fit(0).models == {} and fit(3).models.keys() == {1, 2}  # the latest round taken before the repetition


def test_repeatability_compares_each_calibration_cost_across_rounds():
    """One cost measured 1.3x slower in the second round, every other one the same: one
    spread of 30%, the rest 0; a single round has no repeatability to state."""
    first = [{**p, "round": 0} for p in _calibration()]
    second = [{**p, "round": 1} for p in _calibration()]
    second[3] = {**second[3], "t_verify": 1.3 * second[3]["t_verify"]}
    got = repeatability(first + second)
    costs = sum(1 for p in first for c in ("t_draft", "t_verify") if p[c])
    assert got == {"rounds": 2, "costs": costs, "median_spread": 0.0, "beyond_tolerance": 1}
    assert repeatability(first) is None
    text = "\n".join(lines(prediction_table(_trials(), first + second, THREADS, overhead=PSD_OVERHEAD), spread=got))
    assert f"differs by a median 0% (slowest / fastest - 1); 1 of {costs} by more than 10%" in text


def test_a_rows_own_timings_never_predict_it():
    """One configuration 1.5x slower than the law: its in-scheduler prediction (fitted to the
    others) stays at the law, so the ratio shows the slowdown. Fits at another thread count
    (PSD's lanes) never see it."""
    table = {(e["mode"], e["batch_size"]): e for e in prediction_table(_trials(("sd", 4)), [], THREADS)}
    slow = table[("sd", 4)]["in_scheduler"]
    assert slow["ratio"] == pytest.approx(1.5, rel=0.02)  # the fixed overhead is not slowed
    assert not slow["within_tolerance"]
    assert all(table[("psd", b)]["in_scheduler"]["ratio"] == pytest.approx(1.0, abs=1e-6) for b in (1, 2, 4, 8, 16))


def test_each_trial_is_predicted_from_its_own_repetition_in_repetition():
    """The host runs 1.6x slower through the third of three repetitions, every configuration
    alike: a fit to the whole run's steps blends the speeds and misses every row (by the median
    over repetitions, the fast ones); fitted to the other configurations of the trial's own
    repetition, each trial is predicted at the speed of its spell, exactly."""
    trials = [_trial(m, b, 2, slow=1.6 if r == 2 else 1.0, rep=r) for m in ("ar", "sd", "psd")
              for b in (1, 2, 4, 8, 16) for r in range(3)]
    table = prediction_table(trials, [], THREADS)
    assert all(e["in_repetition"]["ratio"] == pytest.approx(1.0, abs=1e-6) for e in table)
    assert not any(e["in_scheduler"]["within_tolerance"] for e in table)
    assert all(e["calibration"]["predicted"] is None for e in table)
    text = "\n".join(lines(table))
    assert "within 10%, in-repetition: 15 of 15" in text and "within 10%, in-scheduler: 0 of 15" in text
    assert "calibration" not in text  # none taken: no column for it
    for e in table:  # results files from before the in-repetition fit
        del e["in_repetition"]
    assert "in-repetition" not in "\n".join(lines(table))


def test_prediction_follows_the_trials_occupancy():
    """The draining tail verifies fewer requests: the replay predicts those steps at their own
    batch size, so a trial with a tail and one without are both predicted exactly."""
    trials = _trials() + [_trial("sd", 8, 2, tail=False, rep=r) for r in range(2)]
    model = fit_steps(s for t in trials for s in decode_steps(t, THREADS))
    for tail in (True, False):
        steps = list(decode_steps(_trial("sd", 8, 2, tail=tail), THREADS))
        assert sum(model.step_time(s) for s in steps) == pytest.approx(sum(s.duration for s in steps), rel=1e-6)
    assert [s.verify_batch for s in decode_steps(_trial("sd", 8, 2), THREADS)] == [8] * 6 + [4, 1]


def test_draft_calls_that_read_unseen_context_stay_out_of_the_draft_fit():
    """One flex step at 32 requests whose draft call first caught up on what AR steps had
    committed (ten times a draft forward's cost, as measured) is the only draft call at that
    batch size: fitted, it would set the slope above the others; flagged ``draft_prefill``,
    the fit keeps the law and SD at 32 is predicted exactly."""
    catch_up = _trial("sd", 32, 2, tail=False)
    cols = catch_up["steps"]
    cols["draft_time"] = [10 * t for t in cols["draft_time"]]
    cols["draft_prefill"] = [1] * len(cols["duration"])
    catch_up.update(mode="flex", rep=0)
    target = list(decode_steps(_trial("sd", 32, 2), THREADS))
    predicted = fit_steps(s for t in [*_trials(), catch_up] for s in decode_steps(t, THREADS))
    assert sum(predicted.step_time(s) for s in target) == pytest.approx(sum(s.duration for s in target), rel=1e-6)
    cols["draft_prefill"] = [0] * len(cols["duration"])  # the same steps, unflagged
    skewed = fit_steps(s for t in [*_trials(), catch_up] for s in decode_steps(t, THREADS))
    assert sum(skewed.step_time(s) for s in target) > 1.5 * sum(s.duration for s in target)


def test_no_prediction_without_the_observations_to_fit():
    """AR-only data cannot predict a drafting step: None, never a made-up figure."""
    ar_only = [t for t in _trials() if t["mode"] == "ar"]
    table = prediction_table(ar_only + [_trial("sd", 2, 2)], [], THREADS)
    sd = next(e for e in table if e["mode"] == "sd")
    assert sd["in_scheduler"]["predicted"] is None and not sd["in_scheduler"]["within_tolerance"]
    assert sd["calibration"]["predicted"] is None


def test_files_without_mode_and_k_columns_infer_them():
    """Results of schema version 1 have no per-step mode or k: the trial's are used."""
    trial = _trial("psd", 4, 2)
    for c in ("mode", "k"):
        del trial["steps"][c]
    steps = list(decode_steps(trial, THREADS))
    assert all(s.overlapped and s.threads == 1 and s.draft_k == 2 for s in steps)


def test_verifications_are_predicted_at_their_padded_width():
    """Half the requests draft: the verification still costs the full width. With the width
    column the replay predicts it exactly; files before schema 3 (mean draft length only)
    underestimate it."""
    model = fit_steps(s for t in _trials() for s in decode_steps(t, THREADS))
    ragged = _trial("sd", 8, 2, ragged=True)
    steps = list(decode_steps(ragged, THREADS))
    assert sum(model.step_time(s) for s in steps) == pytest.approx(sum(s.duration for s in steps), rel=1e-6)
    del ragged["steps"]["verify_width"]
    by_mean = list(decode_steps(ragged, THREADS))
    assert [s.width for s in by_mean] == [s.proposed / s.verify_batch for s in by_mean] != [s.width for s in steps]
    assert sum(model.step_time(s) for s in by_mean) < 0.97 * sum(s.duration for s in by_mean)


def test_steps_are_predicted_at_their_context():
    """Step times with an attention term (cost per row and context position): trials whose
    contexts grow step by step are predicted exactly by the in-scheduler fit, and files
    without the context columns (before schema 4) fall back to no attention term."""
    def with_context(trial: dict, start: int) -> dict:
        cols = trial["steps"]
        cols["verify_context"] = [start + 2 * i for i in range(len(cols["duration"]))]
        cols["draft_context"] = list(cols["verify_context"])
        for i, ctx in enumerate(cols["verify_context"]):
            rows = cols["verify_batch"][i] * (cols["verify_width"][i] + 1)
            cols["verify_time"][i] += 3e-6 * rows * ctx
            if cols["draft_time"][i]:
                cols["draft_time"][i] += 1e-6 * cols["draft_batch"][i] * cols["k"][i] * ctx
            td, tv = cols["draft_time"][i], cols["verify_time"][i]
            cols["duration"][i] = max(td, tv) + PSD_OVERHEAD if cols["overlapped"][i] else td + tv + SEQ_OVERHEAD
        return trial

    trials = [with_context(t, 40 + 50 * (i % 5)) for i, t in enumerate(_trials())]
    table = prediction_table(trials, [], THREADS)
    assert all(e["in_scheduler"]["ratio"] == pytest.approx(1.0, abs=1e-6) for e in table)
    steps = list(decode_steps(trials[0], THREADS))
    assert [s.verify_context for s in steps] == trials[0]["steps"]["verify_context"][1:]
    for c in ("verify_context", "draft_context"):
        del trials[0]["steps"][c]
    assert {s.verify_context for s in decode_steps(trials[0], THREADS)} == {0}


def test_compare_judges_the_cost_model_run_by_run():
    """``minedraft compare`` refits every file's trials: a run that follows the law is within
    10% everywhere by the in-scheduler fits; a run 1.5x slower than its calibration (the host
    slowed after it) is missed everywhere by the calibration fit and still predicted exactly
    by the run's own steps; the bar across runs counts the runs met, and a fit a run has no
    data for (no calibration) is left out."""
    from minedraft.bench.compare import cost_model_lines

    config = {"sequential_threads": THREADS["sd"], "lane_threads": THREADS["psd"]}
    exact = {"config": config, "trials": _trials(), "cost_model": None}
    slower = [_trial(m, b, 2, slow=1.5, rep=r) for m in ("ar", "sd", "psd") for b in (1, 2, 4, 8, 16) for r in range(2)]
    slow = {"config": config, "trials": slower, "cost_model": {"calibration": _calibration()}}
    text = "\n".join(cost_model_lines([("a", exact), ("b", slow), ("c", {"config": {}, "trials": []})]))
    assert "[1] in-scheduler 15 of 15 (worst 1.00x); in-repetition 15 of 15 (worst 1.00x)" in text
    assert "[2] calibration 0 of 15" in text and "in-scheduler 15 of 15 (worst 1.00x)" in text
    assert "[3]" not in text  # no threads recorded: nothing to refit
    assert "in-scheduler: every point within 10% in 2 of 2 runs" in text
    assert "calibration: every point within 10% in 0 of 1 runs" in text


def test_a_trial_with_a_step_no_fit_can_price_is_left_out_and_counted():
    """Flex's trials at b = 4 run SD steps; one of them probed PSD once, on lanes no other
    configuration ran (no fit at one thread). That trial has no prediction; the row is
    predicted from the other two and held against their measured median, and says so."""
    trials = [_trial(m, b, 2, rep=r) for m in ("ar", "sd") for b in (1, 2, 8, 16) for r in range(3)]
    flex = [_trial("sd", 4, 2, rep=r, slow=s) for r, s in enumerate((1.0, 1.2, 1.0))]
    for t in flex:
        t["mode"], t["steps"]["mode"] = "flex", [f"flex:{m}" for m in t["steps"]["mode"]]
    flex[2]["steps"]["mode"][3], flex[2]["steps"]["overlapped"][3] = "flex:psd", 1
    entry = next(e for e in prediction_table(trials + flex, [], THREADS) if e["mode"] == "flex")
    got = entry["in_scheduler"]
    assert (got["priced"], got["trials"]) == (2, 3)
    measured = [sum(c["emitted"][1:]) / sum(c["duration"][1:]) for c in (t["steps"] for t in flex[:2])]
    assert got["ratio"] == pytest.approx(got["predicted"] / (sum(measured) / 2), rel=1e-9)
    assert got["predicted"] == pytest.approx(measured[0], rel=1e-6)  # the law, as the unslowed trial ran
    assert "2 of 3 trials priced" in "\n".join(lines([entry]))
