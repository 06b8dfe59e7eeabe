"""The 20 referred patients on the score axis, with the thresholds 0.3, 0.5 and 0.7."""

from beyond_accuracy import datasets, plots

NAME = "twenty-scores"


def draw():
    patients = datasets.twenty_patients()
    ax = plots.plot_scores(patients["y"], patients["score"], thresholds=(0.3, 0.5, 0.7))
    ax.figure.set_size_inches(7.6, 2.6)
    ax.figure.set_layout_engine("constrained")
    return ax.figure
