"""The prevalence explorer of chapter 1."""

from __future__ import annotations

from .._validation import number
from ..language import fmt, term
from ._widget import BrowserWidget, labels

_LABELS = (
    "sensitivity", "specificity", "prevalence", "ppv", "npv", "false_alarms_per_true_case",
    "actual_class", "predicted_class", "ex_expected_counts", "ex_prevalence_summary", "ex_ppv_alt",
)  # fmt: skip


class PrevalenceExplorer(BrowserWidget):
    """Sensitivity, specificity and prevalence → PPV, NPV and false alarms per true case, with the
    expected counts among ``population`` people tested.

        PrevalenceExplorer(sensitivity=0.9, specificity=0.95, prevalence=0.01)

    The sliders run over sensitivity and specificity in [0.5, 1] (steps of 0.01) and prevalence in
    [0.001, 0.5] (steps of 0.001); the starting values must lie on those grids' ranges.
    """

    module = "prevalence"
    RANGES = {
        "sensitivity": (0.5, 1.0, 0.01),
        "specificity": (0.5, 1.0, 0.01),
        "prevalence": (0.001, 0.5, 0.001),
    }

    def __init__(self, sensitivity, specificity, prevalence, population=10_000, classes=("sick", "healthy"),
                 lang=None):  # fmt: skip
        start = {"sensitivity": sensitivity, "specificity": specificity, "prevalence": prevalence}
        data = {}
        for key, value in start.items():
            low, high, step = self.RANGES[key]
            value = number(value, key, low=low, high=high)
            data[key] = {"min": low, "max": high, "step": step, "value": round(value, 6)}
        if isinstance(population, bool) or not isinstance(population, int) or population < 1:
            raise ValueError(f"population must be a positive whole number, got {population!r}")
        if not (isinstance(classes, (tuple, list)) and len(classes) == 2):
            raise ValueError(f"classes must be two label keys (positive, negative), got {classes!r}")
        names = labels(_LABELS, lang)
        names["pos"], names["neg"] = term(classes[0], lang), term(classes[1], lang)
        data["population"] = population
        data["labels"] = names
        super().__init__(data, lang=lang)

    @staticmethod
    def values(sensitivity, specificity, prevalence) -> dict:
        """PPV, NPV and false alarms per true case by Bayes' rule (for checking, not for the page)."""
        tp, fn = prevalence * sensitivity, prevalence * (1 - sensitivity)
        fp, tn = (1 - prevalence) * (1 - specificity), (1 - prevalence) * specificity
        return {"ppv": tp / (tp + fp), "npv": tn / (tn + fn), "false_alarms_per_true_case": fp / tp}

    def text_summary(self) -> str:
        d, lang = self.data, self.lang
        sens, spec, prev = (d[k]["value"] for k in ("sensitivity", "specificity", "prevalence"))
        v = self.values(sens, spec, prev)
        return term("ex_prevalence_summary", lang).format(
            sensitivity=fmt(sens, 2, lang=lang),
            specificity=fmt(spec, 2, lang=lang),
            prevalence=fmt(prev, 1, percent=True, lang=lang),
            ppv=fmt(v["ppv"], lang=lang),
            npv=fmt(v["npv"], lang=lang),
            false_alarms=fmt(v["false_alarms_per_true_case"], 1, lang=lang),
        )
