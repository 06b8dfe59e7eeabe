"""Checks of lab 3, "Can we trust these probabilities?".

Every expected answer is computed from what the check cell passes: the forecaster's table, the
student's naive Bayes probabilities before and after temperature scaling, and the student's
evaluation labels and calibrated probabilities. A rerun with another ``SEED`` or other splits is
checked against the student's own numbers.

In the lab: ``from beyond_accuracy.checks.lab3 import check``, then
``check.rain_ece(answer_rain_ece, rain)``.
"""

from __future__ import annotations

import numpy as np
from sklearn.metrics import brier_score_loss, log_loss

from ..catalogue import localised
from ..metrics import expected_calibration_error
from ._engine import Checker, Exercise, Mistake

EX_THRESHOLD = 0.2  # the screening threshold of the "temperature_decisions" exercise
CALIBRATORS = ("temperature", "sigmoid", "isotonic")  # the options of "best_calibrator"


def _rain(table):
    days = np.asarray(table["days"], dtype=float)
    rainy = np.asarray(table["rainy"], dtype=float)
    forecast = np.asarray(table["forecast"], dtype=float)
    if np.any(days <= 0) or np.any(rainy > days):
        raise ValueError("the forecaster's table needs positive days and at most as many rainy days")
    return forecast, days, rainy / days


def _rain_ece(table) -> float:
    forecast, days, observed = _rain(table)
    return float(np.sum(days / days.sum() * np.abs(observed - forecast)))


def _changed(p_raw, p_scaled, threshold=EX_THRESHOLD) -> int:
    before = np.asarray(p_raw, dtype=float) >= threshold
    after = np.asarray(p_scaled, dtype=float) >= threshold
    if before.shape != after.shape:
        raise ValueError("pass naive Bayes' probabilities before and after temperature scaling")
    return int(np.sum(before != after))


def _nb(probs, method):
    return np.asarray(probs[("naive Bayes", method)], dtype=float)


def _lowest(score):
    def value(y_eval, probs):
        found = {m: score(np.asarray(y_eval), _nb(probs, m)) for m in CALIBRATORS}
        return min(found, key=found.get)

    return value


rain_ece = Exercise(
    name="rain_ece",
    kind="number",
    proportion=True,
    decimals=2,  # the prompt: "to two decimals"
    effort="derive",
    inputs=("rain",),
    expected=_rain_ece,
    skill=localised("lab3.rain_ece.skill"),
    hint=localised("lab3.rain_ece.hint"),
    mistakes=(
        Mistake(
            "unweighted",
            lambda t: float(np.mean(np.abs(_rain(t)[2] - _rain(t)[0]))),
            about=localised("lab3.rain_ece.unweighted.about"),
            hint=localised("lab3.rain_ece.unweighted.hint"),
        ),
        Mistake(
            "signed",
            lambda t: (lambda f, d, o: float(np.sum(d / d.sum() * (o - f))))(*_rain(t)),
            about=localised("lab3.rain_ece.signed.about"),
            hint=localised("lab3.rain_ece.signed.hint"),
        ),
        Mistake(
            "largest_gap",
            lambda t: float(np.max(np.abs(_rain(t)[2] - _rain(t)[0]))),
            about=localised("lab3.rain_ece.largest_gap.about"),
            hint=localised("lab3.rain_ece.largest_gap.hint"),
        ),
    ),
)

temperature_decisions = Exercise(
    name="temperature_decisions",
    kind="number",
    whole=True,
    effort="compute",
    inputs=('probs[("naive Bayes", "none")]', 'probs[("naive Bayes", "temperature")]'),
    expected=_changed,
    skill=localised("lab3.temperature_decisions.skill"),
    hint=localised("lab3.temperature_decisions.hint"),
    mistakes=(
        Mistake(
            "at_half",
            lambda a, b: _changed(a, b, 0.5),
            about=localised("lab3.temperature_decisions.at_half.about"),
            hint=localised("lab3.temperature_decisions.at_half.hint"),
        ),
        Mistake(
            "flagged_after",
            lambda a, b: int(np.sum(np.asarray(b) >= EX_THRESHOLD)),
            about=localised("lab3.temperature_decisions.flagged_after.about"),
            hint=localised("lab3.temperature_decisions.flagged_after.hint"),
        ),
    ),
)

best_calibrator = Exercise(
    name="best_calibrator",
    kind="choice",
    options=CALIBRATORS,
    inputs=("y_eval", "probs"),
    expected=_lowest(brier_score_loss),
    skill=localised("lab3.best_calibrator.skill"),
    hint=localised("lab3.best_calibrator.hint"),
    mistakes=(
        Mistake(
            "lowest_ece",
            _lowest(lambda y, p: expected_calibration_error(y, p, n_bins=10)),
            about=localised("lab3.best_calibrator.lowest_ece.about"),
            hint=localised("lab3.best_calibrator.lowest_ece.hint"),
        ),
        Mistake(
            "lowest_log_loss",
            _lowest(lambda y, p: log_loss(y, np.clip(p, 1e-15, 1 - 1e-15))),
            about=localised("lab3.best_calibrator.lowest_log_loss.about"),
            hint=localised("lab3.best_calibrator.lowest_log_loss.hint"),
        ),
    ),
)

check = Checker(rain_ece, temperature_decisions, best_calibrator)

__all__ = ["check"]
