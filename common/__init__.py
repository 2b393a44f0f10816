"""minedraft: batch-parallel speculative decoding (MineDraft/PSD), backend-neutral core."""

from .api import LLM, RequestOutput
from .protocols import Drafter, Target
from .rules.verification import verify
from .schedulers import SCHEDULERS, SchedulerConfig, create_scheduler, register_scheduler
from .types import (
    DraftBlock,
    FinishReason,
    InvalidInputError,
    RequestState,
    SamplingParams,
    VerifyOutcome,
    VerifyScores,
)

__version__ = "0.1.0"

__all__ = [
    "LLM",
    "SCHEDULERS",
    "DraftBlock",
    "Drafter",
    "FinishReason",
    "InvalidInputError",
    "RequestOutput",
    "RequestState",
    "SamplingParams",
    "SchedulerConfig",
    "Target",
    "VerifyOutcome",
    "VerifyScores",
    "create_scheduler",
    "register_scheduler",
    "verify",
]
