"""Schedulers: who runs what, when. Each module registers its mode by name."""

from . import flex, psd, sequential, smc, tree  # noqa: F401  (register the modes)
from .base import SCHEDULERS, Scheduler, SchedulerConfig, StepError, create_scheduler, register_scheduler

__all__ = ["SCHEDULERS", "Scheduler", "SchedulerConfig", "StepError", "create_scheduler", "register_scheduler"]
