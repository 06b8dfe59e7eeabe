"""Experiment A after Platt scaling, split into two groups by the sign of the second feature:
the model is well calibrated on the whole test set but errs in opposite directions in the two
groups (one reliability curve above the diagonal, the other below)."""

import importlib.util
from pathlib import Path

import matplotlib.pyplot as plt

from beyond_accuracy import plots, term
from beyond_accuracy.metrics import reliability_table

NAME = "calibration-subgroups"


def _experiment_a():
    path = Path(__file__).with_name("calibration_experiment_a.py")
    spec = importlib.util.spec_from_file_location("calibration_experiment_a", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.experiment_a()


def draw():
    _, platt, X_test, y_test = _experiment_a()
    p = platt.predict_proba(X_test)[:, 1]
    positive_x2 = X_test[:, 1] > 0
    groups = {f"{term('group')} x₂ > 0": positive_x2, f"{term('group')} x₂ ≤ 0": ~positive_x2}
    with plots.course_style():
        fig, ax = plt.subplots(figsize=(5.2, 4.9), layout="constrained")
        ax.plot([0, 1], [0, 1], label=term("perfect_calibration"), **plots.BASELINE)
        for i, (name, mask) in enumerate(groups.items()):
            t = reliability_table(y_test[mask], p[mask], n_bins=10)
            plots.plot_reliability_curve(t, ax, label=name, i=i, markersize=5)
        ax.set_xlim(-0.02, 1.02)
        ax.set_ylim(-0.02, 1.02)
        ax.set_aspect("equal")
        ax.set_xlabel(term("mean_predicted_axis"))
        ax.set_ylabel(term("observed_frequency_axis"))
        ax.legend(loc="upper left", fontsize=8.5)
        plots.localise_axes(ax)
    return fig
