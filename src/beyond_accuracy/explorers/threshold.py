"""The threshold explorer of chapter 1."""

from __future__ import annotations

import numpy as np

from .. import _validation as v
from .._validation import number
from ..language import fmt, term
from ..metrics import threshold_table
from ._widget import BrowserWidget, labels, rounded_keeping_sides

_LABELS = (
    "threshold", "actual_class", "predicted_class", "precision", "recall", "f1", "f2_score", "mcc",
    "fpr_axis", "tpr_axis", "recall_axis", "precision_axis", "roc_curve", "pr_curve",
    "ex_roc_alt", "ex_pr_alt", "ex_threshold_summary",
)  # fmt: skip


class ThresholdExplorer(BrowserWidget):
    """Drag the threshold; see the confusion matrix, precision, recall, F1, F2, MCC and the point
    on the ROC and precision-recall curves. Scores ``>= threshold`` are flagged (the book's rule).

        ThresholdExplorer(y, scores, classes=("sick", "healthy"))

    ``classes`` are the label keys (terms.csv) of the positive and the negative class; the slider
    runs from ``low`` to ``high`` in steps of ``step``, starting at ``threshold``.
    """

    module = "threshold"

    def __init__(self, y_true, scores, classes=("sick", "healthy"), threshold=0.5, low=0.0, high=1.0,
                 step=0.01, pos_label=1, lang=None):  # fmt: skip
        y_true, _, _ = v.binary_labels(y_true, None, pos_label)
        v.both_classes(y_true, pos_label)
        scores = v.scores(scores, "scores")
        v.same_length(y_true=y_true, scores=scores)
        low, high = number(low, "low"), number(high, "high")
        if not low < high:
            raise ValueError(f"low must be below high, got low={low} and high={high}")
        step = number(step, "step", low=1e-9, high=high - low)
        threshold = number(threshold, "threshold", low=low, high=high)
        if not (isinstance(classes, (tuple, list)) and len(classes) == 2):
            raise ValueError(f"classes must be two label keys (positive, negative), got {classes!r}")
        digits = max(0, int(np.ceil(-np.log10(step) - 1e-9)))
        self._y = (y_true == pos_label).astype(int)
        self._scores = scores
        names = labels(_LABELS, lang)
        names["pos"], names["neg"] = term(classes[0], lang), term(classes[1], lang)
        data = {
            "y": self._y.tolist(),
            "scores": self._exported_scores(scores, low, high, step),
            "threshold": {"min": low, "max": high, "step": step, "value": threshold},
            "threshold_digits": digits,
            "labels": names,
        }
        super().__init__(data, lang=lang)

    @staticmethod
    def _exported_scores(scores, low, high, step):
        """The scores rounded to 6 decimals, each kept on its side of every slider position."""
        return rounded_keeping_sides(scores, np.round(np.arange(low, high + step / 2, step), 12))

    def table(self, thresholds):
        """The package's counts and metrics at ``thresholds`` (threshold_table with F1 and F2)."""
        return threshold_table(self._y, self._scores, thresholds, betas=(1, 2))

    def text_summary(self) -> str:
        from sklearn.metrics import matthews_corrcoef

        t = self.data["threshold"]["value"]
        row = self.table([t]).iloc[0]
        mcc = matthews_corrcoef(self._y, (self._scores >= t).astype(int))
        lang = self.lang
        values = {
            "threshold": fmt(t, self.data["threshold_digits"], lang=lang),
            **{k: fmt(int(row[k]), 0, lang=lang) for k in ("tp", "fp", "fn", "tn")},
            **{k: fmt(row[k], lang=lang) for k in ("precision", "recall", "f1", "f2")},
            "mcc": fmt(mcc, lang=lang),
        }
        return term("ex_threshold_summary", lang).format(**values)
