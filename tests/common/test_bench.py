"""minedraft bench / compare: results schema, the comparison, the trial plan and a tiny
end-to-end run on in-memory float64 models. Nothing here asserts speed."""

from __future__ import annotations

import copy
import json
from dataclasses import replace

import pytest
import torch

from minedraft.bench import BenchConfig, load, run_bench, save, validate
from minedraft.bench.compare import compare_table, load_runs
from minedraft.bench.external import ExternalTrial, results_document
from minedraft.bench.harness import build_engines, plan
from minedraft.bench.metrics import aggregate, percentile, prefill_flags, stats
from minedraft.bench.occupancy import TimeSplit, time_split
from minedraft.bench.occupancy import lines as occupancy_lines
from minedraft.bench.probe import LONG_CONTEXT
from minedraft.bench.workload import request_params
from minedraft.cli import main
from minedraft.schedulers import SCHEDULERS
from minedraft.trace import StepRecord
from minedraft.types import InvalidInputError

from conftest import build_pair, tiny_llama


# -- synthetic results --------------------------------------------------------------------------
def _row(mode: str, b: int, k: int, tps: float, kind: str = "scheduler") -> dict:
    lat = {"mean": 1.0, "p50": 1.0, "p90": 1.5}
    return {
        "mode": mode, "kind": kind, "batch_size": b, "k": k, "concurrency": 2 * b if mode == "psd" else b,
        "reps": 1, "threads_total": 1, "tokens_per_second": tps, "tokens_per_second_min": tps,
        "tokens_per_second_max": tps, "decode_tokens_per_second": tps, "latency": lat, "ttft": lat,
        "acceptance_rate": None, "tokens_per_target_step": 1.0, "overlapped_share": 0.0, "step_time_over_max": None,
        "matches_reference": 1.0, "mean_decode_step_time": 0.1, "mean_decode_draft_time": 0.0,
        "mean_decode_verify_time": 0.1, "predicted": None,
    }


def _trial(row: dict) -> dict:
    t = {k: v for k, v in row.items() if k not in ("reps", "tokens_per_second_min", "tokens_per_second_max", "predicted")}
    cols = ("duration", "verify_batch", "draft_batch", "proposed", "accepted", "emitted", "draft_time",
            "verify_time", "overlapped", "prefill", "bytes_crossed")
    t.update(rep=0, order=0, num_requests=2 * row["batch_size"], lanes="inline", intra_op_threads=1, wall_time=1.0,
             output_tokens=10, overhead_per_step=None, bytes_crossed_per_step=0.0, errors=0, summary={"steps": 2},
             steps={c: [0, 1] for c in cols})
    return t


def synthetic_results(label: str, scale: float = 1.0) -> dict:
    rows = [_row("ar", 1, 0, 10 * scale), _row("sd", 1, 4, 12 * scale), _row("psd", 1, 4, 15 * scale),
            _row("psd", 4, 4, 40 * scale)]
    return {
        "schema": "minedraft.bench", "schema_version": 1, "created": "2026-01-01T00:00:00+0000", "label": label,
        "command": "minedraft bench --quick", "hardware": {"cpu_model": "test cpu", "gpus": []},
        "versions": {"torch": "x"}, "config": {"backend": "reference", "target": "t", "draft": "d"},
        "engines": {"dtype": "float64"}, "conditions": {}, "trials": [_trial(r) for r in rows], "results": rows,
        "cost_model": None, "cooperative_verification": None, "files": {}, "notes": [],
    }


def test_results_schema_round_trip(tmp_path):
    results = synthetic_results("run a")
    path = save(results, tmp_path / "r.json")
    assert load(path) == results
    assert json.loads(path.read_text())["schema_version"] == 1


@pytest.mark.parametrize("mutate,field", [
    (lambda r: r.pop("hardware"), "results.hardware"),
    (lambda r: r.update(schema_version=99), "schema_version"),
    (lambda r: r.update(schema="other"), "results.schema"),
    (lambda r: r["results"][1].update(tokens_per_second="fast"), "results.results[1].tokens_per_second"),
    (lambda r: r["trials"][0].pop("latency"), "results.trials[0].latency"),
    (lambda r: r["trials"][2]["steps"]["duration"].append(0.1), "results.trials[2].steps"),
    (lambda r: r.update(schema_version=2), "results.trials[0].steps"),  # version 2 has mode and k columns
    (lambda r: [t["steps"].update(mode=["sd"] * 2, k=[1, 1]) for t in r["trials"]] and r.update(schema_version=3),
     "results.trials[0].steps"),  # version 3 has the verify_width column too
    (lambda r: [t["steps"].update(mode=["sd"] * 2, k=[1, 1], verify_width=[1, 1]) for t in r["trials"]]
     and r.update(schema_version=4), "results.trials[0].steps"),  # version 4: the context columns too
    (lambda r: [t["steps"].update(mode=["sd"] * 2, k=[1, 1], verify_width=[1, 1], verify_context=[5, 6],
                                  draft_context=[5, 6]) for t in r["trials"]]
     and r.update(schema_version=5), "results.trials[0].steps"),  # version 5: running too
    (lambda r: r["trials"][0].update(errors=True), "results.trials[0].errors"),
])
def test_schema_rejects_bad_results_naming_the_field(mutate, field):
    results = synthetic_results("run a")
    mutate(results)
    with pytest.raises(InvalidInputError, match=field.replace("[", r"\[").replace("]", r"\]")):
        validate(results)


def test_load_reports_missing_and_non_json_files(tmp_path):
    with pytest.raises(InvalidInputError, match="does not exist"):
        load(tmp_path / "none.json")
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(InvalidInputError, match="not JSON"):
        load(tmp_path / "bad.json")


def test_compare_two_results_files(tmp_path, capsys):
    a, b = synthetic_results("cpu run"), synthetic_results("gpu run", scale=2.0)
    b["results"] = [r for r in b["results"] if r["batch_size"] == 1]  # a row only the first run has
    b["trials"] = [t for t in b["trials"] if t["batch_size"] == 1]
    pa, pb = save(a, tmp_path / "a.json"), save(b, tmp_path / "b.json")
    text = compare_table(load_runs([pa, pb]))
    lines = {line.split()[0] + line.split()[1]: line for line in text.splitlines()[5:]}
    assert "[1] cpu run" in text and "[2] gpu run" in text
    assert lines["sd1"].split()[-2:] == ["24.0", "2.00x"]
    assert lines["psd4"].split()[-2:] == ["-", "-"]  # missing in the second run
    plot = tmp_path / "cmp.png"
    assert main(["compare", str(pa), str(pb), "--plot", str(plot)]) == 0
    assert plot.stat().st_size > 0 and "2.00x" in capsys.readouterr().out


def test_compare_says_when_runs_differ_and_takes_folders(tmp_path, capsys):
    a, b = synthetic_results("a"), synthetic_results("b")
    b["config"]["max_new_tokens"] = a["config"].get("max_new_tokens", 64) + 1
    b["hardware"]["cpu_model"] = "another CPU"
    (tmp_path / "run-a").mkdir()
    save(a, tmp_path / "run-a" / "results.json")
    pb = save(b, tmp_path / "b.json")
    assert main(["compare", str(tmp_path / "run-a"), str(pb), "--plot", str(tmp_path / "cmp")]) == 0
    out = capsys.readouterr().out
    assert "[2] differs from [1] (UNLIKE RUNS" in out and "max_new_tokens" in out and "'another CPU'" in out
    assert f"plot: {tmp_path / 'cmp.png'}" in out and (tmp_path / "cmp.png").stat().st_size > 0
    assert "differs" not in compare_table(load_runs([pb, pb]))  # like runs: no such line
    assert main(["compare", str(pb), "--plot", str(tmp_path / "cmp.gif")]) == 2
    assert "--plot must end in .png, .svg or .pdf" in capsys.readouterr().err


def test_compare_refuses_an_invalid_file(tmp_path, capsys):
    bad = synthetic_results("x")
    bad.pop("trials")
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    assert main(["compare", str(tmp_path / "bad.json"), "--no-plot"]) == 2
    assert "results.trials is missing" in capsys.readouterr().err


# -- pieces ---------------------------------------------------------------------------------------
def test_percentiles_and_stats():
    assert percentile([3, 1, 2], 50) == 2
    assert percentile([0, 10], 90) == pytest.approx(9.0)
    assert stats([1.0, 2.0, 3.0, 10.0]) == {"mean": 4.0, "p50": 2.5, "p90": pytest.approx(7.9)}
    assert stats([]) == {"mean": 0.0, "p50": 0.0, "p90": 0.0}


def test_prefill_steps_are_those_delivering_first_tokens():
    steps = [StepRecord(step=i, mode="sd", start=i, end=i + 1) for i in range(4)]
    assert prefill_flags(steps, [0.9, 0.95, 2.5]) == [True, False, True, False]


def _split_trial(mode: str, durations, running, prefill, emitted, threads: int = 2) -> dict:
    return {"mode": mode, "kind": "scheduler", "batch_size": 4, "k": 0 if mode == "ar" else 2, "concurrency": 4,
            "threads_total": threads,
            "steps": {"duration": durations, "running": running, "prefill": prefill, "emitted": emitted}}


def test_time_split_separates_prefill_busy_and_below_full_steps():
    # a prefill step, two busy steps at the peak of 4 in flight, a draining step with 2
    trial = _split_trial("sd", [0.4, 0.2, 0.2, 0.2], [4, 4, 4, 2], [1, 0, 0, 0], [4, 8, 10, 3])
    split = time_split(trial["steps"])
    assert split == TimeSplit(prefill=pytest.approx(0.4), busy=pytest.approx(0.4), below=pytest.approx(0.2),
                              busy_rate=pytest.approx(18 / 0.4))
    assert time_split(None) is None
    assert time_split({**trial["steps"], "running": [0, 0, 0, 0]}) is None  # files before schema 5 store none
    assert time_split({k: v for k, v in trial["steps"].items() if k != "running"}) is None


def test_time_split_report_compares_busy_rates_with_ar_at_equal_load():
    ar = _split_trial("ar", [0.5, 0.1, 0.1], [4, 4, 4], [1, 0, 0], [4, 4, 4])  # busy: 40 tok/s
    sd = _split_trial("sd", [0.5, 0.1, 0.1, 0.1], [4, 4, 2, 1], [1, 0, 0, 0], [4, 6, 3, 2])  # busy: 60 tok/s
    text = "\n".join(occupancy_lines([ar, sd]))
    assert "ar    b=4   k=0   4 in flight: 71% / 29% / 0%, busy steps 40.0 tok/s\n" in text
    assert "sd    b=4   k=2   4 in flight: 62% / 12% / 25%, busy steps 60.0 tok/s (1.50x AR's)" in text
    unequal = "\n".join(occupancy_lines([ar, _split_trial("sd", [0.1], [4], [0], [6], threads=4)]))
    assert "(1.50x AR's, UNEQUAL CORES: 4 threads against AR's 2)" in unequal
    assert occupancy_lines([{**sd, "steps": None}]) == []


def test_aggregate_takes_medians_over_repetitions():
    rows = [_trial(_row("sd", 1, 4, tps)) for tps in (10.0, 30.0, 20.0)]
    agg = aggregate(rows)
    assert (agg["reps"], agg["tokens_per_second"], agg["tokens_per_second_min"], agg["tokens_per_second_max"]) == (
        3, 20.0, 10.0, 30.0)


def test_plan_interleaves_modes_and_rotates_the_order():
    config = BenchConfig(batch_sizes=(1, 4), ks=(2, 4), repeats=2, peers=False, progress=False)
    trials = plan(config, {"hf_generate": False, "hf_assisted": True})
    groups: dict[tuple, list] = {}
    for t in trials:
        groups.setdefault((t.rep, t.batch_size, t.k if t.mode != "ar" else None), []).append(t.mode)
    # AR does not depend on k: once per batch size and repetition
    assert sum(t.mode == "ar" for t in trials) == 2 * 2
    # the peers run at batch 1 only, with the first k
    assert {(t.batch_size, t.k) for t in trials if t.kind == "peer"} == {(1, 0), (1, 2)}
    # every (batch, k) group holds each drafting mode once per repetition, back to back
    first = [t.mode for t in trials if t.rep == 0 and t.batch_size == 4 and (t.k == 2 or t.mode == "ar")]
    second = [t.mode for t in trials if t.rep == 1 and t.batch_size == 4 and (t.k == 2 or t.mode == "ar")]
    assert sorted(first) == sorted(second) == ["ar", "psd", "sd"]
    assert first != second  # rotated between repetitions
    assert len(trials) == 2 * (5 + 2 + 3 + 2)


def test_plan_needs_no_reference_trials_when_flex_holds_its_max_batch_size(monkeypatch):
    config = BenchConfig(modes=("ar", "sd", "psd", "flex"), batch_sizes=(1, 4), ks=(2, 4), repeats=1, peers=False,
                         progress=False)
    assert SCHEDULERS["flex"].in_flight_per_batch == 1
    assert not [t for t in plan(config, {}) if t.kind == "reference"]
    # A flex holding two sub-batches of b would get AR and SD at its concurrency 2b.
    monkeypatch.setattr(SCHEDULERS["flex"], "in_flight_per_batch", 2)
    refs = [t for t in plan(config, {}) if t.kind == "reference"]
    assert sorted((t.mode, t.batch_size, t.k) for t in refs) == [
        ("ar", 2, 0), ("ar", 8, 0), ("sd", 2, 2), ("sd", 2, 4), ("sd", 8, 2), ("sd", 8, 4)]
    assert all(t.requests == t.batch_size for t in refs)  # requests_per_batch (2) x b = 2b


def test_flex_bar_compares_at_equal_batch_and_equal_concurrency():
    from minedraft.bench.analysis import flex_bar

    # flex at b = 4 holds 4 requests: AR and SD at b = 4 and PSD at b = 2 hold as many.
    rows = [_row("ar", 4, 0, 30.0), _row("sd", 4, 4, 20.0), _row("psd", 4, 4, 45.0), _row("flex", 4, 4, 36.0),
            _row("psd", 2, 4, 40.0), _row("sd", 2, 4, 99.0),  # SD at b = 2 holds 2: no rival
            _row("ar", 8, 0, 99.0)]
    (entry,) = flex_bar(rows)
    same_b, same_c = entry["same_batch"], entry["same_concurrency"]
    assert (same_b["best_mode"], same_b["best_batch_size"], same_b["met"]) == ("psd", 4, False)
    assert same_b["ratio"] == pytest.approx(36 / 45)
    assert (same_c["best_mode"], same_c["best_batch_size"], same_c["met"]) == ("psd", 2, False)
    assert same_c["ratio"] == pytest.approx(36 / 40)
    rows[3]["tokens_per_second"] = 38.0  # 0.95 x 40: exactly on the bar
    assert flex_bar(rows)[0]["same_concurrency"]["met"]
    assert flex_bar([_row("flex", 1, 4, 5.0)])[0]["same_concurrency"] is None  # nothing to compare with


def test_a_missed_flex_bar_says_whether_the_repetitions_cover_the_gap():
    from minedraft.bench.analysis import flex_bar
    from minedraft.bench.report import _verdict

    def rows(flex_fastest: float) -> list[dict]:
        ar = {**_row("ar", 4, 0, 40.0), "reps": 3, "tokens_per_second_min": 38.0, "tokens_per_second_max": 42.0}
        flex = {**_row("flex", 4, 2, 36.0), "reps": 3, "tokens_per_second_min": 35.0,
                "tokens_per_second_max": flex_fastest}
        return [ar, flex]

    within = flex_bar(rows(39.0))[0]["same_concurrency"]  # flex's fastest repetition beats AR's slowest
    beyond = flex_bar(rows(37.0))[0]["same_concurrency"]
    assert (within["met"], within["beyond_spread"], beyond["met"], beyond["beyond_spread"]) == (False, False, False, True)
    assert _verdict(within) == "NOT met, within the repetitions' spread"
    assert _verdict(beyond) == "NOT met, beyond the repetitions' spread"
    single = flex_bar([_row("ar", 4, 0, 40.0), _row("flex", 4, 2, 36.0)])[0]["same_concurrency"]
    assert single["beyond_spread"] is None and _verdict(single) == "NOT met"  # one repetition: no spread


def test_plan_by_requests_in_flight_gives_every_mode_the_same_load():
    from minedraft.bench.harness import skipped_note

    config = BenchConfig(modes=("ar", "sd", "psd", "flex"), in_flight=(1, 4), ks=(2,), repeats=1, peers=False,
                         progress=False)
    trials = plan(config, {})
    got = sorted((t.mode, t.batch_size, t.requests) for t in trials)
    # AR/SD (and flex, whose cap covers both its sub-batches) hold c; PSD two sub-batches of
    # c/2; all serve 2c requests
    assert got == [("ar", 1, 2), ("ar", 4, 8), ("flex", 1, 2), ("flex", 4, 8), ("psd", 2, 8), ("sd", 1, 2),
                   ("sd", 4, 8)]
    assert not [t for t in trials if t.kind == "reference"]  # AR/SD at c already are flex's rivals
    assert skipped_note(config) == "psd skipped at 1 in flight: two sub-batches need an even number of requests"
    assert config.grid_batch_sizes == (1, 2, 4)
    with pytest.raises(InvalidInputError, match="in_flight or batch_sizes, not both"):
        BenchConfig(in_flight=(2,), batch_sizes=(1,))
    with pytest.raises(InvalidInputError, match="even number of requests in flight"):
        BenchConfig(modes=("psd",), in_flight=(1, 3))


def test_ratios_pair_equal_requests_in_flight_and_label_the_rest():
    from minedraft.bench.analysis import ratios

    rows = [_row("ar", 2, 0, 20.0), _row("sd", 2, 4, 30.0), _row("psd", 1, 4, 24.0), _row("psd", 2, 4, 50.0),
            _row("sd", 1, 4, 16.0)]
    rows[2]["threads_total"] = rows[3]["threads_total"] = 2
    rows[0]["threads_total"] = rows[1]["threads_total"] = 2
    by = {(p["numerator"], p["denominator"], p["batch_size"]): p for p in ratios(rows)}
    eq = by[("psd", "sd", 1)]  # PSD b=1 holds 2 requests: paired with SD at b=2, not b=1
    assert (eq["denominator_batch_size"], eq["equal_load"], eq["equal_cores"]) == (2, True, True)
    assert eq["ratio"] == pytest.approx(24 / 30)
    assert eq["label"] == "PSD/SD at 2 in flight, k=4 (PSD b=1, SD b=2), 2 threads each"
    assert by[("psd", "ar", 1)]["ratio"] == pytest.approx(24 / 20)
    # PSD b=2 holds 4: no SD at 4 in flight, so the same-b pair is given, labelled unequal load and cores
    un = by[("psd", "sd", 2)]
    assert (un["denominator_batch_size"], un["equal_load"], un["equal_cores"]) == (2, False, True)
    assert "UNEQUAL LOAD (PSD 4 in flight, SD 2)" in un["label"]
    rows[1]["threads_total"] = 1
    assert "UNEQUAL CORES (PSD 2 threads, SD 1)" in ratios(rows)[0]["label"]
    # On a GPU the host's threads do not count (None in every row): one GPU each is equal
    # hardware, a draft on a device of its own is not.
    for r in rows:
        r["threads_total"] = None
    gpu = ratios(rows)[0]
    assert gpu["equal_cores"] and gpu["label"] == "PSD/SD at 2 in flight, k=4 (PSD b=1, SD b=2)"
    for r in rows:
        r["devices"] = 2 if r["mode"] == "psd" else 1
    two = ratios(rows)[0]
    assert not two["equal_cores"] and two["label"].endswith("UNEQUAL HARDWARE (PSD 2 devices, SD 1)")


def test_report_states_equal_load_ratios_first_and_labels_the_rest():
    from minedraft.bench.analysis import ratios
    from minedraft.bench.report import render

    results = synthetic_results("r")  # AR, SD at b=1; PSD at b=1 (2 in flight) and b=4 (8)
    results["results"].append(_row("sd", 2, 4, 14.0))
    results["ratios"] = ratios(results["results"])
    results["config"].update(max_new_tokens=8, temperature=0.0, requests_per_batch=2, repeats=1,
                             sequential_threads=1, lane_threads=1, equal_cores=False, out_dir="o")
    lines = render(results).splitlines()
    start = lines.index("Ratios (measured tokens/s; equal requests in flight and equal cores unless labelled):")
    stated = lines[start + 1:]
    assert stated[0].strip() == "PSD/SD at 2 in flight, k=4 (PSD b=1, SD b=2), 1 threads each: 1.07x"
    assert "  PSD/AR at b=1, k=4: UNEQUAL LOAD (PSD 2 in flight, AR 1), 1 threads each: 1.50x" in stated
    assert "UNEQUAL CORES" in render(results).splitlines()[1]


def test_throughput_plot_gives_each_mode_its_own_colour():
    from minedraft.bench.plots import mode_colors

    modes = ["ar", "sd", "psd", "flex", "hf_generate", "hf_assisted", "smc", "tree", "new"]
    colors = mode_colors(modes)
    assert set(colors) == set(modes) and len(set(colors.values())) == len(modes)


def test_config_validation_names_the_field():
    with pytest.raises(InvalidInputError, match="batch_sizes"):
        BenchConfig(batch_sizes=(0, 4))
    with pytest.raises(InvalidInputError, match="modes"):
        BenchConfig(modes=("sd", "warp"))
    with pytest.raises(InvalidInputError, match="max_new_tokens"):
        BenchConfig(max_new_tokens=0)
    for bad in (-0.1, 1.0, True):
        with pytest.raises(InvalidInputError, match=f"max_new_tokens_spread must be a number in \\[0, 1\\), got {bad!r}"):
            BenchConfig(max_new_tokens_spread=bad)


def test_request_lengths_spread_per_request_and_repeat_with_the_seed():
    fixed = request_params(64, 20, 0.0, seed=3)
    assert {p.max_new_tokens for p in fixed} == {20}
    spread = request_params(64, 20, 0.0, seed=3, spread=0.5)
    lengths = [p.max_new_tokens for p in spread]
    assert min(lengths) >= 10 and max(lengths) <= 30 and len(set(lengths)) > 5
    assert lengths == [p.max_new_tokens for p in request_params(64, 20, 0.0, seed=3, spread=0.5)]
    assert lengths != [p.max_new_tokens for p in request_params(64, 20, 0.0, seed=4, spread=0.5)]
    assert all(p.ignore_eos for p in spread)


def test_missing_default_draft_fails_with_a_clear_message(monkeypatch):
    import minedraft.bench.harness as harness

    class NoDraftBackend:
        def build(self, spec):
            raise InvalidInputError("no shipped draft weights in /somewhere")

    monkeypatch.setattr(harness, "get_backend", lambda name: NoDraftBackend())
    with pytest.raises(InvalidInputError, match="default draft 'smollm2-draft' is not available.*--draft DIR"):
        build_engines(BenchConfig())


def test_cli_presets():
    from minedraft.cli import build_parser
    from minedraft.commands.bench import config_from_args

    quick = config_from_args(build_parser().parse_args(["bench", "--quick"]))
    assert (quick.in_flight, quick.batch_sizes, quick.ks, quick.repeats, quick.preset) == (
        (1, 2, 8), None, (4,), 1, "quick")
    # honest by default: AR/SD get the threads of PSD's two lanes together
    assert (quick.sequential_threads, quick.lane_threads, quick.equal_cores) == (2, 1, True)
    sweep = config_from_args(build_parser().parse_args(["bench", "--sweep", "psd", "--max-new-tokens", "8"]))
    assert (sweep.modes, sweep.in_flight, sweep.ks, sweep.max_new_tokens) == (("sd", "psd"), (2, 8, 16, 32),
                                                                              (2, 4, 6), 8)
    assert sweep.grid_batch_sizes == (1, 2, 4, 8, 16, 32)  # PSD's sub-batches and SD's batches
    by_batch = config_from_args(build_parser().parse_args(["bench", "--quick", "--batch-sizes", "1,4",
                                                           "--lane-threads", "2", "--sequential-threads", "1"]))
    assert (by_batch.in_flight, by_batch.batch_sizes, by_batch.equal_cores) == (None, (1, 4), False)
    assert config_from_args(build_parser().parse_args(["bench", "--lane-threads", "3"])).sequential_threads == 6
    assert BenchConfig(modes=("ar", "sd"), sequential_threads=1).equal_cores is None  # no lanes to compare with
    custom = config_from_args(build_parser().parse_args(["bench", "--modes", "sd,psd", "-k", "3", "--no-peers",
                                                         "--max-new-tokens-spread", "0.25"]))
    assert (custom.modes, custom.ks, custom.peers, custom.max_new_tokens_spread) == (("sd", "psd"), (3,), False, 0.25)
    assert custom.recalibrate
    assert not config_from_args(build_parser().parse_args(["bench", "--no-recalibrate"])).recalibrate


# -- end to end -----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    torch.set_num_threads(1)
    out = tmp_path_factory.mktemp("bench")
    engines = build_pair(tiny_llama(layers=2, hidden=64, seed=0), tiny_llama(layers=1, hidden=32, seed=1),
                         max_batch_size=2)
    config = BenchConfig(target="tiny-target", draft="tiny-draft", batch_sizes=(1, 2), ks=(2,), repeats=1,
                         max_new_tokens=5, calibration_reps=1, out_dir=str(out), progress=False, dtype="float64")
    return run_bench(config, engines=engines, argv=["--test"]), out


def test_bench_writes_results_plots_and_trace(tiny_run):
    results, out = tiny_run
    assert set(results["files"]) == {"results", "throughput_plot", "timeline_plot", "trace"}
    for name in results["files"].values():
        assert (out / name).stat().st_size > 0
    assert load(out / "results.json") == json.loads(json.dumps(results))
    trace = json.loads((out / "trace.json").read_text())
    lanes = {e["args"]["name"] for e in trace["traceEvents"] if e.get("name") == "thread_name"}
    assert lanes == {"scheduler lane", "draft lane", "target lane"}
    assert any(e.get("name", "").startswith("step") for e in trace["traceEvents"])


def test_bench_trials_cover_every_mode_and_are_lossless(tiny_run):
    results, _ = tiny_run
    keys = {(r["mode"], r["batch_size"], r["k"]) for r in results["results"]}
    assert keys == {("ar", 1, 0), ("ar", 2, 0), ("sd", 1, 2), ("sd", 2, 2), ("psd", 1, 2), ("psd", 2, 2),
                    ("hf_generate", 1, 0), ("hf_assisted", 1, 2)}
    for t in results["trials"]:
        assert t["errors"] == 0 and t["output_tokens"] == 5 * t["num_requests"]
        assert t["concurrency"] == (2 * t["batch_size"] if t["mode"] == "psd" else t["batch_size"])
        # float64 greedy: every mode and both peers reproduce AR's tokens exactly
        assert t["matches_reference"] == 1.0
        if t["kind"] == "scheduler":
            assert sum(t["steps"]["emitted"]) == t["output_tokens"]
            assert sum(t["steps"]["prefill"]) >= 1
    psd = [t for t in results["trials"] if t["mode"] == "psd"]
    assert all(t["overlapped_share"] > 0 and t["step_time_over_max"] is not None for t in psd)


def test_bench_predictions_and_cooperative_verification(tiny_run):
    results, _ = tiny_run
    cm = results["cost_model"]
    assert {p["k"] for p in cm["calibration"]} == {0, 2}
    # two contexts per (threads, batch, k): the prompts as they are and lengthened
    for key in {(p["threads"], p["batch"], p["k"]) for p in cm["calibration"]}:
        contexts = sorted(p["context"] for p in cm["calibration"] if (p["threads"], p["batch"], p["k"]) == key)
        assert len(contexts) == 2 and contexts[1] - contexts[0] == LONG_CONTEXT, (key, contexts)
    assert all("v_att" in fit and fit["v_att"] >= 0 for fit in cm["fits"].values())
    for t in results["trials"]:
        if t["kind"] == "scheduler":
            assert min(t["steps"]["verify_context"]) > 0
    assert {b["mode"] for b in cm["best"]} == {"ar", "sd", "psd"}
    assert [(s["batch_size"], s["k"]) for s in cm["speedup_psd_over_sd"]] == [(1, 2), (2, 2)]
    assert all(s["bound"] <= 2.0 for s in cm["speedup_psd_over_sd"])
    for row in results["results"]:
        assert (row["predicted"] is not None) == (row["kind"] == "scheduler")
    # every scheduler row is replayed step by step through both models
    assert sorted((e["mode"], e["batch_size"], e["k"]) for e in cm["prediction"]) == sorted(
        (r["mode"], r["batch_size"], r["k"]) for r in results["results"] if r["kind"] == "scheduler")
    assert all(e["calibration"]["predicted"] and e["in_scheduler"]["predicted"] for e in cm["prediction"])
    for t in results["trials"]:
        if t["kind"] == "scheduler":
            assert set(t["steps"]["mode"]) <= {t["mode"], "flex:ar", "flex:sd", "flex:psd"}
    coop = results["cooperative_verification"]
    b, k, vocab = coop["batch_size"], coop["k"], coop["vocab_size"]
    for case in coop["cases"]:
        assert case["same_outcome"]
        rows = b * (k + 1)  # positions scored per verification
        assert case["bytes_naive"] == 2 * rows * vocab * 4  # p and log p, float32
        assert case["bytes_cooperative"] <= 8 * (rows + b)  # token ids only


CALIBRATION_PROMPTS = [[5, 9, 14, 3, 27, 8], [40, 2, 61, 7]]


def test_calibration_times_decode_steps_that_commit(engine_pair):
    """Each timed call is a decode step: verifications commit, so the next call works on a
    longer sequence (an AR step commits exactly one token per request)."""
    from minedraft.bench.probe import calibrate

    reps = 2
    for overlapped in (False, True):
        points = calibrate(engine_pair, CALIBRATION_PROMPTS, [2], [2], threads=1, reps=reps, contexts=(0,),
                           overlapped=overlapped)
        by_k = {p["k"]: p for p in points}
        assert by_k[2]["context"] == by_k[0]["context"] + reps + 1  # k = 0 ran reps + 1 AR steps first
        assert by_k[0]["t_draft"] is None and by_k[2]["t_draft"] > 0 and by_k[2]["t_verify"] > 0
        assert [by_k[0]["overlapped"], by_k[2]["overlapped"]] == [False, overlapped]


def test_overlapped_calibration_runs_psd_steps_on_the_target_s_greedy_path(engine_pair):
    """The lanes' calibration takes PSD's turns (one verification on the target lane and one
    draft call on the draft lane per step), and both batches commit exactly AR's tokens."""
    from minedraft.bench.probe import WarmBatch, time_overlapped_steps, time_sequential_steps
    from minedraft.lanes import LanePair

    reps = 5
    pair = [WarmBatch(engine_pair, CALIBRATION_PROMPTS, 2) for _ in range(2)]
    lanes = LanePair("threads", intra_op_threads=1)
    try:
        with torch.inference_mode():
            drafts, verifies = time_overlapped_steps(pair, lanes, 2, reps)
    finally:
        lanes.close()
    assert len(drafts) == len(verifies) == reps
    assert [iv.label for iv in lanes.target.intervals] == ["verify"] * (reps + 1)
    assert [iv.label for iv in lanes.draft.intervals] == ["draft"] * (reps + 1)
    reference = WarmBatch(engine_pair, CALIBRATION_PROMPTS, 2)
    with torch.inference_mode():
        time_sequential_steps(reference, 0, 3 * (reps + 1))  # AR: one token per step
    for warm in pair:
        for req, ar in zip(warm.requests, reference.requests):
            assert req.output_ids and req.output_ids == ar.output_ids[: len(req.output_ids)]
    # the batches take turns: each was verified (reps + 1) / 2 times, at least one token each
    assert all(len(r.output_ids) >= (reps + 1) // 2 for warm in pair for r in warm.requests)
    for warm in (*pair, reference):
        warm.close()


def test_report_and_compare_render_a_real_run(tiny_run, tmp_path):
    from minedraft.bench.report import render

    results, out = tiny_run
    text = render(results)
    assert "psd" in text and "Cost model" in text and "Cooperative verification" in text
    assert "Where the time went" in text and "psd   b=1   k=2   2 in flight:" in text
    cores = results["conditions"]["process_cores"]
    assert 0 < cores and f"this process kept {cores:.2f} cores busy" in text
    other = copy.deepcopy(results)
    other["label"] = "second"
    save(other, tmp_path / "b.json")
    assert "1.00x" in compare_table(load_runs([out / "results.json", tmp_path / "b.json"]))


def test_bench_with_flex_reports_the_bar_at_its_own_concurrency(tmp_path):
    from minedraft.bench.report import render

    torch.set_num_threads(1)
    engines = build_pair(tiny_llama(layers=2, hidden=64, seed=0), tiny_llama(layers=1, hidden=32, seed=1),
                         max_batch_size=2)
    config = BenchConfig(target="tiny-target", draft="tiny-draft", modes=("ar", "flex"), batch_sizes=(2,), ks=(2,),
                         repeats=1, max_new_tokens=4, calibrate=False, cooperative=False, peers=False,
                         out_dir=str(tmp_path), progress=False, dtype="float64")
    results = run_bench(config, engines=engines)
    assert not [t for t in results["trials"] if t["kind"] == "reference"]
    flex = next(t for t in results["trials"] if t["mode"] == "flex")
    assert (flex["concurrency"], flex["num_requests"]) == (2, 4)  # max_batch_size 2 in flight, 2 x b requests
    assert all(t["errors"] == 0 and t["output_tokens"] == 4 * t["num_requests"] for t in results["trials"])
    (entry,) = results["flex_bar"]
    assert entry["same_concurrency"]["best_batch_size"] == 2 and entry["same_batch"]["best_mode"] == "ar"
    assert "Flex against the best fixed mode" in render(results)
    # The spread of the repetitions stands beside the medians (one repetition: min = max).
    assert entry["flex_range"] == [flex["tokens_per_second"]] * 2
    ar = next(t for t in results["trials"] if t["mode"] == "ar")
    assert entry["same_batch"]["best_range"] == [ar["tokens_per_second"]] * 2
    assert f"reps {flex['tokens_per_second']:.1f}-{flex['tokens_per_second']:.1f}" in render(results)
    assert load(tmp_path / "results.json")["flex_bar"] == json.loads(json.dumps(results["flex_bar"]))
    # The whole bar is summed up; one repetition gives no noise to judge it by.
    bar = results["flex_bar_summary"]
    assert bar["points"] == 1 and bar["oracle"] is None and "the bar at equal load: " in render(results)
    assert bar["mean_ratio"] == pytest.approx(entry["same_concurrency"]["ratio"])
    # The untimed learning trial ran first, at full length, and is reported, not counted.
    assert entry["cold"] is not None and entry["cold"] > 0 and "learning trial" in render(results)
    assert [t["rep"] for t in results["trials"] if t["mode"] == "flex"] == [0]
    cold = run_bench(replace(config, flex_learning=False, out_dir=str(tmp_path / "cold")), engines=engines)
    assert cold["flex_bar"][0]["cold"] is None and "learning trial" not in render(cold)


def test_bench_without_a_draft_runs_ar_and_plain_generate(tmp_path):
    torch.set_num_threads(1)
    engines = build_pair(tiny_llama(layers=2, hidden=64, seed=0), None, max_batch_size=2)
    config = BenchConfig(target="tiny-target", draft=None, modes=("ar",), batch_sizes=(1, 2), repeats=1,
                         max_new_tokens=3, calibration_reps=1, out_dir=str(tmp_path), progress=False)
    results = run_bench(config, engines=engines)
    assert {(r["mode"], r["batch_size"]) for r in results["results"]} == {("ar", 1), ("ar", 2), ("hf_generate", 1)}
    assert {b["mode"] for b in results["cost_model"]["best"]} == {"ar"}
    assert results["cooperative_verification"] is None  # nothing to verify without drafts
    assert load(tmp_path / "results.json")["config"]["peers_run"] == ["hf_generate"]


def test_the_bench_calibrates_before_every_repetition_and_tags_the_rounds(tmp_path, monkeypatch):
    from minedraft.bench import harness
    from minedraft.bench.report import render

    torch.set_num_threads(1)
    engines = build_pair(tiny_llama(layers=2, hidden=64, seed=0), None, max_batch_size=2)
    config = BenchConfig(target="tiny-target", draft=None, modes=("ar",), batch_sizes=(1, 2), repeats=2,
                         max_new_tokens=3, calibration_reps=1, out_dir=str(tmp_path), progress=False, peers=False)
    log: list[str] = []
    calibrate, run_trial = harness.probe.calibrate, harness.Bench.run_trial
    monkeypatch.setattr(harness.probe, "calibrate", lambda *a, **kw: log.append("calibrate") or calibrate(*a, **kw))
    monkeypatch.setattr(harness.Bench, "run_trial",
                        lambda self, spec, *a, **kw: log.append(f"rep {spec.rep}") or run_trial(self, spec, *a, **kw))
    results = run_bench(config, engines=engines)
    timed = [e for e in log if e != "rep -1"]  # the untimed warm-up trials come first
    runs = [e for i, e in enumerate(timed) if i == 0 or e != timed[i - 1]]  # one calibrate per thread count
    assert runs == ["calibrate", "rep 0", "calibrate", "rep 1"] and timed.count("rep 1") == 2
    points = results["cost_model"]["calibration"]
    by_round = [sorted((p["batch"], p["k"], p["context"]) for p in points if p["round"] == r) for r in (0, 1)]
    assert by_round[0] == by_round[1] and len(by_round[0]) == len(points) // 2
    assert "fitted to the calibration (2 rounds, one before each repetition, pooled)" in render(results)
    log.clear()
    once = run_bench(replace(config, recalibrate=False, out_dir=str(tmp_path / "once")), engines=engines)
    assert [e for e in log if e != "rep -1"].count("calibrate") == timed.count("calibrate") // 2
    assert {p["round"] for p in once["cost_model"]["calibration"]} == {0}


def test_bench_with_spread_output_lengths_does_the_same_work_in_every_mode(tmp_path):
    torch.set_num_threads(1)
    engines = build_pair(tiny_llama(layers=2, hidden=64, seed=0), tiny_llama(layers=1, hidden=32, seed=1),
                         max_batch_size=2)
    config = BenchConfig(target="tiny-target", draft="tiny-draft", modes=("ar", "sd", "psd"), batch_sizes=(1, 2),
                         ks=(2,), repeats=1, max_new_tokens=6, max_new_tokens_spread=0.5, calibration_reps=1,
                         out_dir=str(tmp_path), progress=False, dtype="float64", calibrate=False, cooperative=False)
    results = run_bench(config, engines=engines)
    lengths = [p.max_new_tokens for p in request_params(4, 6, 0.0, 0, 0.5)]
    assert len(set(lengths)) > 1  # the seed gives the trial requests of different lengths
    trials = [t for t in results["trials"] if t["rep"] >= 0]
    assert {t["mode"] for t in trials} == {"ar", "sd", "psd"}  # peers are skipped, with a note
    assert any("peers skipped" in n and "max_new_tokens_spread" in n for n in results["notes"])
    for t in trials:
        assert t["output_tokens"] == sum(lengths[: t["num_requests"]]), t["mode"]
        assert t["matches_reference"] == 1.0 and t["errors"] == 0
    assert results["config"]["max_new_tokens_spread"] == 0.5


def test_bench_by_requests_in_flight_compares_equal_load_end_to_end(tmp_path):
    from minedraft.bench.report import render

    torch.set_num_threads(1)
    engines = build_pair(tiny_llama(layers=2, hidden=64, seed=0), tiny_llama(layers=1, hidden=32, seed=1),
                         max_batch_size=2)
    config = BenchConfig(target="tiny-target", draft="tiny-draft", modes=("ar", "sd", "psd"), in_flight=(1, 2),
                         ks=(2,), repeats=1, max_new_tokens=4, calibrate=False, cooperative=False, peers=False,
                         out_dir=str(tmp_path), progress=False, dtype="float64")
    results = run_bench(config, engines=engines)
    got = {(t["mode"], t["batch_size"], t["concurrency"], t["num_requests"]) for t in results["trials"]}
    assert got == {("ar", 1, 1, 2), ("sd", 1, 1, 2), ("ar", 2, 2, 4), ("sd", 2, 2, 4), ("psd", 1, 2, 4)}
    assert all(t["matches_reference"] == 1.0 and t["errors"] == 0 for t in results["trials"])
    assert {(p["numerator"], p["denominator"], p["equal_load"], p["equal_cores"]) for p in results["ratios"]} == {
        ("psd", "sd", True, True), ("psd", "ar", True, True)}
    assert all(t["threads_total"] == 2 for t in results["trials"])  # AR/SD: 2 threads; PSD: 2 lanes x 1
    assert any(n.startswith("psd skipped at 1 in flight") for n in results["notes"])
    assert "PSD/SD at 2 in flight, k=2 (PSD b=1, SD b=2), 2 threads each" in render(results)
    # No calibration: the cost model is still judged, fitted to the run's own decode steps.
    cm = results["cost_model"]
    assert "fits" not in cm and {(e["mode"], e["batch_size"]) for e in cm["prediction"]} == {
        ("ar", 1), ("sd", 1), ("ar", 2), ("sd", 2), ("psd", 1)}
    assert "within 10%, in-repetition: " in render(results) and "Cost model (docs/theory.md)" not in render(results)
    assert load(tmp_path / "results.json")["ratios"] == json.loads(json.dumps(results["ratios"]))


# -- another engine's trials (minedraft.bench.external) ----------------------------------------
def _engine_trial(mode: str, k: int, c: int, rep: int, wall: float, proposed: int | None = None) -> ExternalTrial:
    return ExternalTrial(mode=mode, k=k, concurrency=c, rep=rep, token_counts=[8] * c,
                         latencies=[wall] * c, ttfts=[wall / 8] * c, wall_time=wall, threads_total=2,
                         proposed=proposed, accepted=None if proposed is None else proposed // 2)


def _engine_doc() -> dict:
    trials = [_engine_trial("AR", 0, 2, rep, 1.0 + rep) for rep in (0, 1, 2)]  # medians: wall 2.0 -> 8 tok/s
    trials += [_engine_trial("STANDALONE", 2, 2, 0, 0.5, proposed=8), _engine_trial("MINEDRAFT", 2, 2, 0, 0.25, proposed=8)]
    return results_document(trials, backend="sglang", label="sglang cpu", command="bench",
                            engines={"target": "t", "draft": "d"})


def test_engine_trials_become_schema_rows_at_equal_load():
    doc = _engine_doc()
    rows = {(r["mode"], r["batch_size"], r["k"]): r for r in doc["results"]}
    assert set(rows) == {("ar", 2, 0), ("sd", 2, 2), ("psd", 1, 2)}  # PSD: two sub-batches of c / 2
    assert rows[("ar", 2, 0)]["reps"] == 3 and rows[("ar", 2, 0)]["tokens_per_second"] == pytest.approx(8.0)
    assert rows[("psd", 1, 2)]["concurrency"] == 2 and rows[("psd", 1, 2)]["acceptance_rate"] == 0.5
    ratio = next(p for p in doc["ratios"] if p["numerator"] == "psd" and p["denominator"] == "sd")
    assert ratio["equal_load"] and ratio["equal_cores"] and ratio["ratio"] == pytest.approx(2.0)


def test_compare_puts_an_engine_beside_a_bench_run(tmp_path):
    bench = synthetic_results("reference")
    engine = _engine_doc()
    text = compare_table(load_runs([save(bench, tmp_path / "a.json"), save(engine, tmp_path / "b.json")]))
    assert "[2] sglang cpu: sglang" in text
    line = next(row for row in text.splitlines() if row.split()[:3] == ["ar", "2", "0"])
    assert "8.0" in line.split()


@pytest.mark.parametrize("trial, field", [
    (_engine_trial("EAGLE3", 2, 2, 0, 1.0), "mode"),
    (_engine_trial("MINEDRAFT", 2, 3, 0, 1.0), "concurrency"),
    (_engine_trial("AR", 2, 2, 0, 1.0), "k"),
    (ExternalTrial("sd", 2, 2, 0, [1], [1.0, 1.0], [0.1], 1.0), "token_counts"),
])
def test_bad_trials_are_refused_naming_the_field(trial, field):
    with pytest.raises(InvalidInputError, match=field):
        results_document([trial], backend="x", label="x", command="x", engines={})


def test_conditions_record_steal_and_the_process_s_busy_cores(tmp_path, monkeypatch):
    from minedraft.bench import schema
    from minedraft.bench.report import footer_lines

    stat = tmp_path / "stat"
    # user nice system idle iowait irq softirq steal guest guest_nice (guest is inside user)
    stat.write_text("cpu  100 0 50 800 10 0 0 40 30 0\ncpu0 1 2 3\n")
    start = schema.cpu_clock(str(stat))
    assert (start.steal, start.total) == (40, 1000)
    stat.write_text("cpu  400 0 150 1200 10 0 0 240 90 0\n")
    end = schema.cpu_clock(str(stat))
    end = schema.CpuClock(start.wall + 2.0, start.process + 3.0, end.steal, end.total)
    cond = schema.cpu_conditions(start, end)
    assert cond["steal_share"] == pytest.approx(200 / 1000)  # steal 40 -> 240 of 1000 -> 2000 jiffies
    assert cond["process_cores"] == pytest.approx(1.5)
    line = footer_lines({"conditions": cond, "hardware": {"cpu_count": 2}, "notes": [], "files": {}})[1]
    assert "CPU steal 20.0%" in line and "kept 1.50 cores busy" in line
    # Off Linux (no /proc/stat) there is no steal to report, and files before these fields show neither.
    missing = schema.cpu_clock(str(tmp_path / "absent"))
    assert missing.steal is None and schema.cpu_conditions(missing, missing)["steal_share"] is None
    assert "steal" not in footer_lines({"conditions": {}, "hardware": {}, "notes": [], "files": {}})[1]


def test_a_mode_that_emits_nothing_still_gives_a_written_run(tmp_path):
    # Every SD and PSD request fails (the drafter raises): their rows run at 0 tok/s, which
    # must not divide a ratio or the flex bar; the run is written and its errors counted.
    torch.set_num_threads(1)
    engines = build_pair(tiny_llama(layers=1, hidden=32, seed=0), tiny_llama(layers=1, hidden=16, seed=1),
                         max_batch_size=4)

    def broken(*args, **kwargs):
        raise RuntimeError("draft engine crashed")

    engines.drafter.propose = broken
    config = BenchConfig(target="t", draft="d", modes=("ar", "sd", "psd", "flex"), in_flight=(2,), ks=(2,), repeats=1,
                         max_new_tokens=4, calibrate=False, peers=False, cooperative=False, warmup=False,
                         progress=False, out_dir=str(tmp_path), dtype="float64", sequential_threads=2, lane_threads=1)
    results = run_bench(config, engines=engines)
    by_mode = {t["mode"]: t for t in results["trials"]}
    assert by_mode["ar"]["errors"] == 0 and by_mode["ar"]["tokens_per_second"] > 0
    assert all(by_mode[m]["errors"] == by_mode[m]["num_requests"] for m in ("sd", "psd"))
    assert all(p["denominator"] == "ar" for p in results["ratios"])  # none over a mode that emitted nothing
    assert load(tmp_path / "results.json")["label"] == results["label"]


def test_flex_learns_on_the_timed_trials_workload(tmp_path, monkeypatch):
    # The untimed learning trial asks for the same output lengths as the timed trials
    # (--max-new-tokens-spread included): its rate is reported beside theirs.
    from minedraft import api

    asked = []
    generate = api.LLM.generate

    def spy(self, prompts, params=None, **kwargs):
        asked.append((self.mode, [p.max_new_tokens for p in params]))
        return generate(self, prompts, params, **kwargs)

    monkeypatch.setattr(api.LLM, "generate", spy)
    torch.set_num_threads(1)
    engines = build_pair(tiny_llama(layers=1, hidden=32, seed=0), tiny_llama(layers=1, hidden=16, seed=1),
                         max_batch_size=4)
    config = BenchConfig(target="t", draft="d", modes=("flex",), in_flight=(2,), ks=(2,), repeats=1, max_new_tokens=8,
                         max_new_tokens_spread=0.5, calibrate=False, peers=False, cooperative=False, warmup=True,
                         progress=False, out_dir=str(tmp_path), dtype="float64")
    run_bench(config, engines=engines)
    full = [lengths for mode, lengths in asked if len(lengths) > 2]  # the warm-up asks 2 requests for 4 tokens
    assert len(full) == 2 and full[0] == full[1] and len(set(full[0])) > 1
