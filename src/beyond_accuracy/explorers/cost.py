"""The cost explorer of chapter 2."""

from __future__ import annotations

import numpy as np

from .. import _validation as v
from .._validation import number
from ..language import fmt, term
from ..metrics import cost_threshold, expected_cost_by_threshold, threshold_table
from ._widget import BrowserWidget, labels, rounded

_LABELS = (
    "cost_false_alarm", "cost_miss", "tau_star", "ex_cheapest_threshold", "ex_cheapest_cost", "threshold",
    "expected_cost_axis", "ex_cost_alt", "ex_cost_summary",
)  # fmt: skip


def _cost_range(value, name):
    if not (isinstance(value, (tuple, list)) and len(value) == 3):
        raise ValueError(f"{name} must be (low, high, step), got {value!r}")
    low, high, step = (number(x, name, low=0) for x in value)
    if not (0 < low < high and 0 < step <= high - low):
        raise ValueError(f"{name} must be (low, high, step) with 0 < low < high and 0 < step, got {value!r}")
    return low, high, step


class CostExplorer(BrowserWidget):
    """The costs of a false alarm and of a miss → the expected cost per example at every threshold
    of ``thresholds``, the cheapest of them and τ* = c_fp / (c_fp + c_fn) (correct decisions free).

        CostExplorer(y_val, p_val, thresholds, c_fp=5, c_fn=500)

    Exports the model's confusion counts at each threshold (``threshold_table``), not the
    probabilities: the costs the reader chooses are applied in the browser.
    """

    module = "cost"

    def __init__(self, y_true, y_prob, thresholds, c_fp, c_fn, c_fp_range=(1, 100, 1), c_fn_range=(10, 1000, 10),
                 pos_label=1, lang=None):  # fmt: skip
        y_prob = v.scores(y_prob, "y_prob", probabilities=True)
        thresholds = v.scores(thresholds, "thresholds", probabilities=True)
        if np.any(np.diff(thresholds) <= 0) or thresholds[0] <= 0:
            raise ValueError("thresholds must be increasing and above 0 (the plot's axis is logarithmic)")
        ranges = {
            "c_fp": _cost_range(c_fp_range, "c_fp_range"),
            "c_fn": _cost_range(c_fn_range, "c_fn_range"),
        }
        start = {"c_fp": c_fp, "c_fn": c_fn}
        table = threshold_table(y_true, y_prob, thresholds, pos_label=pos_label, betas=())
        self._y, self._p, self._pos = np.asarray(y_true), y_prob, pos_label
        data = {
            "thresholds": rounded(thresholds, 6),
            "fp": rounded(table["fp"].to_numpy()),
            "fn": rounded(table["fn"].to_numpy()),
            "m": int(len(y_prob)),
            "labels": labels(_LABELS, lang),
        }
        if data["thresholds"] != thresholds.tolist():
            raise ValueError("thresholds must have at most 6 decimals (the page shows them as they are)")
        for key, (low, high, step) in ranges.items():
            data[key] = {
                "min": low,
                "max": high,
                "step": step,
                "value": number(start[key], key, low=low, high=high),
            }
        super().__init__(data, lang=lang)

    def costs(self, c_fp, c_fn):
        """The package's expected cost at every threshold (expected_cost_by_threshold)."""
        return expected_cost_by_threshold(
            self._y, self._p, self.data["thresholds"], c_fp=c_fp, c_fn=c_fn, pos_label=self._pos
        )

    def text_summary(self) -> str:
        c_fp, c_fn, lang = self.data["c_fp"]["value"], self.data["c_fn"]["value"], self.lang
        table = self.costs(c_fp, c_fn)
        best = table.loc[table["cost"].idxmin()]
        return term("ex_cost_summary", lang).format(
            c_fp=fmt(c_fp, 0, lang=lang),
            c_fn=fmt(c_fn, 0, lang=lang),
            tau=fmt(cost_threshold(c_fp=c_fp, c_fn=c_fn), 4, lang=lang),
            best=fmt(best["threshold"], 3, lang=lang),
            cost=fmt(best["cost"], 2, lang=lang),
        )
