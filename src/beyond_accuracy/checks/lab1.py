"""Checks of lab 1, "A screening tool on real biopsies".

Every expected answer is computed from the objects the lab's check cell passes (the student's
validation labels and probabilities, the student's digits predictions), so the checks stay fair
when the lab is rerun with another ``SEED`` or with ``load_biopsies(features="mean")``.

In the lab: ``from beyond_accuracy.checks.lab1 import check``, then
``check.counts(answer_counts, y_val, proba_val["LogisticRegression"])``.
"""

from __future__ import annotations

import numpy as np
from sklearn.metrics import classification_report, f1_score

from ..catalogue import localised
from ._engine import Checker, Exercise, Mistake

EX_THRESHOLD = 0.37  # the threshold of the "counts" and "precision_recall" exercises (not in the sweep)
REPORT_ROWS = ("accuracy", "macro avg", "weighted avg")  # the options of the "micro_f1" exercise


def _counts(y_true, proba, threshold: float, strict: bool = False) -> tuple[int, int, int, int]:
    y = np.asarray(y_true).astype(int)
    p = np.asarray(proba, dtype=float)
    if y.shape != p.shape or y.ndim != 1:
        raise ValueError("pass the validation labels and one probability per biopsy")
    flagged = p > threshold if strict else p >= threshold
    tp = int(np.sum(flagged & (y == 1)))
    fp = int(np.sum(flagged & (y == 0)))
    fn = int(np.sum(~flagged & (y == 1)))
    tn = int(np.sum(~flagged & (y == 0)))
    return tp, fp, fn, tn


def _pr(counts) -> tuple[float, float]:
    tp, fp, fn, _ = counts
    return tp / (tp + fp), tp / (tp + fn)


def _f_beta(counts, beta: float) -> float:
    tp, fp, fn, _ = counts
    b2 = beta**2
    return (1 + b2) * tp / ((1 + b2) * tp + b2 * fn + fp)


def _best_threshold(y_true, proba, thresholds, beta: float, lowest: bool = True) -> float:
    values = [_f_beta(_counts(y_true, proba, t), beta) for t in thresholds]
    best = max(values)
    tied = [float(t) for t, v in zip(thresholds, values) if v == best]
    return min(tied) if lowest else max(tied)


def _highest_tied(y_true, proba, thresholds):
    high = _best_threshold(y_true, proba, thresholds, 2, lowest=False)
    return high if high != _best_threshold(y_true, proba, thresholds, 2) else None


def _best_position(y_true, proba, thresholds) -> int:
    """The row of the best threshold in the sweep (what ``idxmax`` returns on a table indexed
    0, 1, 2, ...): a position, not a threshold."""
    best = _best_threshold(y_true, proba, thresholds, 2)
    return int(next(i for i, t in enumerate(thresholds) if float(t) == best))


def _report_rows(y_true, y_pred) -> dict[str, float]:
    report = classification_report(y_true, y_pred, output_dict=True, zero_division=0)
    return {
        "accuracy": report["accuracy"],
        "macro avg": report["macro avg"]["f1-score"],
        "weighted avg": report["weighted avg"]["f1-score"],
    }


def _micro_row(y_true, y_pred) -> tuple[str, ...]:
    """Every report row whose f1-score equals the micro-averaged F1 (in a single-label problem,
    one row always does)."""
    micro = f1_score(y_true, y_pred, average="micro")
    return tuple(row for row, value in _report_rows(y_true, y_pred).items() if abs(value - micro) < 1e-12)


def _row_if_distinct(row: str):
    def value(y_true, y_pred):
        return None if row in _micro_row(y_true, y_pred) else row

    return value


counts = Exercise(
    name="counts",
    kind="numbers",
    size=4,
    whole=True,
    effort="compute",
    order="(tp, fp, fn, tn)",
    inputs=("y_val", 'proba_val["LogisticRegression"]'),
    expected=lambda y, p: _counts(y, p, EX_THRESHOLD),
    skill=localised("lab1.counts.skill"),
    hint=localised("lab1.counts.hint"),
    mistakes=(
        Mistake(
            "sklearn_order",
            lambda y, p: (lambda c: (c[3], c[1], c[2], c[0]))(_counts(y, p, EX_THRESHOLD)),
            about=localised("lab1.counts.sklearn_order.about"),
            hint=localised("lab1.counts.sklearn_order.hint"),
        ),
        Mistake(
            "fp_fn_swapped",
            lambda y, p: (lambda c: (c[0], c[2], c[1], c[3]))(_counts(y, p, EX_THRESHOLD)),
            about=localised("lab1.counts.fp_fn_swapped.about"),
            hint=localised("lab1.counts.fp_fn_swapped.hint"),
        ),
        Mistake(
            "default_threshold",
            lambda y, p: _counts(y, p, 0.5),
            about=localised("lab1.counts.default_threshold.about"),
            hint=localised("lab1.counts.default_threshold.hint"),
        ),
    ),
)

precision_recall = Exercise(
    name="precision_recall",
    kind="numbers",
    size=2,
    proportion=True,
    order="(precision, recall)",
    decimals=2,  # the prompt: "to two decimals"
    effort="derive",
    inputs=("y_val", 'proba_val["LogisticRegression"]'),
    expected=lambda y, p: _pr(_counts(y, p, EX_THRESHOLD)),
    skill=localised("lab1.precision_recall.skill"),
    hint=localised("lab1.precision_recall.hint"),
    mistakes=(
        Mistake(
            "swapped",
            lambda y, p: _pr(_counts(y, p, EX_THRESHOLD))[::-1],
            about=localised("lab1.precision_recall.swapped.about"),
            hint=localised("lab1.precision_recall.swapped.hint"),
        ),
        Mistake(
            "precision_with_fn",
            lambda y, p: (lambda c: (c[0] / (c[0] + c[1] + c[2]), _pr(c)[1]))(_counts(y, p, EX_THRESHOLD)),
            about=localised("lab1.precision_recall.precision_with_fn.about"),
            hint=localised("lab1.precision_recall.precision_with_fn.hint"),
        ),
        Mistake(
            "default_threshold",
            lambda y, p: _pr(_counts(y, p, 0.5)),
            about=localised("lab1.precision_recall.default_threshold.about"),
            hint=localised("lab1.precision_recall.default_threshold.hint"),
        ),
    ),
)

best_f2 = Exercise(
    name="best_f2",
    kind="number",
    proportion=True,
    decimals=2,  # a threshold of the sweep (0.10, 0.15, ...)
    effort="compute",
    inputs=("y_val", "proba_lr", "thresholds"),
    expected=lambda y, p, ts: _best_threshold(y, p, ts, 2),
    skill=localised("lab1.best_f2.skill"),
    hint=localised("lab1.best_f2.hint"),
    mistakes=(
        Mistake(
            "best_f1",
            lambda y, p, ts: _best_threshold(y, p, ts, 1),
            about=localised("lab1.best_f2.best_f1.about"),
            hint=localised("lab1.best_f2.best_f1.hint"),
        ),
        Mistake(
            "default_threshold",
            lambda y, p, ts: 0.5,
            about=localised("lab1.best_f2.default_threshold.about"),
            hint=localised("lab1.best_f2.default_threshold.hint"),
        ),
        Mistake(
            "highest_tie",
            _highest_tied,
            about=localised("lab1.best_f2.highest_tie.about"),
            hint=localised("lab1.best_f2.highest_tie.hint"),
        ),
        Mistake(
            "row_position",
            _best_position,
            about=localised("lab1.best_f2.row_position.about"),
            hint=localised("lab1.best_f2.row_position.hint"),
        ),
    ),
)

micro_f1 = Exercise(
    name="micro_f1",
    kind="choice",
    options=REPORT_ROWS,
    inputs=("yd_test[kept]", "yd_pred[kept]"),
    expected=_micro_row,
    skill=localised("lab1.micro_f1.skill"),
    hint=localised("lab1.micro_f1.hint"),
    mistakes=(
        Mistake(
            "macro",
            _row_if_distinct("macro avg"),
            about=localised("lab1.micro_f1.macro.about"),
            hint=localised("lab1.micro_f1.macro.hint"),
        ),
        Mistake(
            "weighted",
            _row_if_distinct("weighted avg"),
            about=localised("lab1.micro_f1.weighted.about"),
            hint=localised("lab1.micro_f1.weighted.hint"),
        ),
    ),
)

check = Checker(counts, precision_recall, best_f2, micro_f1)

__all__ = ["check"]
