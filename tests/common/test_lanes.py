"""The one lane vocabulary: canonical names and the aliases users could have typed."""

import pytest
import torch

from minedraft.lanes import LANE_KINDS, LanePair, canonical_lane
from minedraft.schedulers import SchedulerConfig
from minedraft.types import InvalidInputError


@pytest.mark.parametrize("kind", LANE_KINDS)
def test_canonical_names_map_to_themselves(kind: str) -> None:
    assert canonical_lane(kind) == kind


@pytest.mark.parametrize(("alias", "kind"), [("sequential", "inline"), ("thread", "threads"),
                                             ("stream", "cuda_streams"), ("CUDA_STREAM", "cuda_streams")])
def test_aliases(alias: str, kind: str) -> None:
    assert canonical_lane(alias) == kind


def test_unknown_lane_names_the_field_and_value() -> None:
    with pytest.raises(ValueError, match=r"MINEDRAFT_SGLANG_LANES .*'gpu'"):
        canonical_lane("gpu", field="MINEDRAFT_SGLANG_LANES")


def test_lane_pair_accepts_an_alias() -> None:
    pair = LanePair("sequential")
    assert pair.kind == "inline" and not pair.concurrent
    pair.close()


def test_the_scheduler_config_refuses_bad_lanes_before_any_engine_is_built() -> None:
    with pytest.raises(InvalidInputError, match=r"lanes must be one of .*got 'gpu'"):
        SchedulerConfig(lanes="gpu")
    with pytest.raises(InvalidInputError, match=r"intra_op_threads must be an int >= 1 or None, got 0"):
        SchedulerConfig(intra_op_threads=0)
    for no_limit in (None, float("inf")):  # a lane call may take as long as it needs
        SchedulerConfig(step_timeout=no_limit)
    if not torch.cuda.is_available():
        with pytest.raises(InvalidInputError, match=r"lanes='cuda_streams' needs CUDA"):
            SchedulerConfig(lanes="cuda_streams")
