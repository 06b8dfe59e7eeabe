"""Checks for the labs' exercises, one module per lab: ``from beyond_accuracy.checks import lab1 as check``."""

from ._engine import BAD_FORM, CORRECT, NOT_ATTEMPTED, NOT_YET, Checker, Exercise

__all__ = ["Checker", "Exercise", "CORRECT", "NOT_YET", "NOT_ATTEMPTED", "BAD_FORM"]
