"""Checks of lab 4, "Stars, stages and distances".

Every expected answer is computed from what the check cell passes (the student's test labels and
each model's test predictions, the pain table) or, for the kappa paradox, from the error mechanism
the exercise states. A rerun with another ``SEED`` is checked against the student's own models.

In the lab: ``from beyond_accuracy.checks.lab4 import check``, then
``check.qwk_by_hand(answer_qwk_by_hand, pain_counts)``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.metrics import accuracy_score, cohen_kappa_score, mean_absolute_error

from ..catalogue import localised
from ..datasets import labels_from_counts
from ..metrics import one_off_accuracy
from ._engine import Checker, Exercise, Mistake

P_MOVE = 0.2  # the error mechanism: one class up or down, at random, with this probability
PARADOX_PROPORTIONS = (0.70, 0.20, 0.10)  # the population of the "paradox_qwk" exercise
MODELS = ("majority", "multinomial LR", "regression + rounding", "ordinal LR")  # the board's rows


def _kappa_from_counts(counts, labels, weights=None) -> float:
    table = pd.DataFrame(counts, index=labels, columns=labels)
    y_true, y_pred = labels_from_counts(table)
    return float(cohen_kappa_score(y_true, y_pred, labels=labels, weights=weights))


def _error_mechanism(k: int, p_move: float, edge_stays: bool = True) -> np.ndarray:
    """Row i: where an item of class i ends up. Up or down one class with probability p_move/2
    each; at an edge the impossible move stays in place (or, if not ``edge_stays``, the whole
    p_move goes inwards: a misreading of the mechanism)."""
    M = np.zeros((k, k))
    for i in range(k):
        M[i, i] += 1 - p_move
        for j in (i - 1, i + 1):
            if 0 <= j < k:
                M[i, j] += p_move / 2
            elif edge_stays:
                M[i, i] += p_move / 2
            else:
                M[i, 2 * i - j] += p_move / 2  # the move bounces back inwards
    return M


def _expected_kappa(proportions, weights="quadratic", edge_stays=True) -> float:
    p = np.asarray(proportions, dtype=float)
    O = p[:, None] * _error_mechanism(len(p), P_MOVE, edge_stays)
    i, j = np.indices(O.shape)
    return float(cohen_kappa_score(i.ravel(), j.ravel(), weights=weights, sample_weight=O.ravel()))


def _pain_kappa(table, weights="quadratic") -> float:
    table = pd.DataFrame(table)
    if list(table.index) != list(table.columns):
        raise ValueError("pass the pain table: the same levels in its rows and its columns")
    return _kappa_from_counts(table.to_numpy(), list(table.index), weights=weights)


def _pain_shortcut(table, chance_divided=True) -> float:
    O = pd.DataFrame(table).to_numpy(dtype=float)
    i, j = np.indices(O.shape)
    W = (i - j) ** 2 / (len(O) - 1) ** 2
    if chance_divided is None:  # no chance matrix at all
        return float(1 - (W * O).sum() / O.sum())
    E = np.outer(O.sum(axis=1), O.sum(axis=0))
    return float(1 - (W * O).sum() / (W * E).sum())


_SCORES = {
    "accuracy": (accuracy_score, max),
    "qwk": (lambda t, p: cohen_kappa_score(t, p, weights="quadratic"), max),
    "kappa": (cohen_kappa_score, max),
    "one_off": (lambda t, p: one_off_accuracy(t, p, tolerance=1), max),
    "mae": (mean_absolute_error, min),
}


def _pick(metric):
    score, best = _SCORES[metric]

    def value(y_test, test_pred):
        if not set(test_pred) <= set(MODELS):
            raise ValueError(f"pass the dictionary of test predictions of the models {MODELS}")
        found = {name: float(score(np.asarray(y_test), np.asarray(pred))) for name, pred in test_pred.items()}
        top = best(found.values())
        return tuple(name for name, v in found.items() if v == top)  # ties: any of the tied models

    return value


def _one_pick(metric):
    pick = _pick(metric)
    return lambda y_test, test_pred: pick(y_test, test_pred)[0]


_PICK_SKILL = localised("lab4.pick.skill")


accuracy_pick = Exercise(
    name="accuracy_pick",
    kind="choice",
    options=MODELS,
    inputs=("y_test", "test_pred"),
    expected=_pick("accuracy"),
    skill=_PICK_SKILL,
    hint=localised("lab4.accuracy_pick.hint"),
    mistakes=(
        Mistake(
            "by_qwk",
            _one_pick("qwk"),
            about=localised("lab4.accuracy_pick.by_qwk.about"),
            hint=localised("lab4.accuracy_pick.by_qwk.hint"),
        ),
        Mistake(
            "by_one_off",
            _one_pick("one_off"),
            about=localised("lab4.accuracy_pick.by_one_off.about"),
            hint=localised("lab4.accuracy_pick.by_one_off.hint"),
        ),
    ),
)

qwk_pick = Exercise(
    name="qwk_pick",
    kind="choice",
    options=MODELS,
    inputs=("y_test", "test_pred"),
    expected=_pick("qwk"),
    skill=_PICK_SKILL,
    hint=localised("lab4.qwk_pick.hint"),
    mistakes=(
        Mistake(
            "by_accuracy",
            _one_pick("accuracy"),
            about=localised("lab4.qwk_pick.by_accuracy.about"),
            hint=localised("lab4.qwk_pick.by_accuracy.hint"),
        ),
        Mistake(
            "by_mae",
            _one_pick("mae"),
            about=localised("lab4.qwk_pick.by_mae.about"),
            hint=localised("lab4.qwk_pick.by_mae.hint"),
        ),
    ),
)

qwk_by_hand = Exercise(
    name="qwk_by_hand",
    kind="number",
    bounds=(-1, 1),  # a kappa
    decimals=2,  # the prompt: "to two decimals"
    effort="derive",
    inputs=("pain_counts",),
    expected=_pain_kappa,
    skill=localised("lab4.qwk_by_hand.skill"),
    hint=localised("lab4.qwk_by_hand.hint"),
    mistakes=(
        Mistake(
            "unweighted",
            lambda t: _pain_kappa(t, weights=None),
            about=localised("lab4.qwk_by_hand.unweighted.about"),
            hint=localised("lab4.qwk_by_hand.unweighted.hint"),
        ),
        Mistake(
            "linear",
            lambda t: _pain_kappa(t, weights="linear"),
            about=localised("lab4.qwk_by_hand.linear.about"),
            hint=localised("lab4.qwk_by_hand.linear.hint"),
        ),
        Mistake(
            "accuracy",
            lambda t: float(np.trace(pd.DataFrame(t).to_numpy()) / pd.DataFrame(t).to_numpy().sum()),
            about=localised("lab4.qwk_by_hand.accuracy.about"),
            hint=localised("lab4.qwk_by_hand.accuracy.hint"),
        ),
        Mistake(
            "no_chance",
            lambda t: _pain_shortcut(t, chance_divided=None),
            about=localised("lab4.qwk_by_hand.no_chance.about"),
            hint=localised("lab4.qwk_by_hand.no_chance.hint"),
        ),
        Mistake(
            "chance_not_divided",
            lambda t: _pain_shortcut(t),
            about=localised("lab4.qwk_by_hand.chance_not_divided.about"),
            hint=localised("lab4.qwk_by_hand.chance_not_divided.hint"),
        ),
    ),
)

paradox_qwk = Exercise(
    name="paradox_qwk",
    kind="number",
    bounds=(-1, 1),  # a kappa
    decimals=2,  # the prompt: "to two decimals"
    effort="derive",
    expected=lambda: _expected_kappa(PARADOX_PROPORTIONS),
    skill=localised("lab4.paradox_qwk.skill"),
    hint=localised("lab4.paradox_qwk.hint"),
    mistakes=(
        Mistake(
            "accuracy",
            lambda: float(np.sum(np.asarray(PARADOX_PROPORTIONS) * np.diag(_error_mechanism(3, P_MOVE)))),
            about=localised("lab4.paradox_qwk.accuracy.about"),
            hint=localised("lab4.paradox_qwk.accuracy.hint"),
        ),
        Mistake(
            "unweighted",
            lambda: _expected_kappa(PARADOX_PROPORTIONS, weights=None),
            about=localised("lab4.paradox_qwk.unweighted.about"),
            hint=localised("lab4.paradox_qwk.unweighted.hint"),
        ),
        Mistake(
            "equal_thirds",
            lambda: _expected_kappa(np.full(3, 1 / 3)),
            about=localised("lab4.paradox_qwk.equal_thirds.about"),
            hint=localised("lab4.paradox_qwk.equal_thirds.hint"),
        ),
    ),
)

check = Checker(accuracy_pick, qwk_pick, qwk_by_hand, paradox_qwk)

__all__ = ["check"]
