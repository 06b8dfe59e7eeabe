"""Interactive explorers for the labs (ipywidgets), with their logic in plain, testable methods."""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.metrics import brier_score_loss, log_loss, roc_auc_score

from . import _validation as v
from .language import term
from .metrics import expected_calibration_error


class CalibrationExplorer:
    """Pick a model and a calibrator; see its reliability diagram and its scores.

    ``probs`` maps ``(model, calibrator)`` to the positive-class probabilities on the same
    evaluation set ``y_true``; every model needs an uncalibrated entry ``(model, "none")``, the
    reference for counting how many decisions (at ``threshold``) the calibrator changed.

        explorer = CalibrationExplorer(y_test, probs)
        explorer.widget()                       # in a notebook: two menus and the diagram
        explorer.summary("naive Bayes", "temperature")   # the same numbers, as a Series
    """

    def __init__(self, y_true, probs: dict, n_bins: int = 10, threshold: float = 0.5):
        self.y = v.as_1d(y_true, "y_true")
        if not isinstance(probs, dict) or not probs:
            raise ValueError("probs must be a non-empty dict {(model, calibrator): probabilities}")
        self.probs = {}
        for key, p in probs.items():
            if not (isinstance(key, tuple) and len(key) == 2 and all(isinstance(k, str) for k in key)):
                raise ValueError(f"keys of probs must be (model, calibrator) string pairs, got {key!r}")
            p = v.scores(p, f"probs[{key!r}]", probabilities=True)
            v.same_length(y_true=self.y, probabilities=p)
            self.probs[key] = p
        self.models = list(dict.fromkeys(k[0] for k in self.probs))
        self.calibrators = list(dict.fromkeys(k[1] for k in self.probs))
        missing = [m for m in self.models if (m, "none") not in self.probs]
        if missing:
            raise ValueError(
                f"every model needs an uncalibrated entry (model, 'none'); missing for {missing}"
            )
        v.both_classes(self.y, 1)
        self.n_bins = n_bins
        self.threshold = v.number(threshold, "threshold", low=0, high=1)
        self._output = None
        self.selection, self.last_summary = None, None

    def _get(self, model: str, calibrator: str) -> np.ndarray:
        if (model, calibrator) not in self.probs:
            raise ValueError(f"no probabilities for model {model!r} with calibrator {calibrator!r}")
        return self.probs[(model, calibrator)]

    def summary(self, model: str, calibrator: str) -> pd.Series:
        """Brier score, log loss, ECE, ROC AUC and the number of decisions changed vs uncalibrated."""
        p = self._get(model, calibrator)
        raw = self.probs[(model, "none")]
        return pd.Series(
            {
                "brier": brier_score_loss(self.y, p),
                "log_loss": log_loss(self.y, p, labels=[0, 1]),
                "ece": expected_calibration_error(self.y, p, n_bins=self.n_bins),
                "roc_auc": roc_auc_score(self.y, p),
                "decisions_changed": int(np.sum((p >= self.threshold) != (raw >= self.threshold))),
            }
        )

    def figure(self, model: str, calibrator: str):
        """The reliability diagram of the model before and after the calibrator."""
        from .plots import plot_reliability_diagram

        curves = {f"{model}": self._get(model, "none")}
        if calibrator != "none":
            curves[f"{model} + {calibrator}"] = self._get(model, calibrator)
        return plot_reliability_diagram(self.y, curves, n_bins=self.n_bins)

    def update(self, model: str, calibrator: str) -> pd.Series:
        """Redraw the widget's output for this choice (the menus' callback); returns the summary."""
        import matplotlib.pyplot as plt
        from IPython.display import display

        summary = self.summary(model, calibrator)
        self.selection, self.last_summary = (model, calibrator), summary
        if self._output is not None:
            self._output.clear_output(wait=True)
            with self._output:
                fig = self.figure(model, calibrator)
                display(fig)
                plt.close(fig)
                print(summary.to_string(float_format=lambda x: f"{x:.4f}"))
        return summary

    def widget(self):
        """Two menus (model, calibrator) and an output area redrawn on every change."""
        import ipywidgets as widgets

        model = widgets.Dropdown(options=self.models, value=self.models[0], description=term("model"))
        calibrator = widgets.Dropdown(
            options=self.calibrators, value=self.calibrators[0], description=term("calibrator")
        )
        self._output = widgets.Output()

        def on_change(_change=None):
            self.update(model.value, calibrator.value)

        model.observe(on_change, names="value")
        calibrator.observe(on_change, names="value")
        on_change()
        return widgets.VBox([widgets.HBox([model, calibrator]), self._output])
