"""Chapter 4: the kappa paradox. One fixed model (its probabilities of answering j for a case of
class i) on populations where the share of class 1 grows and the other classes split the rest:
the browser (js/kappa.js) computes the expected confusion matrix, accuracy and quadratic weighted
kappa for the share the reader picks."""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.metrics import cohen_kappa_score

from .. import _validation as v
from ..language import fmt, get_language, term
from ._widget import BrowserWidget, labels

_LABELS = (
    "class_one_share",
    "ord_edge_share",
    "accuracy",
    "weighted_kappa",
    "actual_class",
    "predicted_class",
    "kappa_expected_matrix",
    "kappa_summary",
    "ord_paradox_title",
    "metric_value",
)


def share_grid(low: float = 1 / 3, high: float = 0.99, step: float = 0.01) -> list[float]:
    """The shares of class 1 the slider offers: ``low`` (by default equal shares), then every
    multiple of ``step`` above it up to ``high``."""
    n = int(np.floor(high / step + 1e-9))
    above = [round(i * step, 10) for i in range(1, n + 1) if i * step > low + 1e-9]
    return [float(low)] + above


class KappaParadoxExplorer(BrowserWidget):
    """Move the share of class 1 and watch accuracy and QWK of the same model.

    ``grading`` is the model's K × K matrix of P(answer j | actual class i), rows summing to 1
    (chapter 4's ``grading_probabilities()``); the population has ``share`` of class 1 and the
    other K − 1 classes split the rest equally.

        KappaParadoxExplorer(grading_probabilities())
    """

    module = "kappa"

    def __init__(self, grading, share: float = 1 / 3):
        m = np.asarray(grading, dtype=float)
        if m.ndim != 2 or m.shape[0] != m.shape[1] or m.shape[0] < 2:
            raise ValueError(f"grading must be a square K × K matrix with K ≥ 2, got shape {m.shape}")
        if not np.isfinite(m).all() or (m < 0).any() or not np.allclose(m.sum(axis=1), 1):
            raise ValueError("grading must hold probabilities whose rows sum to 1 (P(answer | actual class))")
        self.grading = m
        self.grid = share_grid(1 / m.shape[0])
        share = v.number(share, "share", low=self.grid[0], high=self.grid[-1])
        self.share = min(self.grid, key=lambda s: abs(s - share))
        lang = get_language()
        super().__init__(data=self._export(lang), lang=lang)

    def population(self, share: float) -> np.ndarray:
        k = len(self.grading)
        return np.array([share] + [(1 - share) / (k - 1)] * (k - 1))

    def expected_confusion(self, share: float) -> np.ndarray:
        """Rows actual, columns predicted, as shares of the population."""
        return self.population(share)[:, None] * self.grading

    def scores(self, share: float) -> pd.Series:
        """Expected accuracy and QWK (scikit-learn's cohen_kappa_score, weighting each cell)."""
        observed = self.expected_confusion(share)
        i, j = np.indices(observed.shape)
        keep = observed.ravel() > 0
        qwk = cohen_kappa_score(
            i.ravel()[keep], j.ravel()[keep], weights="quadratic", sample_weight=observed.ravel()[keep]
        )
        return pd.Series({"accuracy": float(np.trace(observed)), "qwk": float(qwk)})

    def _export(self, lang: str) -> dict:
        return {
            "grading": self.grading.round(12).tolist(),
            "shares": self.grid,
            "share": self.share,
            "labels": labels(_LABELS, lang),
        }

    def text_summary(self) -> str:
        """The text summary of the starting position (shown without JavaScript)."""
        s = self.scores(self.share)
        return term("kappa_summary", self.lang).format(
            share=fmt(self.share, 0, percent=True, lang=self.lang),
            accuracy=fmt(s["accuracy"], 3, lang=self.lang),
            qwk=fmt(s["qwk"], 3, lang=self.lang),
        )
