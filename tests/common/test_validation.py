"""The shared validation helpers: one wording for every bad value."""

from __future__ import annotations

import math

import pytest

from minedraft.types import InvalidInputError
from minedraft.validation import (
    require_bool,
    require_choice,
    require_int,
    require_ints,
    require_number,
    require_prob,
)


@pytest.mark.parametrize("call, message", [
    (lambda: require_int("n", 0, 1), "n must be an int >= 1, got 0"),
    (lambda: require_int("n", True, 0), "n must be an int >= 0, got True"),
    (lambda: require_int("n", 2.0, 0), "n must be an int >= 0, got 2.0"),
    (lambda: require_int("n", None, 1, optional=True), None),
    (lambda: require_int("n", "3", 1, optional=True), "n must be an int >= 1 or None, got '3'"),
    (lambda: require_int("seed", 1.5), "seed must be an int, got 1.5"),
    (lambda: require_number("t", -0.5, 0), "t must be a number >= 0, got -0.5"),
    (lambda: require_number("p", 0.0, 0, 1, low_open=True), r"p must be a number in \(0, 1\], got 0.0"),
    (lambda: require_number("s", 1.0, 0, 1, high_open=True), r"s must be a number in \[0, 1\), got 1.0"),
    (lambda: require_number("x", math.nan, 0, 1), "x must be a number in \\[0, 1\\], got nan"),
    (lambda: require_number("x", 0.5, 0, 1, low_open=True, high_open=True), None),
    (lambda: require_prob("a", 1.5), r"a must be a number in \[0, 1\], got 1.5"),
    (lambda: require_prob("a", 1), None),
    (lambda: require_choice("r", "x", ("a", "b")), r"r must be one of \('a', 'b'\), got 'x'"),
    (lambda: require_bool("f", 1), "f must be a bool, got 1"),
    (lambda: require_ints("ks", (2, 0), 1), r"ks must be a non-empty list of ints >= 1, got \[2, 0\]"),
    (lambda: require_ints("ks", (), 1), r"ks must be a non-empty list of ints >= 1, got \[\]"),
    (lambda: require_ints("ks", (1, 4), 1), None),
])
def test_messages_name_the_field_and_the_value(call, message):
    if message is None:
        call()
    else:
        with pytest.raises(InvalidInputError, match=f"^{message}$"):
            call()
