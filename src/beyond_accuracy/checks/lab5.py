"""Checks of lab 5, "The label hunt".

Every expected answer is computed from what the check cell passes: the student's corruption mask,
out-of-fold losses, leaked mask and leaky losses. A rerun with another ``NOISE`` or ``SEED`` is
checked against the student's own hunt.

In the lab: ``from beyond_accuracy.checks.lab5 import check``, then
``check.precision_at_30(answer_precision_at_30, corrupted, loss_oof)``.
"""

from __future__ import annotations

import math

import numpy as np

from ..catalogue import localised
from ._engine import Checker, Exercise, Mistake

HAND_PROBABILITY = 0.2  # the probability of the true class in the "loss_by_hand" exercise
K = 30  # the k of the "precision_at_30" exercise
TARGET = 0.75  # the share of wrong labels of the "budget_75" exercise
TAIL = 100  # the size of the tails compared in the "leak_tail" exercise
TAILS = ("top", "bottom", "neither")  # the options of "leak_tail": top = the highest losses


def _ranking(mask, loss):
    mask = np.asarray(mask, dtype=bool)
    loss = np.asarray(loss, dtype=float)
    if mask.shape != loss.shape or mask.ndim != 1:
        raise ValueError("pass the mask and the losses of the same images")
    return mask, np.argsort(-loss, kind="stable")  # highest loss first, as in the lab


def _precision_at(mask, loss, k=K, lowest=False) -> float:
    mask, order = _ranking(mask, loss)
    chosen = order[::-1][:k] if lowest else order[:k]
    return float(mask[chosen].mean())


def _budget(mask, loss, target=TARGET) -> int:
    mask, order = _ranking(mask, loss)
    found = np.cumsum(mask[order])
    return int(np.argmax(found >= math.ceil(target * mask.sum() - 1e-9)) + 1)


def _leak_tail(leaked, loss_leaky) -> str:
    leaked, order = _ranking(leaked, loss_leaky)
    top, bottom = leaked[order[:TAIL]].mean(), leaked[order[-TAIL:]].mean()
    share = leaked.mean()
    if max(top, bottom) < share + 0.1:
        return "neither"
    return "bottom" if bottom > top else "top"


loss_by_hand = Exercise(
    name="loss_by_hand",
    kind="number",
    decimals=2,  # the prompt: "to two decimals"
    effort="compute",
    expected=lambda: -math.log(HAND_PROBABILITY),
    skill=localised("lab5.loss_by_hand.skill"),
    hint=localised("lab5.loss_by_hand.hint"),
    mistakes=(
        Mistake(
            "log10",
            lambda: -math.log10(HAND_PROBABILITY),
            about=localised("lab5.loss_by_hand.log10.about"),
            hint=localised("lab5.loss_by_hand.log10.hint"),
        ),
        Mistake(
            "log2",
            lambda: -math.log2(HAND_PROBABILITY),
            about=localised("lab5.loss_by_hand.log2.about"),
            hint=localised("lab5.loss_by_hand.log2.hint"),
        ),
        Mistake(
            "sign",
            lambda: math.log(HAND_PROBABILITY),
            about=localised("lab5.loss_by_hand.sign.about"),
            hint=localised("lab5.loss_by_hand.sign.hint"),
        ),
        Mistake(
            "other_classes",
            lambda: -math.log(1 - HAND_PROBABILITY),
            about=localised("lab5.loss_by_hand.other_classes.about"),
            hint=localised("lab5.loss_by_hand.other_classes.hint"),
        ),
    ),
)

precision_at_30 = Exercise(
    name="precision_at_30",
    kind="number",
    proportion=True,
    decimals=2,  # the prompt: "to two decimals"; shares of thirty images are 1/30 apart
    effort="compute",
    inputs=("corrupted", "loss_oof"),
    expected=_precision_at,
    skill=localised("lab5.precision_at_30.skill"),
    hint=localised("lab5.precision_at_30.hint"),
    mistakes=(
        Mistake(
            "lowest",
            lambda m, loss: _precision_at(m, loss, lowest=True),
            about=localised("lab5.precision_at_30.lowest.about"),
            hint=localised("lab5.precision_at_30.lowest.hint"),
        ),
        Mistake(
            "k10",
            lambda m, loss: _precision_at(m, loss, k=10),
            about=localised("lab5.precision_at_30.k10.about"),
            hint=localised("lab5.precision_at_30.k10.hint"),
        ),
        Mistake(
            "count",
            lambda m, loss: int(np.asarray(m, dtype=bool)[_ranking(m, loss)[1][:K]].sum()),
            about=localised("lab5.precision_at_30.count.about"),
            hint=localised("lab5.precision_at_30.count.hint"),
        ),
        Mistake(
            "recall",
            lambda m, loss: float(np.asarray(m)[_ranking(m, loss)[1][:K]].sum() / np.asarray(m).sum()),
            about=localised("lab5.precision_at_30.recall.about"),
            hint=localised("lab5.precision_at_30.recall.hint"),
        ),
    ),
)

budget_75 = Exercise(
    name="budget_75",
    kind="number",
    whole=True,
    effort="compute",
    inputs=("corrupted", "loss_oof"),
    expected=_budget,
    skill=localised("lab5.budget_75.skill"),
    hint=localised("lab5.budget_75.hint"),
    mistakes=(
        Mistake(
            "zero_based",
            lambda m, loss: _budget(m, loss) - 1,
            about=localised("lab5.budget_75.zero_based.about"),
            hint=localised("lab5.budget_75.zero_based.hint"),
        ),
        Mistake(
            "errors_to_find",
            lambda m, loss: math.ceil(TARGET * np.asarray(m, dtype=bool).sum() - 1e-9),
            about=localised("lab5.budget_75.errors_to_find.about"),
            hint=localised("lab5.budget_75.errors_to_find.hint"),
        ),
        Mistake(
            "random_order",
            lambda m, loss: round(TARGET * len(np.asarray(m))),
            about=localised("lab5.budget_75.random_order.about"),
            hint=localised("lab5.budget_75.random_order.hint"),
        ),
        Mistake(
            "target_80",
            lambda m, loss: _budget(m, loss, 0.8),
            about=localised("lab5.budget_75.target_80.about"),
            hint=localised("lab5.budget_75.target_80.hint"),
        ),
    ),
)

leak_tail = Exercise(
    name="leak_tail",
    kind="choice",
    options=TAILS,
    inputs=("leaked", "loss_leaky"),
    expected=_leak_tail,
    skill=localised("lab5.leak_tail.skill"),
    hint=localised("lab5.leak_tail.hint"),
)

check = Checker(loss_by_hand, precision_at_30, budget_75, leak_tail)

__all__ = ["check"]
