"""Chapter 3 and lab 3: the calibration explorer (model × calibrator × number of bins).

Python exports the evaluation labels and every (model, calibrator) probability; the browser
(js/calibration.js) bins them, draws the reliability diagram and computes ECE, the Brier score and
the decisions changed. :meth:`CalibrationExplorer.summary` gives the same numbers in Python.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.metrics import brier_score_loss, log_loss, roc_auc_score

from .. import _validation as v
from ..language import fmt, get_language, term
from ..metrics import MAX_BINS, expected_calibration_error
from ._widget import BrowserWidget, counted, labels, rounded_keeping_sides

# the names of the lab's models and calibrators, shown in the page's language
_SHOWN = {
    "none": "cal_none",
    "temperature": "cal_temperature",
    "sigmoid": "cal_sigmoid",
    "isotonic": "cal_isotonic",
    "naive Bayes": "model_naive_bayes",
    "logistic regression": "model_logistic_regression",
}
_LABELS = (
    "model",
    "calibrator",
    "cal_bins",
    "ece_short",
    "brier_score",
    "cal_decisions_changed",
    "cal_summary",
    "cal_bins_one",
    "cal_bins_other",
    "cal_changed_one",
    "cal_changed_other",
    "reliability_diagram",
    "mean_predicted_axis",
    "observed_frequency_axis",
    "perfect_calibration",
    "cal_uncalibrated",
    "cal_with_calibrator",
)
MAX_EXPLORER_BINS = 30


def _shown(name: str, lang: str) -> str:
    return term(_SHOWN[name], lang) if name in _SHOWN else name


class CalibrationExplorer(BrowserWidget):
    """Pick a model, a calibrator and a number of bins; see the reliability diagram, the ECE, the
    Brier score and how many decisions (at ``threshold``) the calibrator changed.

    ``probs`` maps ``(model, calibrator)`` to the positive-class probabilities on the same
    evaluation set ``y_true``; every model needs an uncalibrated entry ``(model, "none")``, the
    reference for counting changed decisions, and every model the same calibrators.

        explorer = CalibrationExplorer(y_test, probs)   # shown: the explorer, also on a static page
        explorer.summary("naive Bayes", "temperature")  # the same numbers, as a Series
    """

    module = "calibration"

    def __init__(self, y_true, probs: dict, n_bins: int = 10, threshold: float = 0.5):
        y = v.as_1d(y_true, "y_true")
        if not set(v.distinct(y)) <= {0, 1}:
            raise ValueError(
                f"y_true must hold 0/1 labels (1 = the positive class), found {v.distinct(y)[:5]}"
            )
        if not isinstance(probs, dict) or not probs:
            raise ValueError("probs must be a non-empty dict {(model, calibrator): probabilities}")
        clean = {}
        for key, p in probs.items():
            if not (isinstance(key, tuple) and len(key) == 2 and all(isinstance(k, str) for k in key)):
                raise ValueError(f"keys of probs must be (model, calibrator) string pairs, got {key!r}")
            p = v.scores(p, f"probs[{key!r}]", probabilities=True)
            v.same_length(y_true=y, probabilities=p)
            clean[key] = p
        models = list(dict.fromkeys(k[0] for k in clean))
        calibrators = list(dict.fromkeys(k[1] for k in clean))
        missing = [m for m in models if (m, "none") not in clean]
        if missing:
            raise ValueError(
                f"every model needs an uncalibrated entry (model, 'none'); missing for {missing}"
            )
        holes = [(m, c) for m in models for c in calibrators if (m, c) not in clean]
        if holes:
            raise ValueError(f"every model needs every calibrator; missing {holes[:3]}")
        v.both_classes(y, 1)
        if isinstance(n_bins, bool) or not isinstance(n_bins, (int, np.integer)):
            raise ValueError(f"n_bins must be a whole number, got {v.show(n_bins)}")
        if not 1 <= n_bins <= MAX_EXPLORER_BINS:
            raise ValueError(f"n_bins must lie between 1 and {MAX_EXPLORER_BINS}, got {int(n_bins)}")
        assert MAX_EXPLORER_BINS <= MAX_BINS
        self.y = y.astype(int)
        self.probs = clean
        self.models, self.calibrators = models, calibrators
        self.n_bins = int(n_bins)
        self.threshold = v.number(threshold, "threshold", low=0, high=1)
        lang = get_language()
        super().__init__(data=self._export(lang), lang=lang)

    # --- the numbers, in Python ---------------------------------------------------------------

    def _get(self, model: str, calibrator: str) -> np.ndarray:
        if (model, calibrator) not in self.probs:
            raise ValueError(f"no probabilities for model {model!r} with calibrator {calibrator!r}")
        return self.probs[(model, calibrator)]

    def summary(self, model: str, calibrator: str, n_bins: int | None = None) -> pd.Series:
        """Brier score, log loss, ECE (``n_bins``, default the explorer's), ROC AUC and the number
        of decisions changed with respect to the uncalibrated model."""
        p = self._get(model, calibrator)
        raw = self.probs[(model, "none")]
        return pd.Series(
            {
                "brier": brier_score_loss(self.y, p),
                "log_loss": log_loss(self.y, p, labels=[0, 1]),
                "ece": expected_calibration_error(self.y, p, n_bins=n_bins or self.n_bins),
                "roc_auc": roc_auc_score(self.y, p),
                "decisions_changed": int(np.sum((p >= self.threshold) != (raw >= self.threshold))),
            }
        )

    def figure(self, model: str, calibrator: str):
        """The reliability diagram of the model before and after the calibrator (matplotlib)."""
        from ..plots import plot_reliability_diagram

        curves = {_shown(model, get_language()): self._get(model, "none")}
        if calibrator != "none":
            name = f"{_shown(model, get_language())} + {_shown(calibrator, get_language())}"
            curves[name] = self._get(model, calibrator)
        return plot_reliability_diagram(self.y, curves, n_bins=self.n_bins)

    # --- what the browser gets ----------------------------------------------------------------

    def _export(self, lang: str) -> dict:
        return {
            "y": "".join("1" if t else "0" for t in self.y),
            "models": self.models,
            "calibrators": self.calibrators,
            # 6 decimals, each probability kept on its side of every bin edge and the threshold
            # (the browser's bins and decisions are Python's), without the machine's last bits
            "probs": {
                m: {c: rounded_keeping_sides(self.probs[(m, c)], self._edges()) for c in self.calibrators}
                for m in self.models
            },
            "n_bins": self.n_bins,
            "max_bins": MAX_EXPLORER_BINS,
            "threshold": self.threshold,
            # every localised word is a label: the menus' names too ("name:<key>")
            "labels": {
                **labels(_LABELS, lang),
                **{f"name:{k}": _shown(k, lang) for k in self.models + self.calibrators},
            },
        }

    def _edges(self) -> np.ndarray:
        """Every bin edge the slider can choose (numpy.linspace(0, 1, n + 1), as the package
        bins) and the decision threshold."""
        edges = [np.linspace(0, 1, n + 1) for n in range(1, MAX_EXPLORER_BINS + 1)]
        return np.concatenate(edges + [[self.threshold]])

    def text_summary(self) -> str:
        """The text shown without JavaScript: the first model with the first calibrator that
        is not "none" (or none), as the screen-reader summary says it."""
        lang = self.lang
        model = self.models[0]
        calibrator = next((c for c in self.calibrators if c != "none"), "none")
        s = self.summary(model, calibrator)
        return term("cal_summary", lang).format(
            model=_shown(model, lang),
            calibrator=_shown(calibrator, lang),
            bins=counted("cal_bins", self.n_bins, lang),
            ece=fmt(s["ece"], 3, lang=lang),
            brier=fmt(s["brier"], 3, lang=lang),
            changed=counted(
                "cal_changed", int(s["decisions_changed"]), lang, threshold=fmt(self.threshold, 2, lang=lang)
            ),
        )
