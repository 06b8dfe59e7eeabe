"""Metrics the course needs that scikit-learn does not offer as such.

Everything here is computed by scikit-learn underneath; these functions only arrange its results
the way the book reads them (positive class first) and validate their input.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd
from sklearn import metrics as skm

from . import _validation as v


class ConfusionCounts(NamedTuple):
    """The four cells of a binary confusion matrix, in the book's order."""

    tp: int
    fp: int
    fn: int
    tn: int


def confusion_counts(y_true, y_pred, pos_label=1) -> ConfusionCounts:
    """Count true/false positives and negatives for the class ``pos_label``.

    Same numbers as ``sklearn.metrics.confusion_matrix(y_true, y_pred, labels=[pos, neg]).ravel()``
    but named, so the orientation of the matrix cannot be misread.
    """
    y_true, y_pred, classes = v.binary_labels(y_true, y_pred, pos_label)
    others = [c for c in classes if c != pos_label]
    if not others:  # every label is the positive one
        return ConfusionCounts(len(y_true), 0, 0, 0)
    tp, fn, fp, tn = skm.confusion_matrix(y_true, y_pred, labels=[pos_label, others[0]]).ravel()
    return ConfusionCounts(int(tp), int(fp), int(fn), int(tn))


def binary_scores(y_true, y_pred, pos_label=1) -> pd.Series:
    """The scoreboard of one set of binary decisions: accuracy, precision, recall, specificity,
    NPV, F1, balanced accuracy, MCC and Cohen's kappa (each computed by scikit-learn).

    Undefined ratios (for example precision when nothing is flagged) are reported as 0, as
    scikit-learn does with ``zero_division=0``.
    """
    y_true, y_pred, classes = v.binary_labels(y_true, y_pred, pos_label)
    others = [c for c in classes if c != pos_label]
    neg = others[0] if others else None
    kw = {"zero_division": 0}
    return pd.Series(
        {
            "accuracy": skm.accuracy_score(y_true, y_pred),
            "precision": skm.precision_score(y_true, y_pred, pos_label=pos_label, **kw),
            "recall": skm.recall_score(y_true, y_pred, pos_label=pos_label, **kw),
            "specificity": skm.recall_score(y_true, y_pred, pos_label=neg, **kw) if others else 0.0,
            "npv": skm.precision_score(y_true, y_pred, pos_label=neg, **kw) if others else 0.0,
            "f1": skm.f1_score(y_true, y_pred, pos_label=pos_label, **kw),
            "balanced_accuracy": skm.balanced_accuracy_score(y_true, y_pred) if others else 1.0,
            "mcc": skm.matthews_corrcoef(y_true, y_pred),
            "kappa": skm.cohen_kappa_score(y_true, y_pred) if len(set(y_true) | set(y_pred)) > 1 else 0.0,
        },
        dtype=float,
    )


def threshold_table(y_true, y_score, thresholds, pos_label=1, betas=(1.0,)) -> pd.DataFrame:
    """Counts and rates at each threshold, flagging ``score >= threshold`` as positive.

    ``>=`` is the convention of ``sklearn.metrics.roc_curve``. Columns: threshold, tp, fp, fn, tn,
    precision, recall, specificity and one F-beta column per beta (``f1``, ``f2``, ``f0.5``).
    """
    y_true, _, classes = v.binary_labels(y_true, None, pos_label)
    v.both_classes(y_true, pos_label)
    y_score = v.scores(y_score, "y_score")
    v.same_length(y_true=y_true, y_score=y_score)
    thresholds = v.scores(thresholds, "thresholds")
    for beta in betas:
        v.number(beta, "beta", low=1e-12)
    positive = y_true == pos_label
    flagged = y_score[None, :] >= thresholds[:, None]  # one row per threshold
    tp = (flagged & positive).sum(axis=1)
    fp = (flagged & ~positive).sum(axis=1)
    fn = positive.sum() - tp
    tn = (~positive).sum() - fp
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = np.where(tp + fp > 0, tp / np.maximum(tp + fp, 1), 0.0)
    table = pd.DataFrame(
        {
            "threshold": thresholds,
            "tp": tp,
            "fp": fp,
            "fn": fn,
            "tn": tn,
            "precision": precision,
            "recall": tp / positive.sum(),
            "specificity": tn / (~positive).sum(),
        }
    )
    for beta in betas:
        b2 = beta**2
        denom = (1 + b2) * tp + b2 * fn + fp
        name = f"f{beta:g}"
        table[name] = np.where(denom > 0, (1 + b2) * tp / np.maximum(denom, 1), 0.0)
    return table
